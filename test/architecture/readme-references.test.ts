/**
 * Messages and comments send people to README sections by name (README "Deploy to AWS"): each
 * such name must be a heading of the README, or the pointer leads nowhere.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SKIP = new Set([
  'node_modules',
  'cdk.out',
  'cdk.out.localstack',
  'dist',
  '.git',
  'load-tests/results',
  'test-artifacts',
  'bench-results',
  'cost-report',
]);

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (SKIP.has(name) || SKIP.has(path)) continue;
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.(ts|cjs|mjs|yml|json)$|Dockerfile$|^run$/.test(name)) out.push(path);
  }
  return out;
}

function readmeReferences(text: string): string[] {
  return [...text.matchAll(/README,? "([^"]+)"/g)].map((m) => m[1]);
}

describe('README references', () => {
  const headings = readFileSync('README.md', 'utf8')
    .split('\n')
    .filter((line) => /^#{2,3} /.test(line))
    .map((line) => line.replace(/^#+ /, ''));

  it('finds the references it checks', () => {
    expect(readmeReferences('see README "Deploy to AWS", and README, "LocalStack"')).toEqual([
      'Deploy to AWS',
      'LocalStack',
    ]);
  });

  it('name sections the README has', () => {
    const references = files('.').flatMap((file) =>
      readmeReferences(readFileSync(file, 'utf8')).map((name) => ({ file, name })),
    );
    expect(references.length).toBeGreaterThan(5);
    const dangling = references.filter(({ name }) => !headings.some((heading) => heading.startsWith(name)));
    expect(dangling).toEqual([]);
  });
});
