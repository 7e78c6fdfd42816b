/**
 * A region's price book: what each line of the bill (pricing/price-lines.ts) costs there, tier by tier, with
 * where each figure came from, read from pricing/books/<region>.json. The estimator, the measured bill, the
 * stack's dashboard and the explorer are handed a book; none imports prices. A book edited into nonsense is
 * refused when read, naming the file and the line.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommandFailure, UsageError } from '../domain/errors';
import { PRICE_IDS, PRICE_LINES, type PriceId, type PriceLine } from './price-lines';
import { bookForViewers } from './viewers';
import { type EdgeLocation, isRegion, REGIONS, regionsWithViewersIn } from './regions';

/** A tier: `price` per `per` units for usage up to `upTo` units in the month (cumulative); the last has no upTo. */
export interface Tier {
  upTo?: number;
  price: number;
}

/** Where a line was read in AWS's Price List: the offer file, the product and that file's publication. */
export interface PriceListSource {
  offer: string;
  sku: string;
  /** The offer file's publicationDate. */
  publication: string;
}

/** A line as a book holds it. */
export interface BookLine {
  tiers: Tier[];
  /** The pricing page it was copied from (hand-made lines), or the Price List product it was read from. */
  source: string | PriceListSource;
  /** When it was checked or read (YYYY-MM or YYYY-MM-DD). */
  checked: string;
  /** Set when the source did not confirm the figure: printed beside the line. */
  assumption?: string;
}

/** The file: pricing/books/<region>.json. */
export interface BookFile {
  region: string;
  currency: 'USD';
  /** The newest day a line of it was published (Price List) or checked (by hand): YYYY-MM-DD. */
  published: string;
  /** Where the book as a whole came from. */
  source: string;
  lines: Record<PriceId, BookLine>;
}

/** A line as the bill reads it: what it is, and what it costs in the book's region. */
export type Price = PriceLine & Omit<BookLine, 'source'> & { source: string };

export interface PriceBook {
  region: string;
  currency: 'USD';
  published: string;
  source: string;
  /** The file read, for the report's footer. */
  file: string;
  prices: Record<PriceId, Price>;
  /** Where CloudFront's viewers are priced (its requests and transfer out), and the region whose book says so. */
  viewers: { in: EdgeLocation; region: string };
}

export const BOOKS_FOLDER = resolve(fileURLToPath(import.meta.url), '../books');

export const bookFile = (region: string, folder = BOOKS_FOLDER) => join(folder, `${region}.json`);

/** A region with no book on disk: a usage mistake, told how to get the book. */
export class NoPriceBook extends UsageError {
  override readonly name = 'NoPriceBook';
  constructor(
    readonly region: string,
    options?: ErrorOptions,
  ) {
    super(
      isRegion(region)
        ? `No price book for ${region}: get it from AWS's Price List with npm run prices -- --region ${region}`
        : `${region} is not an AWS Region code (e.g. us-east-1, eu-central-1)`,
      options,
    );
  }
}

/** Viewers in an edge group no book on disk prices: told how to get one. */
export class NoViewersBook extends UsageError {
  override readonly name = 'NoViewersBook';
  constructor(
    readonly viewers: EdgeLocation,
    options?: ErrorOptions,
  ) {
    const region = regionsWithViewersIn(viewers)[0];
    super(
      `No price book prices CloudFront for viewers in ${viewers}: get one of a region there with ` +
        `npm run prices -- --region ${region}`,
      options,
    );
  }
}

/** A book that is not one: its file and the line at fault. */
export class BadPriceBook extends CommandFailure {
  override readonly name = 'BadPriceBook';
}

/** How a line's source reads on the report. */
const sourceText = (source: BookLine['source']): string =>
  typeof source === 'string'
    ? source
    : `AWS Price List ${source.offer}, SKU ${source.sku}, published ${source.publication.slice(0, 10)}`;

const DATE = /^\d{4}-\d{2}(-\d{2})?$/;

function checkLine(id: PriceId, line: unknown, fault: (what: string) => never): BookLine {
  if (typeof line !== 'object' || line === null) fault(`${id} is not an object`);
  const { tiers, source, checked, assumption } = line as BookLine;
  if (!Array.isArray(tiers) || tiers.length === 0) fault(`${id} has no tiers`);
  let last = 0;
  tiers.forEach((tier, i) => {
    if (typeof tier?.price !== 'number' || !Number.isFinite(tier.price) || tier.price < 0)
      fault(`${id} tier ${i + 1}: price must be a number at least 0 (got ${JSON.stringify(tier?.price)})`);
    const isLast = i === tiers.length - 1;
    if (isLast !== (tier.upTo === undefined)) fault(`${id} tier ${i + 1}: only the last tier has no upTo`);
    if (!isLast && !(typeof tier.upTo === 'number' && tier.upTo > last))
      fault(`${id} tier ${i + 1}: upTo must be a number above the tier before's (got ${JSON.stringify(tier.upTo)})`);
    last = tier.upTo ?? last;
  });
  const listed = source as PriceListSource;
  if (!(typeof source === 'string' && source) && !(listed?.offer && listed.sku && listed.publication))
    fault(`${id}: source must be a pricing page or {offer, sku, publication}`);
  if (typeof checked !== 'string' || !DATE.test(checked)) fault(`${id}: checked must be a date (YYYY-MM-DD)`);
  if (assumption !== undefined && typeof assumption !== 'string') fault(`${id}: assumption must be text`);
  return { tiers, source, checked, ...(assumption === undefined ? {} : { assumption }) };
}

/** A book's JSON, checked line by line against what the bill needs. */
export function parseBook(text: string, file: string): BookFile {
  const fault = (what: string): never => {
    throw new BadPriceBook(`${file}: ${what}; fix it or fetch it again with npm run prices`);
  };
  let json: Partial<BookFile>;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fault(`not JSON (${(error as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fault('not a price book (an object)');
  if (typeof json.region !== 'string' || !isRegion(json.region)) fault(`region ${JSON.stringify(json.region)}`);
  if (json.currency !== 'USD') fault(`currency must be USD (got ${JSON.stringify(json.currency)})`);
  if (typeof json.published !== 'string' || !DATE.test(json.published)) fault('published must be a date');
  if (typeof json.source !== 'string') fault('source must be text');
  const given = (json.lines ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(given).find((id) => !Object.hasOwn(PRICE_LINES, id));
  if (unknown) fault(`${unknown} is no line of the bill`);
  const lines = {} as Record<PriceId, BookLine>;
  for (const id of PRICE_IDS) {
    if (!Object.hasOwn(given, id)) fault(`the line ${id} is missing`);
    lines[id] = checkLine(id, given[id], fault);
  }
  return { region: json.region!, currency: 'USD', published: json.published!, source: json.source!, lines };
}

/** A book as the bill reads it: each line's definition with its region's figures. */
function bookOf(book: BookFile, file: string): PriceBook {
  const prices = Object.fromEntries(
    PRICE_IDS.map((id) => {
      const { source, ...figures } = book.lines[id];
      return [id, { ...PRICE_LINES[id], ...figures, source: sourceText(source) }];
    }),
  ) as Record<PriceId, Price>;
  const { lines: _, ...about } = book;
  return { ...about, file, prices, viewers: { in: REGIONS[book.region].viewers, region: book.region } };
}

/** The book of a region, from the folder of books; a region with none is refused (NoPriceBook). */
export function readPriceBook(region: string, folder = BOOKS_FOLDER): PriceBook {
  const file = bookFile(region, folder);
  if (!isRegion(region) || !existsSync(file)) throw new NoPriceBook(region);
  const book = parseBook(readFileSync(file, 'utf8'), file);
  if (book.region !== region) throw new BadPriceBook(`${file}: its region is ${book.region}, not ${region}`);
  return bookOf(book, file);
}

/** The regions with a book on disk. */
const booksOnDisk = (folder = BOOKS_FOLDER): string[] =>
  existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => name.endsWith('.json'))
        .map((name) => name.slice(0, -'.json'.length))
        .sort()
    : [];

/** Every book in the folder, each checked as it is read. */
export const readPriceBooks = (folder = BOOKS_FOLDER): PriceBook[] =>
  booksOnDisk(folder).map((region) => readPriceBook(region, folder));

/**
 * The book with CloudFront priced where the viewers are, not where the stack is (pricing/viewers.ts), from the
 * book on disk of a region whose viewers are there; none: refused, saying which book to fetch.
 */
export function withViewersIn(book: PriceBook, viewers: EdgeLocation, folder = BOOKS_FOLDER): PriceBook {
  const onDisk = booksOnDisk(folder);
  const priced = bookForViewers(book, viewers, (code) =>
    onDisk.includes(code) ? readPriceBook(code, folder) : undefined,
  );
  if (priced === undefined) throw new NoViewersBook(viewers);
  return priced;
}
