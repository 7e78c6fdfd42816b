/**
 * Cold starts from the traffic (cost/estimate/cold-starts.ts): the share of a function's invocations that
 * start cold follows the gaps between its requests, checked by hand and against AWS's "under 1%".
 */
import { describe, expect, it } from 'vitest';
import {
  AWS_COLD_START_SHARE,
  coldStartShare,
  coldStartShareOfAll,
  ENVIRONMENT_IDLE_LIFETIME,
} from '../../../../cost/estimate/cold-starts';
import { estimate } from '../../../../cost/estimate/model';
import { PROFILES } from '../../../../cost/usage/profiles';
import { DAYS_PER_MONTH, SECONDS_PER_MONTH } from '../../../../cost/usage/traffic-profile';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { costReport, designStack, unwrapped } from '../../../support/cost';
import { renderAnswer } from '../../../../cost/report/render-text';
import { BILL } from '../../../support/prices';

const month = (pollsPerDay: number) => ({
  pollsPerMonth: pollsPerDay * DAYS_PER_MONTH,
  secondsPerMonth: SECONDS_PER_MONTH,
});
const idle = ENVIRONMENT_IDLE_LIFETIME.seconds;

describe('the share of invocations that start cold', () => {
  it('is cold whenever the last call is longer ago than the idle lifetime, for a call of its own', () => {
    // 9 creates a month: one every 3.3 days, each cold but for exp(-rate x 600 s)
    const share = coldStartShare({ invocations: 9, busySeconds: 0, billedMs: 30 }, month(0.3));
    expect(share).toBeCloseTo(Math.exp(-(9 / SECONDS_PER_MONTH) * idle), 9);
    expect(share).toBeGreaterThan(0.99);
  });

  it('counts the first request of each spell after an idle time, once per environment the spell needs', () => {
    // 9 polls a month of 40 votes in an hour: a vote every 90 s within a poll (no gap of 10 minutes), and each
    // poll's first vote cold, as no other poll was open in the hour and 10 minutes before it.
    const polls = month(0.3);
    const perSecond = polls.pollsPerMonth / SECONDS_PER_MONTH;
    const busyShare = 1 - Math.exp(-perSecond * 3600);
    const rate = 360 / (SECONDS_PER_MONTH * busyShare);
    const expected = (360 * Math.exp(-rate * idle) + 9 * Math.exp(-perSecond * (3600 + idle))) / 360;
    expect(coldStartShare({ invocations: 360, busySeconds: 3600, billedMs: 25 }, polls)).toBeCloseTo(expected, 12);
    expect(expected).toBeCloseTo(9 / 360, 2);
    // Ten times the votes, a tenth of the share: the spells start as often, and there are more requests in each.
    const busier = coldStartShare({ invocations: 3600, busySeconds: 3600, billedMs: 25 }, polls);
    expect(busier).toBeCloseTo(expected / 10, 3);
    // A spell that needs 3 environments at once (2.5 requests in flight) starts 3 cold.
    const wide = coldStartShare({ invocations: 360, busySeconds: 3600, billedMs: (2.5 / rate) * 1000 }, polls);
    expect(wide).toBeCloseTo((360 * Math.exp(-rate * idle) + 3 * 9 * Math.exp(-perSecond * (3600 + idle))) / 360, 12);
  });

  it('is none without invocations or polls, and weights each function by its invocations', () => {
    expect(coldStartShare({ invocations: 0, busySeconds: 60, billedMs: 10 }, month(1))).toBe(0);
    expect(coldStartShare({ invocations: 10, busySeconds: 60, billedMs: 10 }, month(0))).toBe(0);
    expect(coldStartShareOfAll({ a: 90, b: 10 }, { a: 0, b: 0.5 })).toBeCloseTo(0.05, 12);
    expect(coldStartShareOfAll({ a: 0 }, { a: 1 })).toBe(0);
  });
});

describe('the presets', () => {
  const stack = designStack({ results: 'function-url' });
  const share = (profile: keyof typeof PROFILES) => {
    const { invocations, coldStartShares } = estimate(PROFILES[profile], stack, DEFAULT_UNIT_COSTS, BILL).usage;
    return coldStartShareOfAll(invocations, coldStartShares);
  };

  it('bills the club a cold-start share many times the seed’s, and keeps the seed’s under AWS’s 1%', () => {
    expect(share('seed')).toBeLessThan(AWS_COLD_START_SHARE.below);
    expect(share('tv-show')).toBeLessThan(AWS_COLD_START_SHARE.below);
    expect(share('club')).toBeGreaterThan(100 * share('seed'));
    // The short answer says so where it is above AWS's figure: the club's, not the seed's.
    const answer = (profile: string) => unwrapped(renderAnswer(costReport({ profile }), []));
    expect(answer('club')).toMatch(/Cold starts: 1\.1% of its invocations start cold/);
    expect(answer('seed')).not.toContain('Cold starts:');
  });

  it('moves the bill: each cold start adds its INIT to the GB-seconds', () => {
    const bill = estimate(PROFILES.club, stack, DEFAULT_UNIT_COSTS, BILL);
    const { invocations, coldStartShares } = bill.usage;
    // 256 MB functions: GB-s = Σ invocations x (billed ms + share x INIT ms) / 1000 x 0.25 (results at 2 ms).
    const { billedMs, initMs } = DEFAULT_UNIT_COSTS;
    const roles = Object.keys(invocations) as (keyof typeof invocations)[];
    const gbs = roles.reduce(
      (sum, role) => sum + (invocations[role] * (billedMs[role] + coldStartShares[role] * initMs)) / 1000 / 4,
      0,
    );
    expect(bill.usage.gbSeconds.arm64).toBeCloseTo(gbs, 9);
    expect(coldStartShares.createPoll).toBeGreaterThan(0.99);
  });
});
