/**
 * The page's servers (npm start, npm run vps) serve the cost explorer at /cost, built from the estimator's files
 * (cost/report-files.ts): they load no command line, neither npm run cost's (cost/cli.ts), the options parser
 * (node/command-line.ts), nor any bin/ entry.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, target } from '../support/imports';
import { ROOT } from '../support/source-files';

/** Every project file a file loads at run time, itself included (type-only imports are erased). */
function loaded(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const i of importsOf(readFileSync(join(ROOT, file), 'utf8'))) {
    if (i.typeOnly || !i.specifier.startsWith('.')) continue;
    const to = target(file, i.specifier);
    const path = [`${to}.ts`, `${to}/index.ts`].find((p) => existsSync(join(ROOT, p)));
    if (path) loaded(path, seen);
  }
  return seen;
}

describe("the page's servers", () => {
  it('load the explorer without a command line', () => {
    const files = [...loaded('frontend/served-site.ts')];
    expect(files).toContain('cost/report-files.ts');
    const commandLines = (f: string) => f === 'cost/cli.ts' || f === 'node/command-line.ts' || f.startsWith('bin/');
    expect(files.filter(commandLines)).toEqual([]);
  });
});
