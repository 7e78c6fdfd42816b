/**
 * When the results page asks again. Pure and in config/, so the page, its unit tests and the
 * cost model (which counts what a viewer costs) share one schedule.
 */
import { RESULTS_CACHE_SECONDS } from './caching';

/**
 * How the results page refreshes. Every refresh is a billed API request, so it
 * backs off while nothing changes and stops while the tab is hidden or the poll
 * is closed. Never faster than the results cache: a faster poll would only
 * return the same cached answer. The cost model reads these too.
 */
export const RESULTS_REFRESH = {
  minIntervalMs: RESULTS_CACHE_SECONDS * 1000,
  maxIntervalMs: 30_000,
  /** Each refresh that finds nothing new multiplies the interval by this. */
  backoffFactor: 2,
} as const;

export interface RefreshPolicy {
  minIntervalMs: number;
  maxIntervalMs: number;
  backoffFactor: number;
}

/** The delay before the next refresh: the minimum after a change, backing off while nothing changes. */
export function nextRefreshDelay(
  previousMs: number | undefined,
  changed: boolean,
  policy: RefreshPolicy = RESULTS_REFRESH,
): number {
  if (previousMs === undefined || changed) return policy.minIntervalMs;
  return Math.min(policy.maxIntervalMs, previousMs * policy.backoffFactor);
}

/**
 * Requests a visible viewer makes in `windowMs`, counting the first load:
 * `busy` when every refresh finds new votes, `quiet` when none does.
 * A hidden tab makes none.
 */
export function refreshRequests(
  windowMs: number,
  activity: 'busy' | 'quiet',
  policy: RefreshPolicy = RESULTS_REFRESH,
): number {
  let requests = 0;
  let delay: number | undefined;
  for (let t = 0; t < windowMs; t += delay) {
    requests++;
    delay = nextRefreshDelay(delay, activity === 'busy', policy);
  }
  return requests;
}
