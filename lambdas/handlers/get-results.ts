/** GET /api/poll/{id}/results — counts per option, cheap to poll often. */
import { RESULTS_CACHE_SECONDS } from '../../config/caching';
import { pollNotFound } from '../../domain/errors';
import { isPollId } from '../../domain/ids';
import { isClosed, isExpired } from '../../domain/poll';
import type { Clock, PollStore } from '../../domain/ports';
import { ResultsCache } from '../../domain/results-cache';
import { toPublicResults, type PollCounts } from '../../domain/results';
import type { ApiResponse, ApiRoute } from './http';

/**
 * The results route, built from its store, with counts kept in memory up to the results max-age
 * unless `keepCounts` is false (a store that is memory already: the VPS edition). It throws
 * PollError `poll_not_found` for a malformed id, a missing or an expired poll; a store's error as it came.
 */
export function getResultsHandler({
  polls,
  clock = Date.now,
  keepCounts = true,
}: {
  polls: PollStore;
  clock?: Clock;
  keepCounts?: boolean;
}): ApiRoute {
  const maxAgeMs = RESULTS_CACHE_SECONDS * 1000;
  const cache = new ResultsCache(maxAgeMs);
  // Each counts' answer, kept while it stays the same (its max-age and closed do not change): frozen, the same
  // object each time, so an adapter may keep its encoding too (vps/server.ts).
  const kept = new WeakMap<PollCounts, { maxAge: number; closed: boolean; response: ApiResponse }>();
  return async (request) => {
    const id = request.pathParameters.id;
    if (!isPollId(id)) throw pollNotFound();
    const nowMs = clock();
    // A client asking for fresh counts (Cache-Control: no-cache) gets them; browsers polling do not ask.
    const fresh = !keepCounts || /no-cache/i.test(request.headers['cache-control'] ?? '');
    const cached = fresh ? undefined : cache.get(id, nowMs);
    let counts: PollCounts | undefined = cached?.value;
    if (!counts) {
      counts = await polls.getCounts(id);
      if (counts) cache.set(id, counts, nowMs);
    }
    if (!counts || isExpired(counts, nowMs)) throw pollNotFound();
    // Whoever keeps this answer keeps it only for what is left of the max-age, so counts are never older than that.
    const maxAge = Math.max(0, Math.floor((maxAgeMs - (cached?.ageMs ?? 0)) / 1000));
    const closed = isClosed(counts, nowMs);
    const answer = kept.get(counts);
    if (answer?.maxAge === maxAge && answer.closed === closed) return answer.response;
    const results = toPublicResults(id, counts, nowMs);
    const response: ApiResponse = Object.freeze({
      status: 200,
      body: results,
      headers: {
        'cache-control': `public, max-age=${maxAge}`,
        'last-modified': new Date(results.updatedAt).toUTCString(),
      },
    });
    kept.set(counts, { maxAge, closed, response });
    return response;
  };
}
