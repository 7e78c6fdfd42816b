/**
 * How a report speaks of its price book: the region, the currency, the date and the file. Apart from
 * pricing/price-book.ts, which reads files: the explorer's page bundles this.
 */
import type { PriceBook } from './price-book';

/** The book as a report names it: its region, currency, date and file. */
export const bookText = (book: Pick<PriceBook, 'region' | 'currency' | 'published' | 'file'>): string =>
  `${book.region}, ${book.currency} list prices published ${book.published} ` +
  `(${book.file.replace(/^.*[\\/]pricing[\\/]/, 'pricing/')})`;
