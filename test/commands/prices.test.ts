/**
 * npm run prices (bin/prices.ts), as a person runs it: against the Price List fixtures (test/fixtures/price-list,
 * README.md there) as a folder and served on 127.0.0.1, writing books into a temporary folder (--books), never
 * pricing/books/. A run that fails says why in one line, with the right exit code, and leaves the book as it was.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { type BookFile, bookFile, readPriceBook } from '../../pricing/price-book';
import { PRICE_IDS } from '../../pricing/price-lines';
import { reportInput } from '../../cost/report-files';
import { buildReport } from '../../cost/estimate/build-report';
import { tieredCost } from '../../pricing/tiers';
import { managedInstancesLines } from '../../cost/report/design-lines';

const FIXTURES = 'test/fixtures/price-list';
const HTTP_API_FILE = 'offers/v1.0/aws/AmazonApiGateway/current/eu-central-1/index.json';

type Answer = { code: number; stdout: string; stderr: string };

async function prices(args: string[]): Promise<Answer> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'bin/prices.ts', ...args],
      { timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as Answer;
    return { code, stdout, stderr };
  }
}

/**
 * A folder of books: us-east-1's as the repository has it, and for each other region named, the book a person
 * makes by hand before the first run (docs/cost.md "Prices for your region"): us-east-1's, with its region.
 */
function books(...regions: string[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'books-'));
  const usEast1 = readFileSync(bookFile('us-east-1'), 'utf8');
  writeFileSync(bookFile('us-east-1', folder), usEast1);
  for (const region of regions)
    writeFileSync(bookFile(region, folder), usEast1.replace('"region": "us-east-1"', `"region": "${region}"`));
  return folder;
}

/** A copy of the fixtures, to change. */
function fixtures(): string {
  const folder = mkdtempSync(join(tmpdir(), 'price-list-'));
  cpSync(FIXTURES, folder, { recursive: true });
  return folder;
}

/** Edits an offer file of a copy of the fixtures. */
function editFile(folder: string, path: string, edit: (json: any) => void): void {
  const json = JSON.parse(readFileSync(join(folder, path), 'utf8'));
  edit(json);
  writeFileSync(join(folder, path), JSON.stringify(json));
}

/** The product of a file with this usage type. */
const skuOf = (json: any, usagetype: string) =>
  Object.values<any>(json.products).find((product) => product.attributes.usagetype === usagetype).sku as string;

/** Every file of a folder with its text: to show a failed run changed nothing (and left no temporary file). */
const contents = (folder: string) =>
  Object.fromEntries(readdirSync(folder).map((name) => [name, readFileSync(join(folder, name), 'utf8')]));

const bookIn = (folder: string, region: string): BookFile => JSON.parse(readFileSync(bookFile(region, folder), 'utf8'));

/** A line's figures and source, not the day it was read. */
const figures = (book: BookFile) =>
  Object.fromEntries(PRICE_IDS.map((id) => [id, { tiers: book.lines[id].tiers, source: book.lines[id].source }]));

/** The last line of stderr, after the progress lines, and that there is no stack trace. */
function failureLine({ stderr }: Answer): string {
  expect(stderr).not.toMatch(/^\s+at /m);
  return stderr.trim().split('\n').at(-1)!;
}

describe('npm run cost, from a book npm run prices wrote', () => {
  it("prices each line from the region's book: a price changed in the files moves line and total by it", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'books-'));
    writeFileSync(bookFile('us-east-1', folder), readFileSync(bookFile('us-east-1'), 'utf8'));
    const bill = (source: string) =>
      prices(['--region', 'eu-central-1', '--source', source, '--books', folder]).then((answer) => {
        expect(answer.code, answer.stderr).toBe(0);
        // The default design's template, whatever cdk.out/ holds: its HTTP API requests pass the first tier.
        const template = 'test/fixtures/templates/default.template.json';
        const options = { profile: 'seed', region: 'eu-central-1', books: folder, template, 'new-account': false };
        return buildReport(reportInput(options)).bill;
      });
    // The region's first book: the Managed Instances lines from us-east-1's, said as an assumption.
    const first = await bill(FIXTURES);
    const book = readPriceBook('eu-central-1', folder);
    expect(book.prices.managedInstanceHours.assumption).toMatch(/^us-east-1's instance price/);
    const report = buildReport(
      reportInput({ profile: 'seed', region: 'eu-central-1', books: folder, 'new-account': false }),
    );
    expect(managedInstancesLines(report).join(' ')).toContain(
      `Its instance price: ${book.prices.managedInstanceHours.assumption}.`,
    );
    // Every line at the book's price (those a CloudFront flat-rate plan includes are in the plan's line).
    for (const line of first.lines.filter((l) => !l.unitPrice.startsWith('in the')))
      expect(line.usd, line.priceId).toBeCloseTo(tieredCost(line.billable, book.prices[line.priceId]), 9);
    const api = first.lines.find((l) => l.priceId === 'httpApiRequests')!;
    expect(book.prices.httpApiRequests.tiers[0]).toEqual({ upTo: 300e6, price: 1.11 });
    expect(api.billable).toBeGreaterThan(300e6);

    const changed = fixtures();
    editFile(changed, HTTP_API_FILE, (json) => {
      const sku = skuOf(json, 'EUC1-ApiGatewayHttpRequest');
      const dimensions = Object.values<any>(json.terms.OnDemand[sku])[0].priceDimensions;
      Object.values<any>(dimensions).find((d) => d.beginRange === '0').pricePerUnit.USD = '0.0000011600';
    });
    const second = await bill(changed);
    // The first tier's 300 M requests at $0.05 a million more.
    const moved = 300 * (1.16 - 1.11);
    expect(second.lines.find((l) => l.priceId === 'httpApiRequests')!.usd - api.usd).toBeCloseTo(moved, 6);
    expect(second.totalUsd - first.totalUsd).toBeCloseTo(moved, 6);
    for (const line of second.lines.filter((l) => l.priceId !== 'httpApiRequests'))
      expect(line.usd, line.priceId).toBe(first.lines.find((l) => l.priceId === line.priceId)!.usd);
  });
});

describe('npm run prices, from a folder', () => {
  it('writes a book readPriceBook reads; a price changed in the files changes that line by it', async () => {
    const folder = books('eu-central-1');
    const first = await prices(['--region', 'eu-central-1', '--source', FIXTURES, '--books', folder]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('[~] httpApiRequests  $1.00 → $1.11 per 1M requests (tier 1)\n');
    expect(first.stdout.trim().split('\n').at(-1)).toBe(`Wrote ${bookFile('eu-central-1', folder)}.`);
    const book = readPriceBook('eu-central-1', folder);
    expect(book.prices.httpApiRequests.tiers).toEqual([{ upTo: 300_000_000, price: 1.11 }, { price: 1 }]);
    expect(book.prices.cloudFrontRequests.tiers).toEqual([{ price: 0.012 }]);
    expect(book.prices.httpApiRequests.source).toMatch(
      /^AWS Price List AmazonApiGateway, SKU \w+, published 2026-11-14$/,
    );
    // Progress to stderr: a line a file read, with its size.
    expect(first.stderr).toMatch(/^Read AmazonApiGateway's file for eu-central-1: [\d.]+ KB \(.*\)$/m);

    const changed = fixtures();
    editFile(changed, HTTP_API_FILE, (json) => {
      const sku = skuOf(json, 'EUC1-ApiGatewayHttpRequest');
      const dimensions = Object.values<any>(json.terms.OnDemand[sku])[0].priceDimensions;
      Object.values<any>(dimensions).find((d) => d.beginRange === '0').pricePerUnit.USD = '0.0000011600';
    });
    const before = bookIn(folder, 'eu-central-1');
    const second = await prices(['--region', 'eu-central-1', '--source', changed, '--books', folder]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout.split('\n').filter((line) => /^\[[~+-]\]/.test(line))).toEqual([
      '[~] httpApiRequests  $1.11 → $1.16 per 1M requests (tier 1)',
    ]);
    const after = bookIn(folder, 'eu-central-1');
    const expected = figures(before);
    expected.httpApiRequests.tiers = [{ upTo: 300_000_000, price: 1.16 }, { price: 1 }];
    expect(figures(after)).toEqual(expected);
  });

  it('on files with today’s us-east-1 prices: no price change from the committed book, only sources', async () => {
    const folder = books();
    const answer = await prices(['--region', 'us-east-1', '--source', FIXTURES, '--books', folder]);
    expect(answer.code, answer.stderr).toBe(0);
    expect(answer.stdout.split('\n').filter((line) => /^\[[~+-]\]/.test(line))).toEqual([]);
    expect(answer.stdout).toContain('[=] lambdaRequests  same price, now from the Price List (was a pricing page)');
    expect(answer.stdout).toContain('[=] cloudFrontPlanPro  $15.00 per plan-month, kept: flat-rate plans');
    const committed = JSON.parse(readFileSync(bookFile('us-east-1'), 'utf8')) as BookFile;
    const written = bookIn(folder, 'us-east-1');
    expect(
      PRICE_IDS.filter((id) => JSON.stringify(written.lines[id].tiers) !== JSON.stringify(committed.lines[id].tiers)),
    ).toEqual([]);
    expect(PRICE_IDS.filter((id) => typeof written.lines[id].source === 'string')).toEqual([
      'managedInstanceHours',
      'managedInstanceFee',
      'cloudFrontPlanFree',
      'cloudFrontPlanPro',
      'cloudFrontPlanBusiness',
      'cloudFrontPlanPremium',
    ]);
  });

  it('--dry-run prints the changes and writes nothing', async () => {
    const folder = books('eu-central-1');
    const was = contents(folder);
    const answer = await prices(['--region', 'eu-central-1', '--source', FIXTURES, '--books', folder, '--dry-run']);
    expect(answer.code, answer.stderr).toBe(0);
    expect(answer.stdout).toContain('[~] httpApiRequests  $1.00 → $1.11 per 1M requests (tier 1)\n');
    expect(answer.stdout.trim().split('\n').at(-1)).toBe('--dry-run: nothing written.');
    expect(contents(folder)).toEqual(was);
  });
});

describe('npm run prices, called wrong: one line, exit 2, before anything is read', () => {
  it.each([
    [['--region', 'mars-north-1'], '--region mars-north-1 is not an AWS Region code pricing/regions.ts knows'],
    [['--region'], "Option '--region <value>' argument missing"],
    [[], '--region is required: e.g. --region eu-central-1'],
    [['--region', 'eu-central-1', '--verbose'], "Unknown option '--verbose'"],
    [['--region', 'eu-central-1', '--source', 'ftp://mirror'], '--source must be an http(s) URL or a folder'],
  ])('%j', async (args, message) => {
    const folder = books('eu-central-1');
    const was = contents(folder);
    // --books first: a --region given last, with no value, is the mistake tested.
    const answer = await prices(['--books', folder, ...args]);
    expect(answer.code).toBe(2);
    expect(answer.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.* Run npm run prices -- --help`),
      ),
    ]);
    expect(contents(folder)).toEqual(was);
  });
});

describe('npm run prices that cannot make the book: one line, exit 1, the book as it was', () => {
  /** Runs it for eu-central-1 against a source; its failure line, once checked that nothing changed. */
  async function fails(source: string, region = 'eu-central-1', folder = books('eu-central-1')): Promise<Answer> {
    const was = contents(folder);
    const answer = await prices(['--region', region, '--source', source, '--books', folder]);
    expect(answer.code, answer.stderr).toBe(1);
    expect(answer.stdout).toBe('');
    expect(contents(folder)).toEqual(was);
    return answer;
  }

  it('a source folder that is not there, or not laid out like the Price List', async () => {
    expect(failureLine(await fails('/no/such/folder'))).toBe(
      "No folder /no/such/folder to read AWS's Price List from (--source)",
    );
    const empty = mkdtempSync(join(tmpdir(), 'not-a-price-list-'));
    const answer = await fails(empty);
    expect(answer.stderr.trim().split('\n')).toEqual([
      `${empty} is not a copy of AWS's Price List: it has no offers/v1.0/aws/index.json (the host's URL tree)`,
    ]);
  });

  it('a line that is not there: names it, what was looked for and what was seen', async () => {
    const source = fixtures();
    editFile(source, HTTP_API_FILE, (json) => {
      delete json.products[skuOf(json, 'EUC1-ApiGatewayHttpRequest')];
    });
    expect(failureLine(await fails(source))).toMatch(
      new RegExp(
        "^httpApiRequests: AmazonApiGateway's file for eu-central-1 \\(.*\\) has no product with " +
          '.*operation=ApiGatewayHttpApi, usagetype ~ .*; of its \\d+ products the nearest is ',
      ),
    );
  });

  it('a line found twice: names both', async () => {
    const source = fixtures();
    editFile(source, HTTP_API_FILE, (json) => {
      const sku = skuOf(json, 'EUC1-ApiGatewayHttpRequest');
      json.products.COPY = { ...json.products[sku], sku: 'COPY' };
      json.terms.OnDemand.COPY = json.terms.OnDemand[sku];
    });
    expect(failureLine(await fails(source))).toMatch(
      /^httpApiRequests: .* has 2 products with .*, not one: \w+ .*, COPY/,
    );
  });

  it('a file cut off, and a file that is not there', async () => {
    const source = fixtures();
    const text = readFileSync(join(source, HTTP_API_FILE), 'utf8');
    writeFileSync(join(source, HTTP_API_FILE), text.slice(0, text.length / 2));
    expect(failureLine(await fails(source))).toMatch(
      /^Cannot read AmazonApiGateway's file for eu-central-1 of AWS's Price List: .* is not JSON \(/,
    );
    rmSync(join(source, HTTP_API_FILE));
    expect(failureLine(await fails(source))).toMatch(/^Cannot read AmazonApiGateway's file .*index\.json: ENOENT$/);
  });

  it('a region with no book to keep the lines the Price List cannot give: names the line, reads nothing', async () => {
    // Not even us-east-1's, which a region's first book takes them from.
    const folder = mkdtempSync(join(tmpdir(), 'books-'));
    const answer = await fails(FIXTURES, 'eu-central-1', folder);
    expect(answer.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^managedInstanceHours is not in AWS's Price List \(.*AmazonEC2.*\) and there is no /),
    ]);
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe('npm run prices, from a host on 127.0.0.1', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  /** The fixtures over HTTP, with some paths answered otherwise. */
  async function serve(answers: Record<string, { status: number; type: string; body: string }> = {}) {
    server = createServer((request, response) => {
      const path = new URL(request.url!, 'http://x').pathname;
      const answer = answers[path];
      if (answer) return response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
      try {
        const body = readFileSync(join(FIXTURES, path));
        response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      } catch {
        response.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
      }
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(server!.address() as { port: number }).port}`;
  }

  it('reads as from a folder; a 404 and an HTML error page: one line, exit 1, the book as it was', async () => {
    const folder = books('eu-central-1');
    const host = await serve();
    const read = await prices(['--region', 'eu-central-1', '--source', host, '--books', folder]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toContain(`(${host}/offers/v1.0/aws/AmazonApiGateway/current/eu-central-1/index.json)`);
    expect(readPriceBook('eu-central-1', folder).prices.httpApiRequests.tiers[0].price).toBe(1.11);
    expect(bookIn(folder, 'eu-central-1').source).toMatch(new RegExp(`^AWS Price List \\(${host}\\), read `));
    server!.close();

    const was = contents(folder);
    const page = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
    for (const [answer, why] of [
      [{ status: 404, type: 'application/xml', body: '<Error/>' }, `${host}/${HTTP_API_FILE} answered 404 Not Found`],
      [
        { status: 200, type: 'text/html', body: page },
        `${host}/${HTTP_API_FILE} is a page, not JSON ("502 Bad Gateway")`,
      ],
    ] as const) {
      const broken = await serve({ [`/${HTTP_API_FILE}`]: answer });
      const failed = await prices(['--region', 'eu-central-1', '--source', broken, '--books', folder]);
      expect(failed.code).toBe(1);
      expect(failureLine(failed)).toBe(
        `Cannot read AmazonApiGateway's file for eu-central-1 of AWS's Price List: ${why.replaceAll(host, broken)}`,
      );
      expect(contents(folder)).toEqual(was);
      server!.close();
    }
  });
});
