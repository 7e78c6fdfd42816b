/**
 * Builds the cost explorer: one HTML file carrying its script (cost/report/explorer/app.ts and the model it
 * imports, bundled by esbuild as the site is), its styles and its inputs as JSON, so it opens from
 * disk with no server and no network. npm run cost writes it as report.html; the servers serve it at /cost.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type Metafile } from 'esbuild';
import { escapeHtml } from '../estimate/format';
import { designHead } from './design-lines';
import { vpsHead } from './vps-lines';
import { reportBodyHtml } from './render-html';
import { profileTitle } from './explorer/fields';
import { buildReport, type ReportInput } from '../estimate/build-report';
import type { PriceBook } from '../../pricing/price-book';

const EXPLORER_DIR = join(dirname(fileURLToPath(import.meta.url)), 'explorer');

/** The script, bundled once a process: it does not depend on the inputs. */
let bundled: { js: string; metafile: Metafile } | undefined;

/** The explorer's script and what went into it (a test reads its inputs: one model, not two). */
export function explorerBundle(): { js: string; metafile: Metafile } {
  if (bundled) return bundled;
  const result = buildSync({
    entryPoints: [join(EXPLORER_DIR, 'app.ts')],
    bundle: true,
    format: 'iife',
    target: ['es2022', 'chrome110', 'safari16', 'firefox115'],
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  // esbuild escapes "</script" in what it writes: the script cannot end its element early.
  bundled = { js: result.outputFiles[0].text.trim(), metafile: result.metafile };
  return bundled;
}

/**
 * The explorer for these inputs: it opens on their profile and shows what npm run cost printed for it, and offers
 * the price books beside the input's (each region's on disk) to price the same month elsewhere.
 */
export function explorerHtml(input: ReportInput, books: PriceBook[] = []): string {
  const read = (name: string) => readFileSync(join(EXPLORER_DIR, name), 'utf8');
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  const shown = input.options.book;
  const offered = [shown, ...books.filter((book) => book.region !== shown.region)].sort((a, b) =>
    a.region.localeCompare(b.region),
  );
  const values: Record<string, string> = {
    '/*explorer.css*/': read('explorer.css'),
    '/*explorer.js*/': explorerBundle().js,
    __EXPLORER_INPUT__: json(input),
    __EXPLORER_BOOKS__: json(offered),
    __REGION_OPTIONS__: offered
      .map(({ region }) => `<option${region === shown.region ? ' selected' : ''}>${escapeHtml(region)}</option>`)
      .join(''),
    __PROFILE_NAME__: escapeHtml(profileTitle(input.profile)),
    __STACK_SOURCE__: escapeHtml(input.stackSource),
    // The tables' headings that explain their marks and ratios, as the report's own.
    __DESIGN_HEAD__: escapeHtml(designHead[0]),
    __VPS_CARRIES_HEAD__: escapeHtml(vpsHead[4]),
    // Without a script, the report as the CLI wrote it.
    __STATIC_REPORT__: reportBodyHtml(buildReport(input)),
  };
  return read('index.html').replace(
    new RegExp(
      `/\\*explorer\\.(css|js)\\*/|${Object.keys(values)
        .filter((k) => k.startsWith('__'))
        .join('|')}`,
      'g',
    ),
    (key) => values[key],
  );
}
