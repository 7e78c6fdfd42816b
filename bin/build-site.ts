/** `npm run build:site`: writes frontend/dist and prints what a visit transfers. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseCommandLine } from '../node/command-line';
import { buildSite, FRONTEND_DIR } from '../frontend/build';
import { pageWithConfig } from '../frontend/page';

parseCommandLine({
  command: 'npm run build:site --',
  summary: 'Builds the site into frontend/dist and prints what a visit transfers, raw and gzipped.',
  options: {},
});
const site = buildSite();
const dist = join(FRONTEND_DIR, 'dist');
mkdirSync(dist, { recursive: true });
const files = { 'index.html': pageWithConfig(site.page, { apiUrl: '' }), 'not-found.html': site.notFound };
for (const [name, text] of Object.entries(files)) {
  writeFileSync(join(dist, name), text);
  const bytes = String(Buffer.byteLength(text)).padStart(7);
  const gzipped = String(gzipSync(text).length).padStart(6);
  console.log(`${name.padEnd(16)} ${bytes} B  ${gzipped} B gzipped`);
}
console.log('A visit is one request: index.html (CloudFront compresses it); a return visit is one revalidation (304).');
