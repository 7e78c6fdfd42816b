/** GET /api/poll/{id} and GET /api/poll/{id}/options — a poll, or just its options. */
import { pollNotFound } from '../domain/errors';
import { isPollId } from '../domain/ids';
import { isExpired, toPublicPoll } from '../domain/poll';
import type { Clock, PollStore } from '../domain/ports';
import { cachedPollStore } from '../domain/poll-cache';
import type { ApiRoute } from './http';

/** A poll never changes after creation except for closing: browsers may keep it briefly. */
const POLL_CACHE_CONTROL = 'public, max-age=30';

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
    const headers = { 'cache-control': POLL_CACHE_CONTROL };
    return request.route.endsWith('/options')
      ? { status: 200, body: { id: view.id, options: view.options }, headers }
      : { status: 200, body: view, headers };
  };
}
