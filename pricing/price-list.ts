/**
 * The reader of AWS's Price List (the Bulk API, no credentials): from the offer index to each service's file for
 * a region (its region index names it) or for all regions (CloudFront, Route 53), and in each the one product a
 * line of the bill is (pricing/price-list-selectors.ts), its on-demand price dimensions turned into the book's
 * tiers. A line found twice or not at all, a file that is not one, any read that fails: a PriceListFailure in one
 * line, naming what was looked for and what was seen; nothing is returned in part.
 */
import type { BookLine, PriceListSource, Tier } from './price-book';
import { PRICE_IDS, PRICE_LINES, type PriceId, type PriceLine } from './price-lines';
import { OFFER_INDEX, type PriceListFile, PriceListFailure, type PriceListFiles } from './price-list-files';
import { isListed, type ListedLine, SELECTORS, usageTypePattern, wantedAttributes } from './price-list-selectors';
import { REGIONS } from './regions';

/** The offer term of AWS's free-tier rows: SKUs of their own (location Any, Global-* usage types), skipped. */
export const FREE_TIER_TERM = 'A429C66SYZ';

interface Product {
  sku: string;
  productFamily?: string;
  attributes?: Record<string, string>;
}

interface PriceDimension {
  beginRange?: string;
  endRange?: string;
  pricePerUnit?: { USD?: string };
}

interface Term {
  offerTermCode?: string;
  priceDimensions?: Record<string, PriceDimension>;
}

/** An offer file, as far as this reads it. */
export interface OfferFile {
  offerCode: string;
  publicationDate: string;
  products: Record<string, Product>;
  onDemand: Record<string, Record<string, Term>>;
  /** What it is and where it was read, for messages. */
  what: string;
  where: string;
}

/** Each line the Price List gives, by id. */
export type ListedLines = Partial<Record<PriceId, BookLine>>;

/** The lines the Price List gives, each with its selector. */
export const LISTED_IDS = PRICE_IDS.filter((id) => isListed(SELECTORS[id]));
const selectorOf = (id: PriceId) => SELECTORS[id] as ListedLine;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A file's JSON; an HTML or XML page (an error page, a portal's login) or a cut-off answer is refused. */
export function parseJson(file: PriceListFile, what: string): Record<string, unknown> {
  const fault = (why: string) => new PriceListFailure(`Cannot read ${what} of AWS's Price List: ${file.where} ${why}`);
  if (file.text.trimStart().startsWith('<')) {
    const title = /<title>([^<]*)<\/title>/i.exec(file.text)?.[1].trim();
    throw fault(`is a page, not JSON ("${title || file.text.trim().slice(0, 60).replace(/\s+/g, ' ')}")`);
  }
  let json: unknown;
  try {
    json = JSON.parse(file.text);
  } catch (error) {
    throw fault(`is not JSON (${(error as Error).message}, after ${sizeText(file.text.length)})`);
  }
  if (!isObject(json)) throw fault('is JSON but not an object');
  return json;
}

/** A size as a progress line shows it. */
const sizeText = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** An offer file's JSON, checked for what this reads of it. */
export function offerFile(json: Record<string, unknown>, offer: string, what: string, where: string): OfferFile {
  const fault = (why: string) => new PriceListFailure(`${what} of AWS's Price List (${where}) ${why}`);
  const { offerCode, publicationDate, products, terms } = json;
  if (!isObject(products) || !isObject(terms) || typeof publicationDate !== 'string')
    throw fault('is not an offer file: it has no products, terms and publicationDate');
  if (offerCode !== offer) throw fault(`is the offer ${JSON.stringify(offerCode)}, not ${offer}`);
  if (!isObject(terms.OnDemand)) throw fault('has no on-demand terms (terms.OnDemand)');
  return {
    offerCode: offer,
    publicationDate,
    products: products as Record<string, Product>,
    onDemand: terms.OnDemand as Record<string, Record<string, Term>>,
    what,
    where,
  };
}

const criteriaText = (want: Record<string, string>, pattern: RegExp) =>
  `${Object.entries(want)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ')}, usagetype ~ ${pattern.source}`;

const attributeOf = (product: Product, name: string) =>
  name === 'productFamily' ? product.productFamily : product.attributes?.[name];

const productText = (product: Product) => `${product.sku} (usagetype ${product.attributes?.usagetype ?? 'none'})`;

/** The on-demand terms of a SKU that are not free-tier ones. */
const paidTerms = (file: OfferFile, sku: string) =>
  Object.values(file.onDemand[sku] ?? {}).filter((term) => term.offerTermCode !== FREE_TIER_TERM);

/** The one product of a file that is this line in this region. */
function selectProduct(file: OfferFile, id: PriceId, region: string): { product: Product; term: Term } {
  const selector = selectorOf(id);
  const want = wantedAttributes(selector, REGIONS[region]);
  const pattern = usageTypePattern(selector);
  const misses = (product: Product) => [
    ...Object.entries(want).filter(([name, value]) => attributeOf(product, name) !== value),
    ...(pattern.test(product.attributes?.usagetype ?? '') ? [] : [['usagetype', pattern.source]]),
  ];
  // A product is named by its key: the SKU its terms are filed under.
  const products = Object.entries(file.products)
    .filter(([, product]) => isObject(product))
    .map(([sku, product]) => ({ ...product, sku }));
  const found = products.filter((product) => misses(product).length === 0 && paidTerms(file, product.sku).length > 0);
  const lookedFor = `${id}: ${file.what} (${file.where}) has`;
  const criteria = criteriaText(want, pattern);
  if (found.length > 1)
    throw new PriceListFailure(
      `${lookedFor} ${found.length} products with ${criteria}, not one: ${found.map(productText).join(', ')}`,
    );
  if (found.length === 0) {
    const nearest = products.length
      ? products.reduce((best, product) => (misses(product).length < misses(best).length ? product : best))
      : undefined;
    const seen = nearest
      ? `; of its ${products.length} products the nearest is ${productText(nearest)}, which has ` +
        misses(nearest)
          .map(([name]) => `${name}=${attributeOf(nearest, name) ?? 'none'}`)
          .join(', ')
      : '; it has no products';
    const spelling = selector.seen ? '' : ' (a guessed spelling: no real file seen; fix it in price-list-selectors.ts)';
    throw new PriceListFailure(`${lookedFor} no product with ${criteria}${spelling}${seen}`);
  }
  const [product] = found;
  const terms = paidTerms(file, product.sku);
  if (terms.length > 1)
    throw new PriceListFailure(`${lookedFor} ${terms.length} on-demand terms for ${productText(product)}, not one`);
  return { product, term: terms[0] };
}

const DECIMAL = /^\d+(\.\d+)?$/;

/** A decimal string times a power of ten, exactly: "0.0000002000" x 1e6 is 0.2, not 0.19999999999999998. */
export function scaled(decimal: string, factor: number): number {
  const digits = String(factor);
  if (!/^10*$/.test(digits)) throw new Error(`${factor} is not a power of ten`);
  return Number(`${decimal}e${digits.length - 1}`);
}

/** A term's price dimensions as the book's tiers: ordered, gap-free from 0 to Inf, priced per the line's `per`. */
export function tiersOf(id: PriceId, term: Term, sku: string): Tier[] {
  const fault = (why: string) => new PriceListFailure(`${id}: SKU ${sku} ${why}`);
  const dimensions = Object.values(term.priceDimensions ?? {}).map((dimension) => {
    const { beginRange: begin, endRange: end, pricePerUnit } = dimension;
    const usd = pricePerUnit?.USD;
    if (!begin || !DECIMAL.test(begin) || !end || !(end === 'Inf' || DECIMAL.test(end)) || !usd || !DECIMAL.test(usd))
      throw fault(`has a price dimension this does not know: ${JSON.stringify(dimension)}`);
    return { begin: Number(begin), end: end === 'Inf' ? Number.POSITIVE_INFINITY : Number(end), usd };
  });
  if (dimensions.length === 0) throw fault('has no price dimensions');
  dimensions.sort((a, b) => a.begin - b.begin);
  dimensions.forEach(({ begin }, i) => {
    const from = i === 0 ? 0 : dimensions[i - 1].end;
    if (begin !== from) throw fault(`has a gap or overlap in its tiers: one begins at ${begin}, not ${from}`);
  });
  if (dimensions.at(-1)!.end !== Number.POSITIVE_INFINITY)
    throw fault(`has tiers that end at ${dimensions.at(-1)!.end}, not Inf: the rest may be another SKU's`);
  const { free, per }: PriceLine = PRICE_LINES[id];
  const [first] = dimensions;
  // A first tier at $0 is the always-free allowance, which the bill takes from price-lines.ts, not from the book.
  if (free && Number(first.usd) === 0 && dimensions.length > 1) {
    if (first.end > free.units)
      throw fault(`gives the first ${first.end} units free; price-lines.ts counts ${free.units}`);
    dimensions.shift();
  }
  return dimensions.map(({ end, usd }) => ({
    ...(end === Number.POSITIVE_INFINITY ? {} : { upTo: end }),
    price: scaled(usd, per),
  }));
}

/** A line read from an offer file. */
export function listedLine(file: OfferFile, id: PriceId, region: string, today: string): BookLine {
  const { product, term } = selectProduct(file, id, region);
  const source: PriceListSource = { offer: file.offerCode, sku: product.sku, publication: file.publicationDate };
  return { tiers: tiersOf(id, term, product.sku), source, checked: today };
}

export interface ReadOptions {
  /** A line per file read (to stderr): what, how big, from where. */
  progress: (line: string) => void;
  /** The day it is read: each line's `checked`. */
  today: string;
}

/** Every line the Price List gives for a region, read from its files; the first failure ends it. */
export async function readPriceList(
  region: string,
  files: PriceListFiles,
  { progress, today }: ReadOptions,
): Promise<ListedLines> {
  const read = async (path: string, what: string) => {
    const file = await files.read(path, what);
    progress(`Read ${what}: ${sizeText(Buffer.byteLength(file.text))} (${file.where})`);
    return { json: parseJson(file, what), where: file.where };
  };
  const index = await read(OFFER_INDEX, 'the offer index');
  if (!isObject(index.json.offers))
    throw new PriceListFailure(`The offer index of AWS's Price List (${index.where}) is not one: it has no offers`);
  const offers = index.json.offers;
  /** The path of a file an index names, or a failure naming what is missing where. */
  const urlIn = (json: unknown, key: string, what: string, where: string): string => {
    const url = isObject(json) ? json[key] : undefined;
    if (typeof url !== 'string') throw new PriceListFailure(`${what} (${where}) has no ${key}`);
    return url;
  };
  const lines: ListedLines = {};
  for (const offer of new Set(LISTED_IDS.map((id) => selectorOf(id).offer))) {
    const ids = LISTED_IDS.filter((id) => selectorOf(id).offer === offer);
    const inOffers = `The offer index of AWS's Price List: ${offer}`;
    if (!isObject(offers[offer])) throw new PriceListFailure(`${inOffers} is not in it (${index.where})`);
    let path: string;
    let what: string;
    if (selectorOf(ids[0]).file === 'global') {
      path = urlIn(offers[offer], 'currentVersionUrl', inOffers, index.where);
      what = `${offer}'s file (all regions)`;
    } else {
      const regionIndex = await read(
        urlIn(offers[offer], 'currentRegionIndexUrl', inOffers, index.where),
        `${offer}'s region index`,
      );
      const regions = isObject(regionIndex.json.regions) ? regionIndex.json.regions : {};
      if (!isObject(regions[region]))
        throw new PriceListFailure(
          `${offer}'s region index (${regionIndex.where}) has no file for ${region}: ` +
            `it lists ${Object.keys(regions).length} regions`,
        );
      path = urlIn(regions[region], 'currentVersionUrl', `${offer}'s region index: ${region}`, regionIndex.where);
      what = `${offer}'s file for ${region}`;
    }
    const fetched = await read(path, what);
    const file = offerFile(fetched.json, offer, what, fetched.where);
    for (const id of ids) lines[id] = listedLine(file, id, region, today);
  }
  return lines;
}
