/**
 * CloudFront priced where the viewers are, not where the stack is: a book's viewer lines (requests and transfer
 * out, those pricing/price-list-selectors.ts picks by the viewers' edge group) taken from the book of a region
 * whose viewers are there. Pure: the cost command and the explorer's page both compose books with it.
 */
import type { PriceBook } from './price-book';
import { viewerLines } from './price-list-selectors';
import { type EdgeLocation, regionsWithViewersIn } from './regions';

/** `book`, its CloudFront viewer lines `there`'s (a book of a region whose viewers are where the profile's are). */
export function withViewersFrom(book: PriceBook, there: PriceBook): PriceBook {
  if (there.viewers.in === book.viewers.in) return book;
  const prices = { ...book.prices };
  for (const id of viewerLines()) prices[id] = there.prices[id];
  return { ...book, prices, viewers: there.viewers };
}

/**
 * `book` with CloudFront priced for `viewers`, from the book of the first region there (pricing/regions.ts order)
 * that `bookOf` has; `book` itself when its own viewers are there; undefined when no region there has a book.
 */
export function bookForViewers(
  book: PriceBook,
  viewers: EdgeLocation,
  bookOf: (region: string) => PriceBook | undefined,
): PriceBook | undefined {
  if (viewers === book.viewers.in) return book;
  for (const region of regionsWithViewersIn(viewers)) {
    const there = bookOf(region);
    if (there) return withViewersFrom(book, there);
  }
  return undefined;
}
