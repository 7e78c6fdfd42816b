/**
 * Every test file runs in a tier. The tiers are globs over named folders (vitest.config.ts): a test file in a
 * new folder would match neither and never run, silently. Vitest itself says which files its projects take.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');

/** Every `*.test.ts` under test/, relative to the root. */
function testFiles(dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? testFiles(join(dir, entry.name))
      : entry.name.endsWith('.test.ts')
        ? [relative(ROOT, join(dir, entry.name))]
        : [],
  );
}

describe('the test tiers', () => {
  it('take every test file, each in one tier', () => {
    const listed = JSON.parse(
      execFileSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'list', '--filesOnly', '--json'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, VITEST: undefined, VITEST_POOL_ID: undefined, VITEST_WORKER_ID: undefined },
      }),
    ) as Array<{ file: string; projectName: string }>;
    const tiers = new Map<string, string[]>();
    for (const { file, projectName } of listed) {
      const path = relative(ROOT, file);
      tiers.set(path, [...(tiers.get(path) ?? []), projectName]);
    }
    const files = testFiles();
    expect(files.length).toBeGreaterThan(40);
    expect(files.filter((file) => !tiers.has(file))).toEqual([]);
    expect(files.filter((file) => (tiers.get(file)?.length ?? 0) > 1)).toEqual([]);
  });
});
