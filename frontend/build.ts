/**
 * Builds the site: one HTML page carrying its script, styles and (once served) its config, so
 * a visit costs one request; and a small not-found page. In memory, synchronously (CDK's synth
 * calls it), used by the stack, the local runtime, the VPS edition and the LocalStack upload.
 */
import { buildSync } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Site } from './page';

export type { Site };

export const FRONTEND_DIR = dirname(fileURLToPath(import.meta.url));

/** Inline text must not end its <script> or <style> element early. */
const inline = (text: string, element: 'script' | 'style') =>
  text.replace(new RegExp(`</(${element})`, 'gi'), '<\\/$1');

export function buildSite(options: { minify?: boolean } = {}): Site {
  const result = buildSync({
    entryPoints: [join(FRONTEND_DIR, 'src/main.ts')],
    bundle: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'safari16', 'firefox115'],
    minify: options.minify ?? true,
    outdir: join(FRONTEND_DIR, 'dist'),
    write: false,
    logLevel: 'warning',
  });
  const output = (extension: string) => result.outputFiles.find((f) => f.path.endsWith(extension))!.text.trim();
  const page = readFileSync(join(FRONTEND_DIR, 'index.html'), 'utf8')
    .replace('/*app.css*/', () => inline(output('.css'), 'style'))
    .replace('/*app.js*/', () => inline(output('.js'), 'script'));
  return { page, notFound: readFileSync(join(FRONTEND_DIR, 'not-found.html'), 'utf8') };
}

/** `npm run build:site`: writes frontend/dist and prints what a visit transfers. */
