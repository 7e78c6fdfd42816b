/**
 * `npm run build:vps`: the VPS edition as one file, dist/vps/poll-vps.mjs, with the page built in:
 * what the Dockerfile ships, and what a droplet runs with nothing but Node (no npm install).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { parseCommandLine } from '../cli/command-line';
import { buildServedSite } from '../frontend/served-site';

const { values } = parseCommandLine({
  command: 'npm run build:vps --',
  summary: 'Bundles the VPS edition and its page into one file that runs on Node 20.15 or newer with no node_modules.',
  options: { out: { type: 'string', default: 'dist/vps', value: '<folder>', description: 'where poll-vps.mjs goes' } },
  details: ['Run it: node <folder>/poll-vps.mjs --help'],
});

const out = resolve(values.out);
mkdirSync(out, { recursive: true });
const outfile = join(out, 'poll-vps.mjs');
const result = await build({
  entryPoints: [resolve('bin/vps.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile,
  // The page, built now: vps/site.ts serves it instead of building one (which would need esbuild).
  define: { PREBUILT_SITE: JSON.stringify(buildServedSite()) },
  // Only the source needs these (to build the page at start); the bundle has it built in.
  external: ['esbuild', '../frontend/served-site'],
  minify: true,
  metafile: true,
  logLevel: 'warning',
});
const [output] = Object.values(result.metafile.outputs);
console.log(`Wrote ${outfile} (${Math.round(output.bytes / 1024)} KB). Run it: node ${outfile} --help`);
