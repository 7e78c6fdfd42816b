/**
 * The site the VPS edition serves: built into the bundle by `npm run build:vps` (so a droplet
 * needs no esbuild), or built at start when run from the source with `npm run vps`.
 */
import type { Site } from '../frontend/page';

declare const PREBUILT_SITE: Site | undefined;

/** True in dist/vps/poll-vps.mjs (run with node), false when run from the source (npm run vps). */
export const BUNDLED = typeof PREBUILT_SITE !== 'undefined';

export async function loadSite(): Promise<Site> {
  if (BUNDLED) return PREBUILT_SITE as Site;
  const { buildServedSite } = await import('../frontend/served-site');
  return buildServedSite();
}
