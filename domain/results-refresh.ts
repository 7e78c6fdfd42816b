/**
 * The results page's refresh schedule (config/results-refresh.ts) as the page follows it and as the cost model
 * counts it: the same function for both, so a viewer is priced at the requests the page makes. Pure.
 */
import { RESULTS_REFRESH, type RefreshPolicy } from '../config/results-refresh';

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
