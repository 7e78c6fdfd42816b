/**
 * The site the VPS edition serves: built into the bundle by `npm run build:vps` (so a droplet
 * needs no esbuild), or built at start when run from the source with `npm run vps`.
 */
import type { Site } from '../frontend/build';

declare const PREBUILT_SITE: Site | undefined;

export async function loadSite(): Promise<Site> {
  if (typeof PREBUILT_SITE !== 'undefined') return PREBUILT_SITE;
  const { buildSite } = await import('../frontend/build');
  return buildSite();
}
