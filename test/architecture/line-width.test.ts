/**
 * No source line over 120 characters. Biome's formatter wraps code at that width, but it leaves
 * strings, template literals and comments as they are: this test holds them to it too.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

export const MAX_LINE = 120;
const SOURCE = /\.(ts|cjs|mjs|js|css)$/;

/** `file:line (length)` for each line of `text` longer than the limit. */
export function overlong(file: string, text: string, max = MAX_LINE): string[] {
  return text.split('\n').flatMap((line, i) => (line.length > max ? [`${file}:${i + 1} (${line.length})`] : []));
}

describe('line width', () => {
  it('finds a line one character over the limit, and only that one', () => {
    const text = ['x'.repeat(MAX_LINE), 'y'.repeat(MAX_LINE + 1)].join('\n');
    expect(overlong('a.ts', text)).toEqual([`a.ts:2 (${MAX_LINE + 1})`]);
  });

  it(`holds every tracked source file to ${MAX_LINE} characters a line`, () => {
    const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
      .split('\n')
      .filter((file) => SOURCE.test(file));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => overlong(file, readFileSync(file, 'utf8')))).toEqual([]);
  });
});
