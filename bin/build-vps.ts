/**
 * `npm run build:vps`: the VPS edition as one file, dist/vps/poll-vps.mjs, with the page built in:
 * what the Dockerfile ships, and what a droplet runs with nothing but Node (no npm install).
 */
import { parseCommandLine } from '../node/command-line';
import { bundleVps } from '../vps/bundle';

const { values } = parseCommandLine({
  command: 'npm run build:vps --',
  summary: 'Bundles the VPS edition and its page into one file that runs on Node 20.15 or newer with no node_modules.',
  options: {
    out: { type: 'string', default: 'dist/vps', value: '<folder>', path: true, description: 'where poll-vps.mjs goes' },
  },
  details: ['Run it: node <folder>/poll-vps.mjs --help'],
});

const { file, bytes } = await bundleVps(values.out);
console.log(`Wrote ${file} (${Math.round(bytes / 1024)} KB). Run it: node ${file} --help`);
