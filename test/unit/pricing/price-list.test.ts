/**
 * The Price List reader, without a process or a port: the real 2016 AWSLambda excerpt, small offer files made
 * here, the fixture tree (test/fixtures/price-list, README.md there) read as a folder and through a fake fetch.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPriceBook } from '../../../pricing/price-book';
import { PRICE_IDS, type PriceId } from '../../../pricing/price-lines';
import {
  FREE_TIER_TERM,
  LISTED_IDS,
  listedLine,
  offerFile,
  parseJson,
  readPriceList,
  scaled,
  tiersOf,
} from '../../../pricing/price-list';
import { DEFAULT_SOURCE, PriceListFailure, priceListFiles } from '../../../pricing/price-list-files';
import { isListed, SELECTORS } from '../../../pricing/price-list-selectors';

const FIXTURES = 'test/fixtures/price-list';
const TODAY = '2026-11-27';

const json = (path: string) => JSON.parse(readFileSync(join(FIXTURES, path), 'utf8'));
const lambda2016 = () => offerFile(json('awslambda-2016-excerpt.json'), 'AWSLambda', 'the 2016 file', 'excerpt');

/** What a call throws, as its message. */
function failure(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(PriceListFailure);
    return (error as Error).message;
  }
  throw new Error('it did not fail');
}

const rejection = async (promise: Promise<unknown>): Promise<string> => {
  const error = await promise.then(
    () => new Error('it did not fail'),
    (e: Error) => e,
  );
  expect(error).toBeInstanceOf(PriceListFailure);
  return error.message;
};

describe('the real AWSLambda file of 2016 (an excerpt)', () => {
  it('gives us-east-1 its requests line, $0.20 per 1M, with no prefix, passing over the free tier’s SKU', () => {
    expect(listedLine(lambda2016(), 'lambdaRequests', 'us-east-1', TODAY)).toEqual({
      tiers: [{ price: 0.2 }],
      source: { offer: 'AWSLambda', sku: 'GU2ZS9HVP6QTQ7KE', publication: '2016-12-07T23:52:08Z' },
      checked: TODAY,
    });
  });

  it.each([
    ['eu-central-1', 'CKZQ3D25MV9ET243'],
    ['eu-west-1', 'B5V2RNHAWGVJBZD3'],
    ['ap-southeast-1', '36D3E7396ZKUSWWW'],
  ])('gives %s the row of its own prefix (%s)', (region, sku) => {
    expect(listedLine(lambda2016(), 'lambdaRequests', region, TODAY).source).toMatchObject({ sku });
  });

  it('gives a GB-second at its price as it is (per 1 GB-s): EU- is eu-west-1’s prefix', () => {
    const line = listedLine(lambda2016(), 'lambdaX86GbSeconds', 'eu-west-1', TODAY);
    expect(line).toMatchObject({ tiers: [{ price: 0.0000166667 }], source: { sku: 'SGGKTWDV7PGMPPSJ' } });
  });

  it('reads another service’s product in it (data transfer): the free first GB left to price-lines.ts', () => {
    expect(listedLine(lambda2016(), 'dataTransferOut', 'us-east-1', TODAY)).toMatchObject({
      tiers: [
        { upTo: 10240, price: 0.09 },
        { upTo: 51200, price: 0.085 },
        { upTo: 153600, price: 0.07 },
        { price: 0.05 },
      ],
      source: { sku: 'HQEH3ZWJVT46JHRG' },
    });
  });
});

describe('a price, converted to the book’s unit', () => {
  it('is exact: a decimal string times a power of ten, not a float product', () => {
    expect(0.0000002 * 1e6).not.toBe(0.2);
    expect(scaled('0.0000002000', 1e6)).toBe(0.2);
    expect(scaled('0.0000010000', 10_000)).toBe(0.01);
    expect(scaled('0.0000004000', 1000)).toBe(0.0004);
    expect(scaled('0.0000166667', 1)).toBe(0.0000166667);
    expect(() => scaled('1', 730)).toThrow('730 is not a power of ten');
  });

  const term = (...dimensions: [string, string, string][]) => ({
    priceDimensions: Object.fromEntries(
      dimensions.map(([beginRange, endRange, usd], i) => [i, { beginRange, endRange, pricePerUnit: { USD: usd } }]),
    ),
  });

  it('takes tiers in range order, whatever order the file lists them, with upTo in raw units', () => {
    const tiers = tiersOf(
      'httpApiRequests',
      term(['300000000', 'Inf', '0.0000009000'], ['0', '300000000', '0.0000010000']),
      'SKU',
    );
    expect(tiers).toEqual([{ upTo: 300_000_000, price: 1 }, { price: 0.9 }]);
  });

  it('keeps a $0 first tier where the line has no free allowance of its own', () => {
    expect(tiersOf('s3Storage', term(['0', '1', '0.0000000000'], ['1', 'Inf', '0.023']), 'SKU')).toEqual([
      { upTo: 1, price: 0 },
      { price: 0.023 },
    ]);
  });

  it.each([
    ['a gap', term(['0', '10', '0.1'], ['20', 'Inf', '0.2']), 'one begins at 20, not 10'],
    ['an overlap', term(['0', '10', '0.1'], ['5', 'Inf', '0.2']), 'one begins at 5, not 10'],
    ['a first tier that does not begin at 0', term(['1', 'Inf', '0.1']), 'one begins at 1, not 0'],
    ['tiers that stop short', term(['0', '10', '0.1']), 'end at 10, not Inf'],
    ['a price that is no decimal', term(['0', 'Inf', '$0.10']), 'a price dimension this does not know'],
    ['no dimensions', term(), 'has no price dimensions'],
    ['more free than price-lines.ts counts', term(['0', '50', '0'], ['50', 'Inf', '0.25']), 'first 50 units free'],
  ])('refuses %s, naming the line and SKU', (_name, given, why) => {
    const message = failure(() => tiersOf('dynamoStorage', given, 'SKU1'));
    expect(message).toMatch(/^dynamoStorage: SKU SKU1 /);
    expect(message).toContain(why);
  });
});

/** An offer file of these products, each with one on-demand price (or the free tier's term). */
function offer(products: { sku: string; family: string; attributes: Record<string, string>; term?: string }[]) {
  return offerFile(
    {
      offerCode: 'AmazonDynamoDB',
      publicationDate: '2026-11-18T09:31:40Z',
      products: Object.fromEntries(
        products.map(({ sku, family, attributes }) => [sku, { sku, productFamily: family, attributes }]),
      ),
      terms: {
        OnDemand: Object.fromEntries(
          products.map(({ sku, term = 'JRTCKXETXF' }) => [
            sku,
            {
              [`${sku}.${term}`]: {
                offerTermCode: term,
                priceDimensions: { d: { beginRange: '0', endRange: 'Inf', pricePerUnit: { USD: '0.0000006250' } } },
              },
            },
          ]),
        ),
      },
    },
    'AmazonDynamoDB',
    "AmazonDynamoDB's file for us-east-1",
    'https://pricing.test/ddb.json',
  );
}

const writes = (sku: string, usagetype: string, more: Record<string, string> = {}) => ({
  sku,
  family: 'Amazon DynamoDB PayPerRequest Throughput',
  attributes: {
    servicecode: 'AmazonDynamoDB',
    location: 'US East (N. Virginia)',
    group: 'DDB-WriteUnits',
    usagetype,
    ...more,
  },
});

describe('a line, found in its file', () => {
  it('is the one product with every attribute: decoys of another service, region, class or the free tier pass', () => {
    const file = offer([
      writes('REAL', 'WriteRequestUnits'),
      writes('OTHER-SERVICE', 'WriteRequestUnits', { servicecode: 'AmazonDynamoDBStreams' }),
      writes('OTHER-REGION', 'EUC1-WriteRequestUnits', { location: 'EU (Frankfurt)' }),
      writes('IA', 'IA-WriteRequestUnits', { group: 'DDB-WriteUnitsIA' }),
      { ...writes('FREE', 'WriteRequestUnits'), term: FREE_TIER_TERM },
    ]);
    expect(listedLine(file, 'dynamoWriteUnits', 'us-east-1', TODAY)).toMatchObject({
      tiers: [{ price: 0.625 }],
      source: { offer: 'AmazonDynamoDB', sku: 'REAL', publication: '2026-11-18T09:31:40Z' },
    });
  });

  it('missing: one line naming the file, the attributes looked for, and the nearest product seen', () => {
    const file = offer([writes('NEAR', 'WriteRequestUnits', { group: 'DDB-WriteUnitsIA' })]);
    expect(failure(() => listedLine(file, 'dynamoWriteUnits', 'us-east-1', TODAY))).toBe(
      "dynamoWriteUnits: AmazonDynamoDB's file for us-east-1 (https://pricing.test/ddb.json) has no product with " +
        'servicecode=AmazonDynamoDB, productFamily=Amazon DynamoDB PayPerRequest Throughput, ' +
        'location=US East (N. Virginia), group=DDB-WriteUnits, usagetype ~ ^([A-Z0-9]+-)?(WriteRequestUnits)$; ' +
        'of its 1 products the nearest is NEAR (usagetype WriteRequestUnits), which has group=DDB-WriteUnitsIA',
    );
  });

  it('missing where the spelling is a guess: says so, and where to fix it', () => {
    expect(SELECTORS.xrayTraces).not.toHaveProperty('seen');
    const message = failure(() => listedLine(offer([]), 'xrayTraces', 'us-east-1', TODAY));
    expect(message).toContain('(a guessed spelling: no real file seen; fix it in price-list-selectors.ts)');
    expect(message).toContain('it has no products');
  });

  it('twice: one line naming both', () => {
    const file = offer([writes('ONE', 'WriteRequestUnits'), writes('TWO', 'USE1-WriteRequestUnits')]);
    expect(failure(() => listedLine(file, 'dynamoWriteUnits', 'us-east-1', TODAY))).toMatch(
      /has 2 products with .*, not one: ONE \(usagetype WriteRequestUnits\), TWO \(usagetype USE1-WriteRequestUnits\)$/,
    );
  });

  it('with two on-demand prices: refused', () => {
    const file = offer([writes('ONE', 'WriteRequestUnits')]);
    file.onDemand.ONE['ONE.OTHER'] = { offerTermCode: 'OTHER' };
    expect(failure(() => listedLine(file, 'dynamoWriteUnits', 'us-east-1', TODAY))).toContain(
      '2 on-demand terms for ONE (usagetype WriteRequestUnits), not one',
    );
  });
});

describe('a file that is not what was asked for', () => {
  const file = (text: string) => ({ text, where: 'https://pricing.test/x.json' });

  it.each([
    [
      'an HTML error page',
      '<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head></html>',
      'is a page, not JSON ("503 Service Unavailable")',
    ],
    ['an XML error', '<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>', 'is a page, not JSON ("<?xml'],
    ['a cut-off answer', '{"offers": {"AWSLambda": {"offerCode', 'is not JSON ('],
    ['JSON that is no object', '[1, 2]', 'is JSON but not an object'],
  ])('%s: one line naming what and where', (_name, text, why) => {
    const message = failure(() => parseJson(file(text), "AWSLambda's file for us-east-1"));
    expect(message).toMatch(/^Cannot read AWSLambda's file for us-east-1 of AWS's Price List: https:\/\/pricing\.test/);
    expect(message).toContain(why);
    expect(message).not.toContain('\n');
  });

  it.each([
    ['no products', { offerCode: 'AWSLambda', publicationDate: 'x', terms: {} }, 'is not an offer file'],
    [
      'another offer',
      { offerCode: 'AmazonS3', publicationDate: 'x', products: {}, terms: {} },
      'is the offer "AmazonS3"',
    ],
    ['no on-demand terms', { offerCode: 'AWSLambda', publicationDate: 'x', products: {}, terms: {} }, 'no on-demand'],
  ])('an offer file with %s: refused', (_name, given, why) => {
    expect(failure(() => offerFile(given, 'AWSLambda', "AWSLambda's file", 'here'))).toContain(why);
  });
});

/** A fetch over the fixture tree, with some paths answered otherwise; the URLs asked for, in order. */
function fakeHost(answers: Record<string, () => Response | Promise<Response>> = {}) {
  const asked: string[] = [];
  const fetcher = (async (input: string | URL | Request) => {
    const url = new URL(String(input));
    asked.push(url.pathname);
    const answer = answers[url.pathname];
    if (answer) return answer();
    try {
      return new Response(readFileSync(join(FIXTURES, url.pathname)), {
        headers: { 'content-type': 'application/json' },
      });
    } catch {
      return new Response('<Error><Code>NoSuchKey</Code></Error>', { status: 404, statusText: 'Not Found' });
    }
  }) as typeof fetch;
  return { files: priceListFiles('https://pricing.test', fetcher), asked };
}

const LAMBDA_FILE = '/offers/v1.0/aws/AWSLambda/current/eu-central-1/index.json';
const read = (files: ReturnType<typeof priceListFiles>, region = 'eu-central-1', progress: string[] = []) =>
  readPriceList(region, files, { progress: (line) => progress.push(line), today: TODAY });

describe('reading the Price List', () => {
  it('reads every line the Price List gives, a progress line a file, and never asks for AmazonEC2', async () => {
    const { files, asked } = fakeHost();
    const progress: string[] = [];
    const lines = await read(files, 'eu-central-1', progress);
    expect(Object.keys(lines).sort()).toEqual([...LISTED_IDS].sort());
    expect(LISTED_IDS).toEqual(PRICE_IDS.filter((id) => isListed(SELECTORS[id])));
    expect(asked.filter((path) => path.includes('AmazonEC2'))).toEqual([]);
    // The offer index, then a region index and a file for each of 8 regional offers, then 2 global files.
    expect(progress).toHaveLength(1 + 8 * 2 + 2);
    const size = `${(readFileSync(join(FIXTURES, LAMBDA_FILE)).length / 1024).toFixed(1)} KB`;
    expect(progress).toContain(`Read AWSLambda's file for eu-central-1: ${size} (https://pricing.test${LAMBDA_FILE})`);
    expect(lines.cloudFrontRequests?.tiers).toEqual([{ price: 0.012 }]);
  });

  it('gives us-east-1 exactly the prices of its book (the fixture carries them)', async () => {
    const lines = await read(fakeHost().files, 'us-east-1');
    const book = readPriceBook('us-east-1');
    const differing = (Object.keys(lines) as PriceId[]).filter(
      (id) => JSON.stringify(lines[id]?.tiers) !== JSON.stringify(book.prices[id].tiers),
    );
    expect(differing).toEqual([]);
  });

  it.each([
    [
      'a 404',
      () => new Response('<Error><Code>NoSuchKey</Code></Error>', { status: 404, statusText: 'Not Found' }),
      `https://pricing.test${LAMBDA_FILE} answered 404 Not Found`,
    ],
    [
      'an HTML error page answered as 200',
      () => new Response('<html><head><title>Captive portal</title></head></html>', { status: 200 }),
      `https://pricing.test${LAMBDA_FILE} is a page, not JSON ("Captive portal")`,
    ],
    [
      'a cut-off answer',
      () => new Response(readFileSync(join(FIXTURES, LAMBDA_FILE), 'utf8').slice(0, 2000)),
      `https://pricing.test${LAMBDA_FILE} is not JSON (`,
    ],
    [
      'a network failure',
      () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } })),
      `no answer from https://pricing.test${LAMBDA_FILE} (ECONNRESET)`,
    ],
    [
      'a time-out',
      () => Promise.reject(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      'nothing within 5 minutes',
    ],
  ])('%s: one line naming the file looked for and what came', async (_name, answer, why) => {
    const message = await rejection(read(fakeHost({ [LAMBDA_FILE]: answer }).files));
    expect(message).toMatch(/^Cannot read AWSLambda's file for eu-central-1 of AWS's Price List: /);
    expect(message).toContain(why);
    expect(message).not.toContain('\n');
  });

  it('an index without the offer or the region: says which and where', async () => {
    const index = json('offers/v1.0/aws/index.json');
    delete index.offers.AWSXRay;
    const noOffer = fakeHost({ '/offers/v1.0/aws/index.json': () => Response.json(index) });
    expect(await rejection(read(noOffer.files))).toBe(
      "The offer index of AWS's Price List: AWSXRay is not in it (https://pricing.test/offers/v1.0/aws/index.json)",
    );
    const regionIndex = '/offers/v1.0/aws/AWSLambda/current/region_index.json';
    const noRegion = fakeHost({ [regionIndex]: () => Response.json({ regions: { 'us-east-1': {} } }) });
    expect(await rejection(read(noRegion.files))).toBe(
      `AWSLambda's region index (https://pricing.test${regionIndex}) has no file for eu-central-1: it lists 1 regions`,
    );
  });

  it('an answer that is not an offer index: refused', async () => {
    const host = fakeHost({ '/offers/v1.0/aws/index.json': () => Response.json({ formatVersion: 'v1.0' }) });
    expect(await rejection(read(host.files))).toContain('is not one: it has no offers');
  });
});

describe('a folder for a source', () => {
  it('reads the same lines as the host', async () => {
    const [fromFolder, fromHost] = await Promise.all([read(priceListFiles(FIXTURES)), read(fakeHost().files)]);
    expect(fromFolder).toEqual(fromHost);
  });

  it('that is not there, or not laid out like the host: refused before anything is read', () => {
    expect(failure(() => priceListFiles('/no/such/folder'))).toBe(
      "No folder /no/such/folder to read AWS's Price List from (--source)",
    );
    expect(failure(() => priceListFiles('test/fixtures'))).toBe(
      "test/fixtures is not a copy of AWS's Price List: it has no offers/v1.0/aws/index.json (the host's URL tree)",
    );
  });

  it('without a file an index names: names it', async () => {
    const path = '/offers/v1.0/aws/AmazonEC2/current/region_index.json';
    expect(await rejection(priceListFiles(FIXTURES).read(path, 'x'))).toBe(
      `Cannot read x of AWS's Price List: ${join(FIXTURES, path)}: ENOENT`,
    );
  });

  it('is told apart from the default host', () => {
    expect(priceListFiles(DEFAULT_SOURCE).source).toBe('https://pricing.us-east-1.amazonaws.com');
  });
});
