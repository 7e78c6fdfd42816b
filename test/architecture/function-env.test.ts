/**
 * The functions' environment variables are named once, in config/function-env.ts: the stack that sets
 * them, the handlers that read them and the local runtime that sets its own all take the name from there.
 * A name spelled anywhere else in the code (a string, an object key, `process.env.NAME`) could drift
 * from it: a renamed variable the stack sets and no handler reads. Comments may name them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FUNCTION_ENV } from '../../config/function-env';
import { ROOT, sourceFiles } from '../support/source-files';

const TABLE_FILE = 'config/function-env.ts';
/** Every folder of code: the stack, functions, runtimes, page and commands, the cost model and the template's. */
const FOLDERS = [
  'lib',
  'lambdas',
  'domain',
  'local',
  'vps',
  'bin',
  'config',
  'sizing',
  'node',
  'pricing',
  'cost',
  'frontend',
  'dlq',
  'localstack',
  'load-tests',
  'template',
];
const NAMES = Object.values(FUNCTION_ENV).map((variable) => variable.name);

/** Where a file's code (not its comments) spells one of `names`: `file:line NAME`. */
export function spelledNames(path: string, source: string, names: readonly string[]): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, name: string) =>
    found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${name}`);
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      if (names.includes(node.text)) report(node, node.text);
    } else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      // In a string: the name as a word of its own (QUEUE_URL is not in DEAD_LETTER_QUEUE_URL).
      for (const name of names) if (new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(node.text)) report(node, name);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("the functions' environment variables", () => {
  it('are each named once, and are all the table holds', () => {
    expect(new Set(NAMES).size).toBe(NAMES.length);
    expect(NAMES).toEqual(expect.arrayContaining(['TABLE_NAME', 'QUEUE_URL', 'SITE_ORIGIN', 'RATE_LIMIT']));
  });

  it('are spelled nowhere in the code but in config/function-env.ts', () => {
    const files = FOLDERS.flatMap(sourceFiles).filter((path) => path !== TABLE_FILE);
    expect(files.length).toBeGreaterThan(100);
    expect(files).toEqual(
      expect.arrayContaining(['lib/poll-stack.ts', 'lambdas/entries/cast-vote-function.ts', 'local/runtime.ts']),
    );
    const spelled = files.flatMap((path) => spelledNames(path, readFileSync(join(ROOT, path), 'utf8'), NAMES));
    expect(spelled).toEqual([]);
    // The table itself does spell them: the check sees what it looks for.
    expect(spelledNames(TABLE_FILE, readFileSync(join(ROOT, TABLE_FILE), 'utf8'), NAMES)).toHaveLength(NAMES.length);
  });

  it('would be caught as a string, an object key, a property read or inside a message, not in a comment', () => {
    const source = [
      "const a = requireEnv('TABLE_NAME');",
      'const b = { QUEUE_URL: url, [`SITE_ORIGIN`]: origin };',
      'const c = process.env.RATE_LIMIT;',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text with a template literal in it, on purpose
      'throw new Error(`${x}: COUNTER_SHARDS must be a whole number`);',
      '// TABLE_NAME in a comment, /* QUEUE_URL */ too',
      "const d = 'DEAD_LETTER_QUEUE_URL_OLD, MY_TABLE_NAME';",
    ].join('\n');
    expect(spelledNames('lib/x.ts', source, NAMES)).toEqual([
      'lib/x.ts:1 TABLE_NAME',
      'lib/x.ts:2 QUEUE_URL',
      'lib/x.ts:2 SITE_ORIGIN',
      'lib/x.ts:3 RATE_LIMIT',
      'lib/x.ts:4 COUNTER_SHARDS',
    ]);
  });
});
