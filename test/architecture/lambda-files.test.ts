/**
 * No two files under lambdas/ share a basename: a function's entry (lambdas/entries/cast-vote-function.ts) and
 * its handler (lambdas/handlers/cast-vote.ts) once did, and a search, an editor's tab or a stack trace named
 * either as `cast-vote.ts`.
 */
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/source-files';

/** Each basename held by more than one of `files`, with the files that hold it. */
export function sharedBasenames(files: string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const file of files) byName.set(posix.basename(file), [...(byName.get(posix.basename(file)) ?? []), file]);
  return [...byName].filter(([, paths]) => paths.length > 1).map(([name, paths]) => `${name}: ${paths.join(', ')}`);
}

describe('lambdas/', () => {
  it('has no two files of one basename', () => {
    const files = sourceFiles('lambdas');
    expect(files.length).toBeGreaterThan(15);
    expect(sharedBasenames(files)).toEqual([]);
  });

  it('catches an entry named as its handler', () => {
    expect(
      sharedBasenames(['lambdas/entries/cast-vote.ts', 'lambdas/handlers/cast-vote.ts', 'lambdas/handlers/http.ts']),
    ).toEqual(['cast-vote.ts: lambdas/entries/cast-vote.ts, lambdas/handlers/cast-vote.ts']);
  });
});
