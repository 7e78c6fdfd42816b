/**
 * When the results page asks again. Pure and in config/, so the page, its unit tests and the
 * cost model (which counts what a viewer costs) share one schedule.
 */
import { RESULTS_REFRESH } from './app-config';

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
