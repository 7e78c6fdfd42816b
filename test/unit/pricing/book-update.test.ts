/**
 * A book made again: the Price List's lines with the ones it cannot give kept, checked as the bill reads a book,
 * and written whole or not at all. In a temporary folder of books, never pricing/books/.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bookOnDisk, composeBook, keptLines, NoLineToKeep, writeBook } from '../../../pricing/book-update';
import { BadPriceBook, type BookFile, bookFile, readPriceBook } from '../../../pricing/price-book';
import { PRICE_IDS } from '../../../pricing/price-lines';
import { LISTED_IDS, type ListedLines } from '../../../pricing/price-list';
import { SELECTORS, type UnlistedLine } from '../../../pricing/price-list-selectors';
import { CommandFailure } from '../../../domain/errors';

/** A folder of books holding copies of the repository's, as these regions. */
function books(...regions: string[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'books-'));
  for (const region of regions)
    writeFileSync(
      bookFile(region, folder),
      readFileSync(bookFile('us-east-1'), 'utf8').replace('"region": "us-east-1"', `"region": "${region}"`),
    );
  return folder;
}

/** Every line the Price List gives, at $7 from one offer file. */
const LISTED: ListedLines = Object.fromEntries(
  LISTED_IDS.map((id) => [
    id,
    {
      tiers: [{ price: 7 }],
      source: { offer: 'X', sku: id, publication: '2026-11-20T10:00:00Z' },
      checked: '2026-11-27',
    },
  ]),
);

describe('the lines the Price List cannot give', () => {
  it('are kept from the book they replace', () => {
    const folder = books('eu-central-1');
    const previous = bookOnDisk('eu-central-1', folder)!;
    const kept = keptLines('eu-central-1', folder, previous);
    expect(Object.keys(kept)).toEqual(PRICE_IDS.filter((id) => !LISTED_IDS.includes(id)));
    expect(kept.managedInstanceHours).toEqual({
      line: previous.lines.managedInstanceHours,
      global: false,
      why: expect.stringContaining('AmazonEC2'),
    });
  });

  it("for a region with no book: the what-if's instance price is us-east-1's, said as its assumption", () => {
    const folder = books('us-east-1');
    const kept = keptLines('eu-central-1', folder, undefined);
    const usEast1 = bookOnDisk('us-east-1', folder)!.lines.managedInstanceHours;
    expect(kept.managedInstanceHours?.line).toEqual({
      ...usEast1,
      assumption: expect.stringMatching(/^us-east-1's instance price .*aws\.amazon\.com\/ec2\/pricing/),
    });
    // Without a us-east-1 book to take it from: the line is named, with what to do.
    const call = () => keptLines('eu-central-1', books(), undefined);
    expect(call).toThrow(NoLineToKeep);
    expect(call).toThrow(/^managedInstanceHours is not in AWS's Price List \(.*AmazonEC2.*\) and there is no /);
  });

  it('for a region with no book: a line that differs by region and no assumption allows fails, naming it', () => {
    const folder = books('us-east-1');
    const { firstBookAssumes: _, ...strict } = SELECTORS.managedInstanceHours as UnlistedLine;
    const call = () => keptLines('eu-central-1', folder, undefined, { ...SELECTORS, managedInstanceHours: strict });
    expect(call).toThrow(
      new RegExp(
        `^managedInstanceHours is not in AWS's Price List \\(.*AmazonEC2.*\\) and there is no ` +
          `${bookFile('eu-central-1', folder)} to keep it from: write that book by hand first`,
      ),
    );
  });

  it('for a region with no book: a global price (flat-rate plans) is us-east-1’s', () => {
    const folder = books('us-east-1');
    // As if the Price List gave the instance lines: the plans are then all a new region's book takes.
    const selectors = {
      ...SELECTORS,
      managedInstanceHours: SELECTORS.lambdaRequests,
      managedInstanceFee: SELECTORS.lambdaRequests,
    };
    const kept = keptLines('eu-central-1', folder, undefined, selectors);
    expect(Object.keys(kept)).toEqual(PRICE_IDS.filter((id) => id.startsWith('cloudFrontPlan')));
    expect(kept.cloudFrontPlanPro).toEqual({
      line: bookOnDisk('us-east-1', folder)!.lines.cloudFrontPlanPro,
      global: true,
      why: expect.stringContaining('flat-rate plans are not in the Price List'),
    });
    expect(() => keptLines('eu-central-1', books(), undefined, selectors)).toThrow(
      /^cloudFrontPlanFree is not in .* nor a us-east-1 book: /,
    );
  });

  it('a book on disk of another region, or not a book: refused, naming the file', () => {
    const folder = books('eu-central-1');
    copyFileSync(bookFile('us-east-1'), bookFile('eu-west-1', folder));
    expect(() => bookOnDisk('eu-west-1', folder)).toThrow(BadPriceBook);
    expect(() => bookOnDisk('eu-west-1', folder)).toThrow('its region is us-east-1, not eu-west-1');
    writeFileSync(bookFile('eu-central-1', folder), '{"region": "eu-central-1"');
    expect(() => bookOnDisk('eu-central-1', folder)).toThrow(/eu-central-1\.json: not JSON/);
  });
});

describe('the new book', () => {
  const compose = (folder: string) => {
    const previous = bookOnDisk('eu-central-1', folder);
    return composeBook('eu-central-1', LISTED, keptLines('eu-central-1', folder, previous), {
      source: 'https://pricing.test',
      today: '2026-11-27',
    });
  };

  it('holds the Price List’s lines and the kept ones, published the newest day among them', () => {
    const book: BookFile = compose(books('eu-central-1'));
    expect(book.lines.httpApiRequests).toEqual(LISTED.httpApiRequests);
    expect(book.lines.cloudFrontPlanPro.tiers).toEqual([{ price: 15 }]);
    // The kept lines were checked by hand on 2026-11-26; the Price List's were published 2026-11-20.
    expect(book.published).toBe('2026-11-26');
    expect(book.source).toBe(
      'AWS Price List (https://pricing.test), read 2026-11-27; a line not in it names its own source',
    );
  });

  it('is written whole, where readPriceBook reads it, leaving no temporary file', () => {
    const folder = books('eu-central-1');
    const file = writeBook(compose(folder), folder);
    expect(file).toBe(bookFile('eu-central-1', folder));
    const read = readPriceBook('eu-central-1', folder);
    expect(read.prices.httpApiRequests.tiers).toEqual([{ price: 7 }]);
    expect(read.prices.httpApiRequests.source).toBe('AWS Price List X, SKU httpApiRequests, published 2026-11-20');
    expect(readdirSync(folder).sort()).toEqual(['eu-central-1.json']);
  });

  it('that cannot be written: one line, exit 1 (a CommandFailure), and nothing left behind', () => {
    const folder = books('eu-central-1');
    const book = compose(folder);
    const missing = join(folder, 'no-such-folder');
    expect(() => writeBook(book, missing)).toThrow(CommandFailure);
    expect(() => writeBook(book, missing)).toThrow(`Cannot write ${bookFile('eu-central-1', missing)}: ENOENT`);
    expect(readdirSync(folder)).toEqual(['eu-central-1.json']);
  });
});
