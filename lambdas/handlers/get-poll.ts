/** GET /api/poll/{id} and GET /api/poll/{id}/options — a poll, or just its options. */
import { POLL_READ_CACHE_SECONDS } from '../../config/caching';
import { pollNotFound } from '../domain/errors';
import { isPollId } from '../domain/ids';
import { isClosed, isExpired, toPublicPoll, type Poll } from '../domain/poll';
import type { Clock, PollStore } from '../domain/ports';
import { cachedPollStore } from '../domain/poll-cache';
import type { ApiRoute } from './http';

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
  return async (request) => {
    const id = request.pathParameters.id;
    if (!isPollId(id)) throw pollNotFound();
    const nowMs = clock();
    const poll = await pollOf(id);
    if (!poll || isExpired(poll, nowMs)) throw pollNotFound();
    const view = toPublicPoll(poll, nowMs);
    const headers = { 'cache-control': pollCacheControl(poll, nowMs) };
    return request.route.endsWith('/options')
      ? { status: 200, body: { id: view.id, options: view.options }, headers }
      : { status: 200, body: view, headers };
  };
}
