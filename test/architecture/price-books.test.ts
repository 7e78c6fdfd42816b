/**
 * Prices are a region's book, handed to what uses them: the estimator, the stack's dashboard and the explorer
 * are given a book, and only the places that decide the region read one from disk. No module keeps a price sheet
 * of its own (the sheet that was config/aws-prices.ts is the book pricing/books/us-east-1.json now), and none
 * reads a price but through its tiers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from '../support/source-files';

const PRODUCT = ['cost', 'lib', 'config', 'sizing', 'node', 'figures', 'local', 'vps', 'frontend', 'lambdas', 'domain'];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('price books', () => {
  it('are read from disk only where the region is decided: the cost command, the CDK app and the docs figures', () => {
    const readers = PRODUCT.flatMap(sourceFiles).filter((file) => /\breadPriceBook\(/.test(read(file)));
    expect(readers.sort()).toEqual(['cost/report-files.ts', 'figures/docs-figures.ts', 'lib/app.ts']);
  });

  it('are the only prices: no module of the product imports a book file or holds a price sheet', () => {
    for (const file of PRODUCT.flatMap(sourceFiles)) {
      const source = read(file);
      expect(source, file).not.toMatch(/from '[^']*pricing\/books\//);
      expect(source, file).not.toMatch(/config\/aws-prices|\bPRICES\b/);
      // A tier's price written into code, as the sheet did: `{ upTo: …, price: 0.9 }`.
      expect(source, file).not.toMatch(/\bprice:\s*\d/);
    }
  });

  it("are read through a price's tiers (pricing/tiers.ts): no module outside pricing/ picks a tier itself", () => {
    for (const file of PRODUCT.flatMap(sourceFiles)) expect(read(file), file).not.toMatch(/\.tiers\[/);
  });
});
