/** What npm run prices prints against the book it replaces: a line per change, as cdk diff shows a stack's. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bookChanges, dollars, tiersText } from '../../../pricing/book-changes';
import type { KeptLines } from '../../../pricing/book-update';
import { type BookFile, bookFile, parseBook } from '../../../pricing/price-book';
import { PRICE_IDS } from '../../../pricing/price-lines';

const usEast1 = (): BookFile => parseBook(readFileSync(bookFile('us-east-1'), 'utf8'), 'us-east-1.json');
const LISTED = { offer: 'AmazonApiGateway', sku: 'SKU', publication: '2026-11-14T02:10:55Z' };

/** A copy of the book with every line read from the Price List, then these edits. */
function fromPriceList(edit: (book: BookFile) => void = () => {}): BookFile {
  const book = structuredClone(usEast1());
  for (const id of PRICE_IDS) book.lines[id].source = LISTED;
  edit(book);
  return book;
}

describe('a price as the diff shows it', () => {
  it.each([
    [1, '$1.00'],
    [0.9, '$0.90'],
    [0.285, '$0.285'],
    [0.0000166667, '$0.0000166667'],
    [1000, '$1000.00'],
    [0, '$0.00'],
    [0.024480000000000002, '$0.02448'],
  ])('%d: %s', (price, text) => {
    expect(dollars(price)).toBe(text);
  });

  it('tiers in one phrase', () => {
    expect(tiersText('httpApiRequests', usEast1().lines.httpApiRequests.tiers)).toBe(
      '$1.00 per 1M requests up to 300,000,000, then $0.90',
    );
  });
});

describe('the changes', () => {
  it('a tier’s new price: [~] with the line, both prices, its unit and the tier', () => {
    const before = fromPriceList();
    const after = fromPriceList((book) => {
      book.lines.httpApiRequests.tiers[0].price = 1.16;
    });
    expect(bookChanges(before, after, {})).toEqual([
      '[~] httpApiRequests  $1.00 → $1.16 per 1M requests (tier 1)',
      `[=] ${PRICE_IDS.length - 1} more lines unchanged`,
    ]);
  });

  it('a single-tier line: no tier named; a tier’s new end, a tier added and one gone', () => {
    const after = fromPriceList((book) => {
      book.lines.lambdaRequests.tiers = [{ price: 0.25 }];
      book.lines.route53HostedZone.tiers = [{ upTo: 100, price: 0.5 }, { price: 0.1 }];
      book.lines.sqsFifoRequests.tiers = [{ upTo: 100e9, price: 0.5 }, { price: 0.4 }];
      book.lines.route53Queries.tiers = [{ price: 0.4 }];
    });
    expect(bookChanges(fromPriceList(), after, {}).slice(0, -1)).toEqual([
      '[~] lambdaRequests  $0.20 → $0.25 per 1M requests',
      '[~] sqsFifoRequests  up to none → 100,000,000,000 (tier 1)',
      '[+] sqsFifoRequests  $0.40 per 1M requests (tier 2)',
      '[~] route53HostedZone  up to 25 → 100 (tier 1)',
      '[~] route53Queries  up to 1,000,000,000 → none (tier 1)',
      '[-] route53Queries  $0.20 per 1M queries (tier 2): gone',
    ]);
  });

  it('the same price, now read from the Price List rather than a pricing page: a note, not a change', () => {
    const changes = bookChanges(usEast1(), fromPriceList(), {});
    expect(changes[0]).toBe('[=] httpApiRequests  same price, now from the Price List (was a pricing page)');
    expect(changes.filter((line) => /^\[[~+-]\]/.test(line))).toEqual([]);
  });

  it('a kept line says why; one taken from us-east-1’s book says that; a new book’s lines are all [+]', () => {
    const book = fromPriceList();
    const kept: KeptLines = {
      managedInstanceHours: { line: book.lines.managedInstanceHours, global: false, why: 'not listed' },
      cloudFrontPlanPro: { line: book.lines.cloudFrontPlanPro, global: true, why: 'one price worldwide' },
    };
    const changes = bookChanges(undefined, book, kept);
    expect(changes).toContain('[=] managedInstanceHours  $0.1632 per instance-hour, kept: not listed');
    expect(changes).toContain(
      "[+] cloudFrontPlanPro  $15.00 per plan-month, us-east-1's (the same everywhere): one price worldwide",
    );
    expect(changes).toContain('[+] httpApiRequests  $1.00 per 1M requests up to 300,000,000, then $0.90');
    expect(changes).toHaveLength(PRICE_IDS.length);
  });
});
