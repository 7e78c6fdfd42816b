/**
 * A poll's metadata, kept in the vote function's memory for a bounded time: it does not change
 * after creation, so a hot poll costs one read per container per interval instead of one per
 * vote, and no single item serves every vote. Only what was found is kept (a poll created a moment
 * ago is read again). Whether the poll is still open is for the caller to check on every vote,
 * against the clock: a closed poll refuses votes at once, cached or not.
 */
import { POLL_CACHE } from '../config/caching';
import type { Poll } from './poll';
import type { Clock, PollStore } from './ports';
import { TimedCache } from './timed-cache';

export interface PollCacheSettings {
  maxAgeMs: number;
  maxEntries: number;
}

/** `read` with the polls it found kept for `maxAgeMs`; throws what `read` throws. */
export function cachedPolls(
  read: (id: string) => Promise<Poll | undefined>,
  clock: Clock,
  { maxAgeMs, maxEntries }: PollCacheSettings,
): (id: string) => Promise<Poll | undefined> {
  const cache = new TimedCache<Poll>(maxAgeMs, maxEntries);
  return async (id) => {
    const cached = cache.get(id, clock());
    if (cached) return cached.value;
    const poll = await read(id);
    if (poll) cache.set(id, poll, clock());
    return poll;
  };
}

/** A store's polls through the cache sized by POLL_CACHE (config): what the vote and poll-read routes read. */
export const cachedPollStore = (polls: Pick<PollStore, 'getPoll'>, clock: Clock) =>
  cachedPolls((id) => polls.getPoll(id), clock, {
    maxAgeMs: POLL_CACHE.maxAgeSeconds * 1000,
    maxEntries: POLL_CACHE.maxEntries,
  });
