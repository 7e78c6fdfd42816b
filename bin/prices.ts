/**
 * `npm run prices -- --region <code>`: a region's price book (pricing/books/<region>.json) from AWS's public Price
 * List, printing what changed against the book it replaces, line by line. Usage mistakes are one line and exit 2
 * before anything is read; a Price List that cannot be read or does not say what the bill needs is one line and
 * exit 1, with the book on disk as it was (docs/cost.md "Prices for your region").
 */
import { parseCommandLine, runCommand, UsageError } from '../node/command-line';
import { callerPath, shownPath } from '../node/folders';
import { bookChanges } from '../pricing/book-changes';
import { bookOnDisk, composeBook, keptLines, writeBook } from '../pricing/book-update';
import { BOOKS_FOLDER } from '../pricing/price-book';
import { readPriceList } from '../pricing/price-list';
import { DEFAULT_SOURCE, isUrl, priceListFiles } from '../pricing/price-list-files';
import { isRegion } from '../pricing/regions';

const PRICES_COMMAND = {
  command: 'npm run prices --',
  summary:
    "Writes a region's price book (pricing/books/<region>.json) from AWS's public Price List (no credentials), " +
    'printing what changed against the book it replaces, line by line.',
  options: {
    region: { type: 'string', value: '<code>', description: 'the AWS Region to price, e.g. eu-central-1 (required)' },
    source: {
      type: 'string',
      default: DEFAULT_SOURCE,
      value: '<url|folder>',
      description: "the Price List's host, or a folder laid out like its URL tree (offers/v1.0/aws/index.json ...)",
    },
    books: {
      type: 'string',
      value: '<folder>',
      path: true,
      description: 'the folder of books it reads and writes (default: pricing/books; the tests give a temporary one)',
    },
    'dry-run': { type: 'boolean', default: false, description: 'print what would change, write nothing' },
  },
  details: [
    'Lines the Price List cannot give (CloudFront flat-rate plans, Lambda Managed Instances) are kept',
    'from the book it replaces; a failure leaves that book as it was.',
    'More: docs/cost.md "Prices for your region".',
  ],
} as const;

const { values } = parseCommandLine(PRICES_COMMAND);
await runCommand(PRICES_COMMAND, async () => {
  const region = values.region;
  if (region === undefined) throw new UsageError('--region is required: e.g. --region eu-central-1');
  if (!isRegion(region))
    throw new UsageError(`--region ${region} is not an AWS Region code pricing/regions.ts knows (e.g. eu-central-1)`);
  if (/^[a-z][\w+.-]*:\/\//i.test(values.source) && !isUrl(values.source))
    throw new UsageError(`--source must be an http(s) URL or a folder (got ${values.source})`);
  const source = isUrl(values.source) ? values.source : callerPath(values.source);
  const folder = values.books ?? BOOKS_FOLDER;
  const files = priceListFiles(source);
  const previous = bookOnDisk(region, folder);
  // Before anything is fetched: a line no book can give fails now, not after the download.
  const kept = keptLines(region, folder, previous);
  const today = new Date().toISOString().slice(0, 10);
  const listed = await readPriceList(region, files, { progress: (line) => console.error(line), today });
  const book = composeBook(region, listed, kept, { source: files.source, today });
  console.log(bookChanges(previous, book, kept).join('\n'));
  if (values['dry-run']) console.log('--dry-run: nothing written.');
  else console.log(`Wrote ${shownPath(writeBook(book, folder))}.`);
});
