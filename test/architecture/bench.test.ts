/**
 * bench/ holds every benchmark: they import the product to measure it, and nothing of the product (every file
 * outside bench/ and test/) imports them, so a benchmark is never shipped, bundled nor loaded by a command of the
 * product, and a change to one never reaches the product. No file of the product is named a benchmark either.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, target } from '../support/imports';

const OUTSIDE_PRODUCT = /^(bench|test)\//;

export function benchInProduct(files: Array<{ path: string; source: string }>): string[] {
  const product = files.filter(({ path }) => !OUTSIDE_PRODUCT.test(path));
  return [
    ...product
      .filter(({ path }) => /bench/i.test(posix.basename(path)))
      .map(({ path }) => `${path} is named a benchmark: benchmarks live in bench/`),
    ...product.flatMap(({ path, source }) =>
      importsOf(source)
        .filter(({ specifier }) => specifier.startsWith('.') && `${target(path, specifier)}/`.startsWith('bench/'))
        .map(({ specifier }) => `${path} imports ${specifier}: nothing of the product imports bench/`),
    ),
  ];
}

describe('bench/', () => {
  it('is imported by nothing of the product, and holds every benchmark', () => {
    const paths = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const files = paths.map((path) => ({
      path,
      source: /\.(ts|mts|cts)$/.test(path) ? readFileSync(path, 'utf8') : '',
    }));
    expect(files.filter(({ path }) => path.startsWith('bench/')).length).toBeGreaterThan(5);
    expect(files.filter(({ path }) => /^(vps|cost|local|lambdas|lib)\//.test(path)).length).toBeGreaterThan(100);
    expect(benchInProduct(files)).toEqual([]);
  });

  it('catches an import of it from the product, and a benchmark outside it, but not a test that imports it', () => {
    expect(
      benchInProduct([
        { path: 'vps/server.ts', source: "import { benchVps } from '../bench/vps-capacity';" },
        { path: 'cost/cli.ts', source: "const { benchExplorer } = await import('../bench/explorer-timings');" },
        { path: 'local/bench-client.ts', source: '' },
        { path: 'test/bench/smoke.test.ts', source: "import { benchSize } from '../../bench/vps-capacity';" },
        { path: 'bench/bin/vps.ts', source: "import { benchVps } from '../vps-capacity';" },
      ]),
    ).toEqual([
      'local/bench-client.ts is named a benchmark: benchmarks live in bench/',
      'vps/server.ts imports ../bench/vps-capacity: nothing of the product imports bench/',
      'cost/cli.ts imports ../bench/explorer-timings: nothing of the product imports bench/',
    ]);
  });
});
