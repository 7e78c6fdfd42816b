/**
 * CloudFront priced where the viewers are (pricing/viewers.ts, a profile's viewersIn): its requests and transfer
 * come from the book of a region whose viewers are there, every other line stays the stack's region's, and the
 * answer's first line says so; with no such book on disk, one line naming the book to fetch; the command and the
 * explorer pick the book alike.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { billOptions } from '../../../cost/report-files';
import { estimate } from '../../../cost/estimate/model';
import { PROFILES } from '../../../cost/usage/profiles';
import { DEFAULT_UNIT_COSTS } from '../../../cost/usage/unit-costs';
import { pricesLine } from '../../../pricing/book-words';
import { bookFile, NoViewersBook, type PriceBook, readPriceBook } from '../../../pricing/price-book';
import { bookForViewers } from '../../../pricing/viewers';
import { viewerLines } from '../../../pricing/price-list-selectors';
import type { EdgeLocation } from '../../../pricing/regions';
import { designStack } from '../../support/cost';

/** A folder with us-east-1's book and, if asked, a (synthetic) eu-central-1 book whose every price is doubled. */
function books(withFrankfurt: boolean): string {
  const folder = mkdtempSync(join(tmpdir(), 'books-'));
  const text = readFileSync(bookFile('us-east-1'), 'utf8');
  writeFileSync(bookFile('us-east-1', folder), text);
  if (withFrankfurt) {
    const book = JSON.parse(text);
    book.region = 'eu-central-1';
    for (const line of Object.values<any>(book.lines)) for (const tier of line.tiers) tier.price *= 2;
    writeFileSync(bookFile('eu-central-1', folder), JSON.stringify(book));
  }
  return folder;
}

const options = (folder: string, viewersIn?: EdgeLocation) =>
  billOptions({ 'new-account': false, region: 'us-east-1', books: folder }, designStack(), {
    ...PROFILES.seed,
    viewersIn,
  });

describe('CloudFront where the viewers are', () => {
  it("prices CloudFront's viewer lines from a book of a region there, and nothing else", () => {
    const folder = books(true);
    const home = options(folder).book;
    const away = options(folder, 'Europe').book;
    expect(viewerLines().sort()).toEqual(['cloudFrontOriginTransfer', 'cloudFrontRequests', 'cloudFrontTransfer']);
    for (const id of Object.keys(home.prices) as (keyof typeof home.prices)[]) {
      const factor = viewerLines().includes(id) ? 2 : 1;
      expect(
        away.prices[id].tiers.map((t) => t.price),
        id,
      ).toEqual(home.prices[id].tiers.map((t) => t.price * factor));
    }
    const stack = designStack({ results: 'cloudfront' });
    const line = (book: typeof home) =>
      estimate(PROFILES.seed, stack, DEFAULT_UNIT_COSTS, { book }).lines.find(
        (l) => l.priceId === 'cloudFrontTransfer',
      );
    expect(line(away)!.usd).toBeCloseTo(2 * line(home)!.usd, 6);
    expect(away.viewers).toEqual({ in: 'Europe', region: 'eu-central-1' });
    expect(pricesLine(away, Date.parse('2026-11-27'))).toBe(
      "Priced for us-east-1 in USD, at AWS's list prices of 2026-11-26, CloudFront for viewers in Europe at " +
        "eu-central-1's (another region: --region <code>).",
    );
  });

  it("keeps the region's own viewers where the profile names none or theirs", () => {
    const folder = books(false);
    expect(options(folder).book.viewers).toEqual({ in: 'United States', region: 'us-east-1' });
    expect(options(folder, 'United States').book).toEqual(options(folder).book);
    expect(readPriceBook('us-east-1', folder).viewers.in).toBe('United States');
  });

  it('refuses viewers no book on disk prices, naming one to fetch', () => {
    expect(() => options(books(false), 'Europe')).toThrow(new NoViewersBook('Europe').message);
    expect(new NoViewersBook('Europe').message).toBe(
      'No price book prices CloudFront for viewers in Europe: get one of a region there with ' +
        'npm run prices -- --region eu-west-1',
    );
  });

  it('picks, for the command and the page alike, the first region there that has a book (the regions order)', () => {
    const home = readPriceBook('us-east-1');
    const frankfurt = { ...home, region: 'eu-central-1', viewers: { in: 'Europe' as const, region: 'eu-central-1' } };
    const ireland = { ...frankfurt, region: 'eu-west-1', viewers: { in: 'Europe' as const, region: 'eu-west-1' } };
    const among =
      (...had: PriceBook[]) =>
      (code: string) =>
        had.find((b) => b.region === code);
    expect(bookForViewers(home, 'Europe', among(frankfurt, ireland))!.viewers.region).toBe('eu-west-1');
    expect(bookForViewers(home, 'Europe', among(frankfurt))!.viewers.region).toBe('eu-central-1');
    expect(bookForViewers(home, 'Europe', among(home))).toBeUndefined();
    expect(bookForViewers(home, 'United States', among())).toBe(home);
  });
});
