/**
 * Builds the static site into a folder: index.html plus content-hashed files
 * under assets/ (cacheable forever). Used by the stack (as the site asset's
 * bundling, so `cdk synth` builds it) and by the local runtime. Synchronous,
 * because CDK's local bundling hook is.
 */
import { buildSync } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FRONTEND_DIR = dirname(fileURLToPath(import.meta.url));
/** Hashed files live here; everything else (index.html, config.json) must be revalidated. */
export const ASSETS_PREFIX = 'assets';

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
