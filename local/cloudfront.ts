/**
 * CloudFront in front of the API for the paths the template caches (results=cloudfront): an
 * answer is kept for its Cache-Control max-age, held within the cache policy's min and max TTL,
 * and repeats are served from the cache with CloudFront's headers. Only 200s are kept.
 */
import type { CacheBehaviorModel } from '../template/model';
import type { IncomingRequest, LocalResponse } from './gateway';

/** A CloudFront path pattern (`*` any characters, `?` one) as a regular expression. */
export function pathPatternRegExp(pattern: string): RegExp {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`);
}

export interface CdnCache {
  /** The behavior a path falls under, if it is one that caches the API. */
  covers(path: string): boolean;
  respond(
    request: IncomingRequest,
    origin: () => Promise<LocalResponse>,
  ): Promise<{ response: LocalResponse; hit: boolean }>;
}

export function cdnCache(behaviors: CacheBehaviorModel[], clock: () => number = Date.now): CdnCache {
  const compiled = behaviors.map((b) => ({ ...b, pattern: pathPatternRegExp(b.pathPattern) }));
  const entries = new Map<string, { response: LocalResponse; storedAt: number; ttlMs: number }>();
  const behaviorOf = (path: string) => compiled.find((b) => b.pattern.test(path));
  return {
    covers: (path) => behaviorOf(path) !== undefined,
    async respond(request, origin) {
      const behavior = behaviorOf(request.path)!;
      // The cache policy forwards no query string, header or cookie: the path alone is the key.
      const key = `${request.method === 'HEAD' ? 'GET' : request.method} ${request.path}`;
      const now = clock();
      const cached = entries.get(key);
      if (cached && now - cached.storedAt < cached.ttlMs) {
        const age = Math.floor((now - cached.storedAt) / 1000);
        return {
          response: {
            ...cached.response,
            headers: { ...cached.response.headers, age: String(age), 'x-cache': 'Hit from cloudfront' },
          },
          hit: true,
        };
      }
      const response = await origin();
      const maxAge = /max-age=(\d+)/.exec(response.headers['cache-control'] ?? '')?.[1];
      const seconds = Math.min(
        behavior.maxTtl,
        Math.max(behavior.minTtl, maxAge === undefined ? behavior.defaultTtl : Number(maxAge)),
      );
      if ((request.method === 'GET' || request.method === 'HEAD') && response.status === 200 && seconds > 0)
        entries.set(key, { response, storedAt: now, ttlMs: seconds * 1000 });
      else entries.delete(key);
      return {
        response: { ...response, headers: { ...response.headers, 'x-cache': 'Miss from cloudfront' } },
        hit: false,
      };
    },
  };
}
