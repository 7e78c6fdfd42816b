/**
 * The figures README.md and docs/ quote from the cost model are what `npm run docs:figures` writes
 * from it now: a change to the model, the prices, the quotas or the templates that moves a figure
 * fails here until the generator is run again.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewrittenDocuments } from '../../figures/docs-figures';

/** A copy of the documents, to change without touching the repository's. */
function copyOfDocuments(): string {
  const root = mkdtempSync(join(tmpdir(), 'docs-figures-'));
  cpSync('README.md', join(root, 'README.md'));
  cpSync('docs', join(root, 'docs'), { recursive: true });
  return root;
}

describe('the figures in README.md and docs/', () => {
  it('are what npm run docs:figures writes', () => {
    const documents = rewrittenDocuments();
    expect(documents.map((d) => d.file)).toEqual(expect.arrayContaining(['README.md', 'docs/cost.md']));
    for (const { file, current, expected } of documents)
      expect(current, `${file}: run npm run docs:figures`).toBe(expected);
  });

  it('say which command, design and stack state they are for', () => {
    const readme = readFileSync('README.md', 'utf8');
    const answer = /<!-- figures:readme-answer -->([\s\S]*?)<!-- \/figures:readme-answer -->/.exec(readme);
    expect(answer?.[1]).toMatch(
      /from `npm run cost -- --profile seed` \(no cdk\.out\/, so "this stack" is the default/,
    );
    const cost = readFileSync('docs/cost.md', 'utf8');
    expect(cost).toContain('`npx cdk synth -c results=function-url && npm run cost -- --profile seed`');
  });

  it('catch a figure changed by hand, and a region no generator writes', () => {
    const root = copyOfDocuments();
    const readme = join(root, 'README.md');
    const text = readFileSync(readme, 'utf8');
    const edited = text.replace(
      /(<!-- figures:readme-answer -->[\s\S]*?\$)(\d)/,
      (_, head, digit) => `${head}${(Number(digit) + 1) % 10}`,
    );
    expect(edited).not.toBe(text);
    writeFileSync(readme, edited);
    const stale = rewrittenDocuments(root).filter((d) => d.current !== d.expected);
    expect(stale.map((d) => d.file)).toEqual(['README.md']);
    expect(stale[0].expected).toBe(text);

    writeFileSync(readme, `${text}\n<!-- figures:no-such -->\n<!-- /figures:no-such -->\n`);
    expect(() => rewrittenDocuments(root)).toThrow(/README\.md: no figures named "no-such"/);
  });
});
