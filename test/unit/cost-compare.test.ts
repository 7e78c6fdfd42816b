/**
 * The VPS side (cost/compare.ts): the boxes a month needs at this app's measured capacity, what
 * they cost, and where the serverless bill overtakes them, checked against arithmetic by hand.
 */
import { describe, expect, it } from 'vitest';
import { breakEven, vpsCost } from '../../cost/compare';
import { estimate } from '../../cost/model';
import { PROFILES } from '../../cost/profiles';
import { BASELINE_VPS, VPS_TIERS, type VpsCapacity, type VpsMeasurement } from '../../cost/vps';
import { designStack } from '../support/cost';

const stack = designStack();

/** A measurement with round figures, so VPS sizing is arithmetic by hand (the committed one moves with each run). */
const rate = (requestsPerSecond: number) => ({
  method: 'GET',
  path: '',
  requestsPerSecond,
  latencyMs: { p50: 1, p97_5: 2, p99: 3, max: 4 },
  requests: 0,
  non2xx: 0,
  errors: 0,
});
const measurement: VpsMeasurement = {
  what: 'test',
  date: '2026-11-22',
  machine: { cpus: 2, model: 'test', os: 'test', node: 'v20' },
  command: 'test',
  bare: rate(40_000),
  routes: { options: rate(20_000), page: rate(20_000), vote: rate(10_000), results: rate(20_000) },
  optionsShareOfBare: 0.5,
  votes: { acknowledged: 1, counted: 1 },
};
const capacity: VpsCapacity = { measurement, source: 'test' };

describe('the same month on a VPS', () => {
  const bill = estimate(PROFILES.seed, stack);

  it('sizes the VPS for the month’s mix at the measured capacity, and finds where serverless overtakes it', () => {
    const vps = vpsCost(BASELINE_VPS, PROFILES.seed, bill, capacity);
    // Mix: 15.003 M pages, 15 M poll reads, 15.003 M votes and creates, 900 M results (one origin: no preflights).
    // Seconds per million: (15.003 + 15 + 900) / 20,000 + 15.003 / 10,000 = 0.04800045 -> 945.006 M / that
    // = 19,687 req/s.
    expect(vps.capacityRps).toBeCloseTo(945.006 / 0.04800045, 0);
    // 2,000 req/s peak (3 x the 365 average is less) -> 1 box at 10% load; 515 GB is within 3 TB
    expect(vps).toMatchObject({ boxes: 1, overageUsd: 0, totalUsd: 15 });
    expect(vps.utilisation).toBeCloseTo(2000 / (945.006 / 0.04800045), 6);
    // At 50% of capacity: $15 / (19,687 x 0.5 x 2,592,000 s) per request = $0.000588 per million
    expect(vps.usdPerMillionAtCeiling).toBeCloseTo(15 / ((945.006 / 0.04800045) * 0.5 * 2.592), 9);
    const even = breakEven(BASELINE_VPS, PROFILES.seed, stack, capacity);
    expect(even.votes).toBeGreaterThan(1e5);
    expect(even.votes).toBeLessThan(15e6);
    // At the break-even volume the two bills match.
    const scaled = { ...PROFILES.seed, pollsPerDay: (PROFILES.seed.pollsPerDay * even.votes!) / 15e6 };
    expect(estimate(scaled, stack).totalUsd).toBeCloseTo(15, 2);
  });

  it('needs more boxes (sharded: not built) when one hot poll peaks past one process', () => {
    const tv = estimate(PROFILES['tv-show'], stack);
    // Mix: 8 M pages, 8 M reads, 8 M votes, 600 M results: (616 / 20,000 + 8 / 10,000) = 0.0316 s per M
    // -> 19,747 req/s; 20,000 req/s peak / (19,747 x 50%) = 2.03 -> 3 boxes
    expect(vpsCost(VPS_TIERS[0], PROFILES['tv-show'], tv, capacity).boxes).toBe(3);
  });
});
