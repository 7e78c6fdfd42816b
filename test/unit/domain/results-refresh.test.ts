import { describe, expect, it } from 'vitest';
import { RESULTS_CACHE_SECONDS } from '../../../config/caching';
import { RESULTS_REFRESH } from '../../../config/results-refresh';
import { nextRefreshDelay, refreshRequests } from '../../../domain/results-refresh';

describe('results refresh', () => {
  it('never asks faster than the results cache', () => {
    expect(RESULTS_REFRESH.minIntervalMs).toBeGreaterThanOrEqual(RESULTS_CACHE_SECONDS * 1000);
    expect(nextRefreshDelay(undefined, false)).toBe(RESULTS_REFRESH.minIntervalMs);
  });

  it('backs off while nothing changes, up to the cap, and is fast again after a change', () => {
    const policy = { minIntervalMs: 2000, maxIntervalMs: 30_000, backoffFactor: 2 };
    const delays: number[] = [];
    let delay: number | undefined;
    for (let i = 0; i < 6; i++) {
      delay = nextRefreshDelay(delay, false, policy);
      delays.push(delay);
    }
    expect(delays).toEqual([2000, 4000, 8000, 16000, 30000, 30000]);
    expect(nextRefreshDelay(30_000, true, policy)).toBe(2000);
  });

  it('counts what one viewer asks per minute', () => {
    const policy = { minIntervalMs: 2000, maxIntervalMs: 30_000, backoffFactor: 2 };
    // Busy: every 2 s -> 60 / 2 = 30 requests a minute.
    expect(refreshRequests(60_000, 'busy', policy)).toBe(30);
    // Quiet: at 0, 2, 6, 14 and 30 s = 5 in the first minute, then every 30 s: 2 more a minute.
    expect(refreshRequests(60_000, 'quiet', policy)).toBe(5);
    expect(refreshRequests(10 * 60_000, 'quiet', policy)).toBe(5 + 9 * 2);
  });
});
