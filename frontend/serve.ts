/**
 * Serves the built site over node:http as CloudFront serves it on AWS: the page for `/` and
 * `/poll/{id}` (revalidated by ETag, so a return visit is a 304), the cost explorer for `/cost`
 * when the site has one, the not-found page with a 404 for any other path, compressed when the
 * browser accepts it. The local runtime and the
 * VPS edition both serve the site with this.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { SITE_PAGES, type SiteConfig } from '../config/site';
import { SITE_CACHE_CONTROL } from '../config/caching';
import { targetOf } from '../node/request-reader';
import { pageWithConfig, type Site } from './page';

interface Body {
  raw: Buffer;
  gzipped: Buffer;
  etag: string;
}

const body = (text: string): Body => {
  const raw = Buffer.from(text);
  return {
    raw,
    gzipped: gzipSync(raw),
    etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`,
  };
};

/** Where a server of ours serves the cost explorer (npm start, npm run vps), when its site has one. */
export const COST_PATH = '/cost';

/** The page's footer, as built (hidden) and as a server with the cost explorer serves it. */
export const COST_FOOTER = { hidden: '<footer hidden>', shown: '<footer>' } as const;

export function siteServer(site: Site, config: SiteConfig, onServed?: (status: number, bytes: number) => void) {
  const explorer = site.explorer === undefined ? undefined : body(site.explorer);
  // The footer's link to /cost shows only where /cost is served (not on the CloudFront site).
  const withConfig = pageWithConfig(site.page, config);
  const page = body(explorer ? withConfig.replace(COST_FOOTER.hidden, COST_FOOTER.shown) : withConfig);
  const notFound = body(site.notFound);
  const isSitePage = (path: string) => SITE_PAGES.create.test(path) || SITE_PAGES.poll.test(path);
  /** The page for a path, if the site has one there. */
  const pageFor = (path: string) => (isSitePage(path) ? page : path === COST_PATH ? explorer : undefined);
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' })
        .end('Method Not Allowed\n');
      onServed?.(405, 19);
      return;
    }
    const found = pageFor(targetOf(req.url).path);
    const { raw, gzipped, etag } = found ?? notFound;
    const status = found && req.headers['if-none-match'] === etag ? 304 : found ? 200 : 404;
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const sent = status === 304 ? Buffer.alloc(0) : gzip ? gzipped : raw;
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': found ? SITE_CACHE_CONTROL : 'no-store',
      etag,
      vary: 'accept-encoding',
      ...(gzip && status !== 304 ? { 'content-encoding': 'gzip' } : {}),
      ...(status !== 304 ? { 'content-length': String(sent.length) } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : sent);
    onServed?.(status, req.method === 'HEAD' ? 0 : sent.length);
  };
}
