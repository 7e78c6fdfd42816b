/**
 * The site as the servers of this repository serve it (npm start, npm run vps, and the VPS bundle):
 * the page, and the cost explorer at /cost, built from the default inputs (what `npm run cost` with
 * no options writes). The stack's site (lib/site.ts) is the page alone.
 */
import { defaultExplorerPage } from '../cost/report-files';
import { buildSite, type Site } from './build';

export const buildServedSite = (): Site => ({ ...buildSite(), explorer: defaultExplorerPage() });
