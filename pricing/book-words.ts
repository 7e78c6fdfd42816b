/**
 * How a report speaks of its price book: the region, the currency, the date and the file. Apart from
 * pricing/price-book.ts, which reads files: the explorer's page bundles this.
 */
import type { PriceBook } from './price-book';

/** The book as a report names it: its region, currency, date and file. */
export const bookText = (book: Pick<PriceBook, 'region' | 'currency' | 'published' | 'file'>): string =>
  `${book.region}, ${book.currency} list prices published ${book.published} ` +
  `(${book.file.replace(/^.*[\\/]pricing[\\/]/, 'pricing/')})`;

/** Past this many days, the answer suggests fetching the book again. */
const STALE_AFTER_DAYS = 90;

/**
 * The answer's first line: the region, the currency and the book's date (and where CloudFront's viewers are
 * priced, when not the region's), and a fresh book's command once it is old.
 */
export function pricesLine(
  book: Pick<PriceBook, 'region' | 'currency' | 'published'> & Partial<Pick<PriceBook, 'viewers'>>,
  now = Date.now(),
): string {
  const days = Math.floor((now - Date.parse(book.published)) / 86_400_000);
  const viewers =
    book.viewers && book.viewers.region !== book.region
      ? `, CloudFront for viewers in ${book.viewers.in} at ${book.viewers.region}'s`
      : '';
  const head = `Priced for ${book.region} in ${book.currency}, at AWS's list prices of ${book.published}${viewers}`;
  return days > STALE_AFTER_DAYS
    ? `${head}, ${days} days old: npm run prices -- --region ${book.region} fetches today's.`
    : `${head} (another region: --region <code>).`;
}
