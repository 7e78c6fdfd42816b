/**
 * The VPS edition as one file (`poll-vps.mjs`) with the page built in: what `npm run build:vps` writes, the
 * Dockerfile ships and a droplet runs with nothing but Node, and what `npm run bench:vps` measures.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildServedSite } from '../frontend/served-site';

/** How a server of ours becomes one file a Node 20 box runs with nothing installed. */
const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  logLevel: 'warning',
} as const;

/** Writes `<folder>/poll-vps.mjs`; returns its path and size. */
export async function bundleVps(folder: string): Promise<{ file: string; bytes: number }> {
  const out = resolve(folder);
  mkdirSync(out, { recursive: true });
  const file = join(out, 'poll-vps.mjs');
  const result = await build({
    ...NODE_BUNDLE,
    entryPoints: [fileURLToPath(new URL('../bin/vps.ts', import.meta.url))],
    outfile: file,
    // The page, built now: vps/site.ts serves it instead of building one (which would need esbuild).
    define: { PREBUILT_SITE: JSON.stringify(buildServedSite()) },
    // Only the source needs these (to build the page at start); the bundle has it built in.
    external: ['esbuild', '../frontend/served-site'],
    metafile: true,
  });
  const [output] = Object.values(result.metafile.outputs);
  return { file, bytes: output.bytes };
}
