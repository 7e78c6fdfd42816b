/**
 * The frontend, served from the API's origin as CloudFront serves it from the
 * site bucket: hashed assets cached for good, index.html for every page path
 * (the distribution maps missing keys to it), and a config.json that tells
 * the page the API is on this same origin.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { SiteConfig } from '../config/app-config';
import { ASSETS_PREFIX, buildFrontend, CONTENT_TYPES } from '../frontend/build';
import { SITE_CACHE_CONTROL } from '../lib/site';
import type { Meter } from './metering';

export interface StaticSite {
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/** Builds the site into outDir (the caller removes it) and serves it. */
export function serveStaticSite(outDir: string, meter: Meter, config: SiteConfig): StaticSite {
  const site = buildFrontend(outDir, { minify: true });
  const files = new Map<string, Buffer>(Object.keys(site.files).map((path) => [`/${path}`, readFileSync(join(outDir, path))]));
  files.set('/config.json', Buffer.from(JSON.stringify(config)));

  return {
    handle(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method Not Allowed');
        return;
      }
      const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname));
      const known = files.get(path);
      const [servedPath, body] = known ? [path, known] : ['/index.html', files.get('/index.html')!];
      const cacheControl = servedPath.startsWith(`/${ASSETS_PREFIX}/`) ? SITE_CACHE_CONTROL.assets : SITE_CACHE_CONTROL.pages;
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[extname(servedPath)] ?? 'application/octet-stream',
        'content-length': String(body.length),
        'cache-control': cacheControl,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      meter.recordSite(body.length);
    },
  };
}
