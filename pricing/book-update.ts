/**
 * A region's book made again from AWS's Price List: the lines it gives, and the lines it cannot give (CloudFront's
 * flat-rate plans, Lambda Managed Instances' EC2 price: pricing/price-list-selectors.ts says why) kept from the
 * book it replaces, or, for a line priced the same everywhere, from us-east-1's. The new book is checked as any
 * book is read (parseBook) and written whole or not at all: a temporary file, renamed over the old one.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { BadPriceBook, type BookFile, type BookLine, bookFile, parseBook } from './price-book';
import { PRICE_IDS, type PriceId } from './price-lines';
import type { ListedLines } from './price-list';
import { isListed, type LineSelector, SELECTORS } from './price-list-selectors';
import { CommandFailure } from '../domain/errors';

/** The book a region's first book takes the lines priced the same everywhere from. */
const GLOBAL_PRICES_REGION = 'us-east-1';

/** A line the Price List cannot give, as the new book takes it. */
export interface KeptLine {
  line: BookLine;
  /** From us-east-1's book (a price the same everywhere), not the book it replaces. */
  global: boolean;
  why: string;
}

export type KeptLines = Partial<Record<PriceId, KeptLine>>;

/** A line the Price List cannot give and no book on disk has: the book cannot be made. */
export class NoLineToKeep extends CommandFailure {
  override readonly name = 'NoLineToKeep';
}

/** A region's book on disk, checked as the bill reads it; none where there is no file. */
export function bookOnDisk(region: string, folder: string): BookFile | undefined {
  const file = bookFile(region, folder);
  if (!existsSync(file)) return undefined;
  const book = parseBook(readFileSync(file, 'utf8'), file);
  if (book.region !== region) throw new BadPriceBook(`${file}: its region is ${book.region}, not ${region}`);
  return book;
}

/**
 * The lines the Price List cannot give: the book's it replaces; else us-east-1's for a line priced the same
 * everywhere, or for one that only a what-if uses, said as its assumption; else a NoLineToKeep naming the line.
 * Known before anything is fetched.
 */
export function keptLines(
  region: string,
  folder: string,
  previous: BookFile | undefined,
  selectors: Record<PriceId, LineSelector> = SELECTORS,
): KeptLines {
  const globalBook = region === GLOBAL_PRICES_REGION ? previous : bookOnDisk(GLOBAL_PRICES_REGION, folder);
  const kept: KeptLines = {};
  for (const id of PRICE_IDS) {
    const selector = selectors[id];
    if (isListed(selector)) continue;
    const { unlisted: why, global, firstBookAssumes } = selector;
    if (previous) kept[id] = { line: previous.lines[id], global: false, why };
    else if (global && globalBook) kept[id] = { line: globalBook.lines[id], global: true, why };
    else if (firstBookAssumes && globalBook)
      kept[id] = { line: { ...globalBook.lines[id], assumption: firstBookAssumes }, global: true, why };
    else
      throw new NoLineToKeep(
        `${id} is not in AWS's Price List (${why}) and there is no ${bookFile(region, folder)} to keep it from` +
          `${global || firstBookAssumes ? ` nor a ${GLOBAL_PRICES_REGION} book` : ''}: ` +
          'write that book by hand first, as ' +
          `${GLOBAL_PRICES_REGION}'s with this line's price for ${region} (docs/cost.md "Prices for your region")`,
      );
  }
  return kept;
}

/** The day a line was published (Price List) or checked (by hand). */
const dayOf = (line: BookLine) =>
  typeof line.source === 'string' ? line.checked : line.source.publication.slice(0, 10);

/** The new book, checked as any book is read. */
export function composeBook(
  region: string,
  listed: ListedLines,
  kept: KeptLines,
  { source, today }: { source: string; today: string },
): BookFile {
  const lines = Object.fromEntries(PRICE_IDS.map((id) => [id, listed[id] ?? kept[id]?.line])) as Record<
    PriceId,
    BookLine
  >;
  const published = PRICE_IDS.map((id) => dayOf(lines[id]))
    .sort()
    .at(-1)!;
  const book: BookFile = {
    region,
    currency: 'USD',
    published,
    source: `AWS Price List (${source}), read ${today}; a line not in it names its own source`,
    lines,
  };
  return parseBook(bookJson(book), `the new book for ${region}`);
}

const bookJson = (book: BookFile) => `${JSON.stringify(book, null, 2)}\n`;

/** Writes the book whole: a reader sees the old file or the new one, never a part; returns the file. */
export function writeBook(book: BookFile, folder: string): string {
  const file = bookFile(book.region, folder);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, bookJson(book));
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CommandFailure(`Cannot write ${file}: ${(error as Error).message}`, { cause: error });
  }
  return file;
}
