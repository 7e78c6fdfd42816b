/**
 * Messages and comments send people to the README's sections (README "Deploy to AWS") and to the
 * pages of docs/ (docs/cost.md, or docs/cost.md "Quotas" for a section of one): each page must
 * exist and each section named must be a heading of it, or the pointer leads nowhere.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

interface Reference {
  page: string;
  section?: string;
}

/** Every page a text names, with the section after it where it names one in quotes. */
function references(text: string): Reference[] {
  return [...text.matchAll(/\b(README|docs\/[\w-]+\.(?:md|yaml))(?:,? "([^"]+)")?/g)].map((m) => ({
    page: m[1] === 'README' ? 'README.md' : m[1],
    ...(m[2] ? { section: m[2] } : {}),
  }));
}

const headings = (page: string) =>
  readFileSync(page, 'utf8')
    .split('\n')
    .filter((line) => /^#{1,3} /.test(line))
    .map((line) => line.replace(/^#+ /, ''));

describe('README and docs/ references', () => {
  it('finds the references it checks', () => {
    expect(references('see README "Deploy to AWS", docs/cost.md, "Quotas" and docs/vps.md.')).toEqual([
      { page: 'README.md', section: 'Deploy to AWS' },
      { page: 'docs/cost.md', section: 'Quotas' },
      { page: 'docs/vps.md' },
    ]);
  });

  it('name pages that exist, and sections those pages have', () => {
    const found = files('.').flatMap((file) =>
      references(readFileSync(file, 'utf8')).map((reference) => ({ file, ...reference })),
    );
    expect(found.filter(({ page }) => page.startsWith('docs/')).length).toBeGreaterThan(10);
    const dangling = found.filter(
      ({ page, section }) =>
        !existsSync(page) || (section !== undefined && !headings(page).some((heading) => heading.startsWith(section))),
    );
    expect(dangling).toEqual([]);
  });
});
