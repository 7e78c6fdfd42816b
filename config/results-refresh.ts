/**
 * When the results page asks again: one schedule for the page and the cost model (which counts what a viewer
 * costs), followed by domain/results-refresh.ts.
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
