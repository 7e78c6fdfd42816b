/** GET /api/poll/{id} and GET /api/poll/{id}/options — a poll, or just its options. */
import { POLL_READ_CACHE_SECONDS } from '../../config/caching';
import { pollNotFound } from '../../domain/errors';
import { isPollId } from '../../domain/ids';
import { isClosed, isExpired, toPublicPoll, type Poll } from '../../domain/poll';
import type { Clock, PollStore } from '../../domain/ports';
import { cachedPollStore } from '../../domain/poll-cache';
import type { ApiResponse, ApiRoute } from './http';

/**
 * How long a copy of this answer may be kept: the poll's max-age, but never past the moment the answer
 * changes (its `closed` turns true at closesAt; it is gone at expiresAt), so no cache shows a closed
 * poll as open, or an expired one at all.
 */
function pollCacheControl(poll: Poll, nowMs: number): string {
  const changesAt = isClosed(poll, nowMs) ? poll.expiresAt : poll.closesAt;
  const seconds = Math.max(0, Math.min(POLL_READ_CACHE_SECONDS, Math.floor(changesAt - nowMs / 1000)));
  return `public, max-age=${seconds}`;
}

/**
 * The poll route, built from its store: a poll (or its options) while it lives, read through the
 * poll cache (domain/poll-cache.ts) so that a hot poll's page loads do not all read its item. It throws PollError
 * `poll_not_found` for a malformed id, a missing or an expired poll; a store's error as it came.
 */
export function getPollHandler({ polls, clock = Date.now }: { polls: PollStore; clock?: Clock }): ApiRoute {
  const pollOf = cachedPollStore(polls, clock);
  // Each poll's answers as they are now, kept while they stay the same (its cache-control and closed do not
  // change): frozen, the same object each time, so an adapter may keep its encoding too (vps/server.ts).
  const kept = new WeakMap<
    Poll,
    { cacheControl: string; closed: boolean; poll?: ApiResponse; options?: ApiResponse }
  >();
  return async (request) => {
    const id = request.pathParameters.id;
    if (!isPollId(id)) throw pollNotFound();
    const nowMs = clock();
    const poll = await pollOf(id);
    if (!poll || isExpired(poll, nowMs)) throw pollNotFound();
    const cacheControl = pollCacheControl(poll, nowMs);
    const closed = isClosed(poll, nowMs);
    let answers = kept.get(poll);
    if (answers?.cacheControl !== cacheControl || answers.closed !== closed) {
      answers = { cacheControl, closed };
      kept.set(poll, answers);
    }
    const headers = { 'cache-control': cacheControl };
    if (request.route.endsWith('/options')) {
      answers.options ??= Object.freeze({ status: 200, body: { id: poll.id, options: poll.options }, headers });
      return answers.options;
    }
    answers.poll ??= Object.freeze({ status: 200, body: toPublicPoll(poll, nowMs), headers });
    return answers.poll;
  };
}
