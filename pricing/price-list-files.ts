/**
 * Where AWS's Price List files are read from: its public host over HTTP(S) (Node's fetch, no credentials), or a
 * folder laid out like that host's URL tree (`<folder>/offers/v1.0/aws/index.json` ...) for a machine with no way
 * out. Every way a read can fail ends in a PriceListFailure naming what was looked for and what came back.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CommandFailure } from '../domain/errors';

/** The Price List's public host (the Bulk API). */
export const DEFAULT_SOURCE = 'https://pricing.us-east-1.amazonaws.com';
/** The offer index: every service's files, from the host's root. */
export const OFFER_INDEX = '/offers/v1.0/aws/index.json';
/** Long enough for the few MB of a regional file on a slow line; a stalled one fails rather than hangs. */
export const FETCH_TIMEOUT_MS = 5 * 60_000;

/** The Price List could not be read, or did not say what the bill needs: what was looked for, what was seen. */
export class PriceListFailure extends CommandFailure {
  override readonly name = 'PriceListFailure';
}

export interface PriceListFile {
  text: string;
  /** The URL or file it was read from. */
  where: string;
}

export interface PriceListFiles {
  /** The host or folder, as the book's source names it. */
  source: string;
  /** The file at a path of the URL tree (an index's URL, e.g. `/offers/v1.0/aws/AWSLambda/...`); `what` is it. */
  read(path: string, what: string): Promise<PriceListFile>;
}

export const isUrl = (source: string) => /^https?:\/\//i.test(source);

const cannotRead = (what: string, why: string) =>
  new PriceListFailure(`Cannot read ${what} of AWS's Price List: ${why}`);

/** A host over HTTP(S), or a folder: a folder that is not there, or not laid out like the host, fails here. */
export function priceListFiles(source: string, fetcher: typeof fetch = fetch): PriceListFiles {
  return isUrl(source) ? hostFiles(source, fetcher) : folderFiles(source);
}

function hostFiles(host: string, fetcher: typeof fetch): PriceListFiles {
  return {
    source: host,
    async read(path, what) {
      const url = new URL(path, host).href;
      let response: Response;
      let text: string;
      try {
        response = await fetcher(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
        if (!response.ok) throw cannotRead(what, `${url} answered ${response.status} ${response.statusText}`.trim());
        text = await response.text();
      } catch (error) {
        if (error instanceof PriceListFailure) throw error;
        throw cannotRead(what, `no answer from ${url} (${causeOf(error)})`);
      }
      return { text, where: url };
    },
  };
}

/** Why fetch failed, in a word where it has one: ECONNREFUSED, ENOTFOUND, a timeout. */
function causeOf(error: unknown): string {
  const { name, message, cause } = error as Error & { cause?: { code?: string; message?: string } };
  if (name === 'TimeoutError') return `nothing within ${FETCH_TIMEOUT_MS / 60_000} minutes`;
  return cause?.code ?? cause?.message ?? message;
}

function folderFiles(folder: string): PriceListFiles {
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new PriceListFailure(`No folder ${folder} to read AWS's Price List from (--source)`);
  if (!existsSync(join(folder, OFFER_INDEX)))
    throw new PriceListFailure(
      `${folder} is not a copy of AWS's Price List: it has no ${OFFER_INDEX.slice(1)} (the host's URL tree)`,
    );
  return {
    source: folder,
    async read(path, what) {
      // An index may name a file by its whole URL: the folder holds it at that URL's path.
      const file = join(folder, URL.canParse(path) ? new URL(path).pathname : path);
      try {
        return { text: readFileSync(file, 'utf8'), where: file };
      } catch (error) {
        throw cannotRead(what, `${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    },
  };
}
