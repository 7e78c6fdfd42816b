/**
 * CloudFront priced where the viewers are, not where the stack is: a book's viewer lines (requests and transfer
 * out, those pricing/price-list-selectors.ts picks by the viewers' edge group) taken from the book of a region
 * whose viewers are there. Pure: the cost command and the explorer's page both compose books with it.
 */
import type { PriceBook } from './price-book';
import { viewerLines } from './price-list-selectors';

/** `book`, its CloudFront viewer lines `there`'s (a book of a region whose viewers are where the profile's are). */
export function withViewersFrom(book: PriceBook, there: PriceBook): PriceBook {
  if (there.viewers.in === book.viewers.in) return book;
  const prices = { ...book.prices };
  for (const id of viewerLines()) prices[id] = there.prices[id];
  return { ...book, prices, viewers: there.viewers };
}
