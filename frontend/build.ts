/**
 * Builds the static site into a folder: index.html plus content-hashed files
 * under assets/ (cacheable forever). Used by the stack (as the site asset's
 * bundling, so `cdk synth` builds it) and by the local runtime. Synchronous,
 * because CDK's local bundling hook is.
 */
import { buildSync } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const FRONTEND_DIR = dirname(fileURLToPath(import.meta.url));
/** Hashed files live here; everything else (index.html, config.json) must be revalidated. */
export const ASSETS_PREFIX = 'assets';

/** Content types of what the build emits, for whoever serves or uploads it. */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

export interface BuiltSite {
  outDir: string;
  /** Paths relative to outDir, with their sizes in bytes. */
  files: Record<string, number>;
}

export function buildFrontend(outDir: string, options: { minify?: boolean } = {}): BuiltSite {
  mkdirSync(outDir, { recursive: true });
  const result = buildSync({
    entryPoints: { app: join(FRONTEND_DIR, 'src/main.ts') },
    bundle: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'safari16', 'firefox115'],
    minify: options.minify ?? true,
    outdir: join(outDir, ASSETS_PREFIX),
    entryNames: '[name]-[hash]',
    metafile: true,
    write: true,
    logLevel: 'warning',
  });
  const [jsPath, js] = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint)!;
  const asUrl = (path: string) => '/' + relative(outDir, resolve(path)).split('\\').join('/');
  const html = readFileSync(join(FRONTEND_DIR, 'index.html'), 'utf8')
    .replace('/app.js', asUrl(jsPath))
    .replace('/app.css', asUrl(js.cssBundle!));
  writeFileSync(join(outDir, 'index.html'), html);

  const files: Record<string, number> = { 'index.html': Buffer.byteLength(html) };
  for (const [path, output] of Object.entries(result.metafile.outputs)) files[asUrl(path).slice(1)] = output.bytes;
  return { outDir, files };
}

/** `npm run build:site`: builds into frontend/dist and prints what a first visit transfers. */
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { parseCommandLine } = await import('../bin/command-line');
  parseCommandLine({ command: 'npm run build:site --', summary: 'Builds the site into frontend/dist and prints what a first visit transfers, raw and gzipped.', options: {} });
  const site = buildFrontend(join(FRONTEND_DIR, 'dist'));
  let raw = 0;
  let gzipped = 0;
  for (const [path, bytes] of Object.entries(site.files)) {
    const gz = gzipSync(readFileSync(join(site.outDir, path))).length;
    raw += bytes;
    gzipped += gz;
    console.log(`${path.padEnd(32)} ${String(bytes).padStart(7)} B  ${String(gz).padStart(6)} B gzipped`);
  }
  console.log(`${'a first page view'.padEnd(32)} ${String(raw).padStart(7)} B  ${String(gzipped).padStart(6)} B gzipped (CloudFront compresses)`);
}
