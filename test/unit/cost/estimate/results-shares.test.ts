/**
 * cost/estimate/results-shares.ts: what each results design adds to the month (results=api: API requests;
 * function-url: Lambda's own requests and transfer, no API request; cloudfront: viewers ask CloudFront, each
 * regional cache asks the origin once a period; websocket: broadcasts, messages and connection minutes), and the
 * read units a results request costs at the results function's traffic, each read reading every counter key.
 * Every expected number is worked out by hand, in the comments.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_VOTE_PATH } from '../../../../config/vote-path';
import {
  monthResultsTraffic,
  pollKeyReadUnits,
  RESULTS_SHARES,
  resultsReadUnits,
} from '../../../../cost/estimate/results-shares';
import { type MonthVolumes, sumShares } from '../../../../cost/estimate/shares';
import type { StackConfig } from '../../../../cost/estimate/stack-config';
import { DEFAULT_UNIT_COSTS, type UnitCosts } from '../../../../cost/usage/unit-costs';
import { validateProfile } from '../../../../cost/usage/profiles';

/** Polls open 30 minutes; 1,500 viewers a poll watch for 3 minutes, asking every 6 s (30 requests each). */
const profile = validateProfile({
  pollsPerDay: 10,
  votingMinutes: 30,
  resultsViewersPerPoll: 1500,
  watchMinutes: 3,
  refresh: 6,
  apiResponseBytes: 500,
});

/** Round unit costs; the results function's read units follow from its traffic (no load test's figure). */
const units: UnitCosts = {
  ...DEFAULT_UNIT_COSTS,
  billedMs: { ...DEFAULT_UNIT_COSTS.billedMs, getResults: 2 },
  readUnitsPerRead: 0.5,
  requestBytes: 700,
};
/** A load test measured 0.01 read units a results request. */
const measured: UnitCosts = { ...units, readUnitsPerResultsRequest: 0.01 };

/** Each poll's counts on two counter keys: a read of the counts reads both. */
const designed = (results: StackConfig['results'], counterShards = 2) => ({
  results,
  votePath: { ...DEFAULT_VOTE_PATH, counterShards },
});

/** A month given by hand: 100 polls, 20,000 viewers, a million results requests (50 a viewer). */
const volumes: MonthVolumes = {
  polls: 100,
  votes: 50_000,
  pageLoads: 60_000,
  pollReads: 59_900,
  originPollReads: 59_900,
  viewers: 20_000,
  resultsRequests: 1_000_000,
  preflights: 0,
  voteRates: { votesPerBatch: 1, counterWritesPerVote: 1, counterWriteUnitsPerVote: 1, sqsRequestsPerVote: 3 },
};

const shareOf = (results: StackConfig['results'], v: MonthVolumes = volumes) =>
  sumShares([RESULTS_SHARES[results](v, designed(results), measured, profile)]);

describe("each results design's share of the month", () => {
  it('results=api: every request is an API request invoking the results function, reading each counter key', () => {
    expect(shareOf('api')).toMatchObject({
      work: [{ role: 'getResults', invocations: 1_000_000, billedMs: 2 }],
      apiRequests: 1_000_000,
      readUnits: 20_000, // 1 M x 0.01 measured x 2 keys
      clientRequests: 1_000_000,
      functionUrlRequests: 0,
      directBytes: 0,
      cloudFrontRequests: 0,
    });
  });

  it("results=function-url: billed as Lambda's own requests and transfer out, not as API requests", () => {
    expect(shareOf('function-url')).toMatchObject({
      work: [{ role: 'getResults', invocations: 1_000_000, billedMs: 2 }],
      apiRequests: 0,
      functionUrlRequests: 1_000_000,
      directBytes: 500_000_000, // 1 M answers x 500 bytes, straight from Lambda
      readUnits: 20_000,
      clientRequests: 1_000_000,
      cloudFrontRequests: 0,
    });
  });

  it('results=cloudfront: viewers ask CloudFront; each of 13 caches asks the origin once per 2 s of a watch', () => {
    // A 3-minute watch is 90 periods of 2 s: 100 polls x 13 caches x 90 = 117,000 requests reach the API.
    expect(shareOf('cloudfront')).toMatchObject({
      work: [{ role: 'getResults', invocations: 117_000, billedMs: 2 }],
      apiRequests: 117_000,
      // CloudFront is the cache: the function reads each time, half a unit on each of 2 keys (0.01 measured aside).
      readUnits: 117_000,
      cloudFrontRequests: 1_000_000,
      cloudFrontBytes: 500_000_000, // 1 M answers x 500 bytes
      cloudFrontOriginBytes: 81_900_000, // 117,000 x 700 bytes
      clientRequests: 1_000_000,
      functionUrlRequests: 0,
    });
    // Fewer requests than the caches would ask: each reaches the origin, never more.
    const few = shareOf('cloudfront', { ...volumes, resultsRequests: 50_000 });
    expect(few.apiRequests).toBe(50_000);
  });

  it('results=websocket: a broadcast per poll per 2 s, a message per viewer per push, no results requests', () => {
    const push = shareOf('websocket');
    // 100 polls x 90 pushes = 9,000 broadcasts, each posting to 1 M / 9,000 connections at ~1 ms each;
    // a connect and a disconnect per viewer: 40,000 invocations, each a write.
    expect(push.work).toEqual([
      { role: 'getResults', invocations: 9_000, billedMs: 2 + 1_000_000 / 9_000 },
      { role: 'getResults', invocations: 40_000, billedMs: 2 },
    ]);
    expect(push.writeUnits).toBe(40_000);
    // A read of the counts a broadcast (half a unit), and the connection list: 100 bytes a message, 4 KB a unit.
    expect(push.readUnits).toBeCloseTo(9_000 * 0.5 + (1_000_000 * 100) / 4096, 6);
    expect(push).toMatchObject({
      webSocketMessages: 1_000_000,
      webSocketConnectionMinutes: 60_000, // 20,000 viewers x 3 minutes
      directBytes: 200_000_000, // 1 M messages x 200 bytes
      apiRequests: 0,
      clientRequests: 0,
      functionUrlRequests: 0,
    });
  });
});

describe('read units a results request costs', () => {
  const quiet = { requestsPerSecond: 0.5, pollsOpen: 1, billedMs: 2 };
  const crowd = { requestsPerSecond: 10_000, pollsOpen: 1, billedMs: 2 };

  it("follow the function's environments: each reads an open poll once per 2 s, on every counter key", () => {
    // A quiet poll on one environment: every request reads, half a unit.
    expect(resultsReadUnits(designed('api', 1), units, quiet)).toBeCloseTo(0.5, 9);
    // 10,000 a second need 1,000 environments (10 a second each): 500 reads a second, 0.05 a request.
    expect(resultsReadUnits(designed('api', 1), units, crowd)).toBeCloseTo(0.025, 9);
    // 200 ms a request: 2,000 environments busy at once, 1,000 reads a second.
    expect(resultsReadUnits(designed('api', 1), units, { ...crowd, billedMs: 200 })).toBeCloseTo(0.05, 9);
    expect(resultsReadUnits(designed('function-url', 3), units, crowd)).toBeCloseTo(3 * 0.025, 9);
  });

  it("are a load test's figure where measured, and a read each behind CloudFront, whatever the traffic", () => {
    expect(resultsReadUnits(designed('api', 2), measured, crowd)).toBeCloseTo(0.02, 9);
    expect(resultsReadUnits(designed('cloudfront', 2), measured, crowd)).toBe(1);
    expect(resultsReadUnits(designed('cloudfront', 2), units, quiet)).toBe(1);
  });

  it("on one poll's key: its requests, at most each environment's read once a cache period", () => {
    // At the crowd's 1,000 environments a poll's key is read at most 500 times a second.
    expect(pollKeyReadUnits(designed('api'), units, crowd, 4_000)).toBe(250);
    expect(pollKeyReadUnits(designed('api'), units, crowd, 100)).toBe(50);
    expect(pollKeyReadUnits(designed('cloudfront'), units, crowd, 4_000)).toBe(2_000);
    expect(pollKeyReadUnits(designed('api'), measured, crowd, 4_000)).toBeCloseTo(40, 9);
  });
});

describe('monthResultsTraffic', () => {
  it("is a poll's viewers' requests over its window, times the polls open at once (at least one)", () => {
    // 1,500 viewers x 30 requests / 1,800 s = 25 a second a poll; 10 polls a day of 30 minutes overlap little.
    expect(monthResultsTraffic(profile, units)).toEqual({ requestsPerSecond: 25, pollsOpen: 1, billedMs: 2 });
    // 96 a day of 30 minutes: 2 open at once.
    expect(monthResultsTraffic({ ...profile, pollsPerDay: 96 }, units)).toEqual({
      requestsPerSecond: 50,
      pollsOpen: 2,
      billedMs: 2,
    });
  });
});
