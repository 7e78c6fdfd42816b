/**
 * cost/estimate/stages.ts: each stage a request passes at the busiest second carries the peak's requests for that
 * stage, against a limit from the stack (its throttle, groups, reserved concurrency) or from the quota sheet
 * (config/aws-quotas.ts, per Region and per account), with what lifts it (a flag, a quota raise, or nothing);
 * and Lambda's ramp to the peak grows with the environments it needs. The peak is given by hand, and so is
 * every expected number (in the comments).
 */
import { describe, expect, it } from 'vitest';
import { QUOTAS } from '../../../../config/aws-quotas';
import { apiLoad, type CapacityProfile, rampSeconds, type Stage, stagesOf } from '../../../../cost/estimate/stages';
import type { StackConfig } from '../../../../cost/estimate/stack-config';
import type { Peak } from '../../../../cost/usage/peaks';
import { DEFAULT_UNIT_COSTS, type UnitCosts } from '../../../../cost/usage/unit-costs';
import { designStack } from '../../../support/cost';

/** The deployed HTTP API design, with what these stages read of it spelled out. */
const deployed = designStack();
const api: StackConfig = {
  ...deployed,
  results: 'api',
  corsPreflight: true,
  corsMaxAgeSeconds: 7200,
  apiThroughCloudFront: false,
  pollReadCacheSeconds: 0,
  resultsConcurrency: undefined,
  consumer: { batchSize: 10, maxBatchingWindowSeconds: 0 },
  votePath: { ...deployed.votePath, groupsPerPoll: 4, counterShards: 1, stageRateLimit: 2000 },
};
/** Results from the function's URL, 50 environments reserved for it. */
const functionUrl: StackConfig = { ...api, results: 'function-url', corsPreflight: false, resultsConcurrency: 50 };
/** Results and poll reads cached at CloudFront (30 s), the whole API behind the distribution. */
const cloudFront: StackConfig = {
  ...api,
  results: 'cloudfront',
  corsPreflight: false,
  apiThroughCloudFront: true,
  pollReadCacheSeconds: 30,
};

/** The busiest second: 5 polls open, the hottest taking 400 of the 1,000 votes and 1,200 of the 3,000 results. */
const peak: Peak = {
  requestsPerSecond: 5_102,
  derivedRequestsPerSecond: 5_102,
  routes: { pages: 600, pollReads: 500, votes: 1_000, results: 3_000, creates: 2 },
  pollsOpenAtOnce: 5,
  hottestPoll: {
    votesPerSecond: 400,
    resultsRequestsPerSecond: 1_200,
    pageLoadsPerSecond: 200,
    viewersAtOnce: 2_400,
    refreshSeconds: 2,
  },
};
/** A visit every other vote (one preflight each: the answer outlives the 30-minute poll); a voter claim a vote. */
const profile: CapacityProfile = {
  oneVotePerVoter: true,
  pageLoadsPerVoter: 0.5,
  votingMinutes: 30,
  votesPerPoll: 1000,
};
const established = { account: 'established' as const, profile };

/** Round billed times; a load test's 5 votes a batch and 0.4 counter write units a vote; 0.01 read units a result. */
const units: UnitCosts = {
  ...DEFAULT_UNIT_COSTS,
  billedMs: { createPoll: 30, getPoll: 10, castVote: 20, getResults: 2, countVotes: 40 },
  votesPerBatch: 5,
  counterWriteUnitsPerVote: 0.4,
  readUnitsPerResultsRequest: 0.01,
  readUnitsPerRead: 0.5,
  writeUnitsPerCreate: 2,
  writeUnitsPerVoterClaim: 1,
};

/** The stage of that name (a test fails on its absence where it reads it). */
const named = (stages: Stage[], name: string): Stage => {
  const found = stages.find((s) => s.name === name);
  expect(found, name).toBeDefined();
  return found!;
};

describe('the API', () => {
  it('takes what it fronts and the preflights a voting visit and a create bring', () => {
    // 500 poll reads + 1,000 votes + 2 creates + 3,000 results + preflights (1,000 votes x 0.5 visits + 2 creates)
    expect(apiLoad(api, peak, profile)).toBe(5_004);
    expect(apiLoad({ ...api, corsPreflight: false }, peak, profile)).toBe(4_502);
    // The function URL and WebSocket answer results without the API.
    expect(apiLoad(functionUrl, peak, profile)).toBe(1_502);
    expect(apiLoad({ ...functionUrl, results: 'websocket' }, peak, profile)).toBe(1_502);
    // Behind CloudFront: results at most 5 polls x 13 caches / 2 s, poll reads 5 x 13 / 30 s.
    expect(apiLoad(cloudFront, peak, profile)).toBeCloseTo(1_002 + 32.5 + 65 / 30, 9);
  });

  it("meets the stage's throttle (its flag lifts it) and the account's, which is lower in a newer Region", () => {
    const stages = stagesOf(api, peak, units, established);
    expect(named(stages, 'API stage throttle')).toMatchObject({
      limit: 2_000,
      load: 5_004,
      fix: { flag: 'apiRateLimit' },
    });
    const account = QUOTAS.apiAccountRequestsPerSecond.name;
    expect(named(stages, account)).toMatchObject({
      limit: 10_000,
      load: 5_004,
      fix: { quota: 'apiAccountRequestsPerSecond' },
    });
    expect(named(stagesOf(api, peak, units, { ...established, region: 'af-south-1' }), account).limit).toBe(2_500);
  });
});

describe('CloudFront', () => {
  const distribution = QUOTAS.cloudFrontRequestsPerSecond.name;

  it("takes the site's pages, and every API request where the API is behind it; on a flat-rate plan, no quota", () => {
    expect(named(stagesOf(api, peak, units, established), distribution)).toMatchObject({ limit: 250_000, load: 600 });
    // 600 pages + 500 poll reads + 1,000 votes + 3,000 results + 2 creates
    expect(named(stagesOf(cloudFront, peak, units, established), distribution).load).toBe(5_102);
    const flat = stagesOf(cloudFront, peak, units, { ...established, flatRatePlan: true });
    expect(flat.find((s) => s.name === distribution)).toBeUndefined();
  });
});

describe('Lambda', () => {
  it("needs requests x billed time of the account's concurrency, and 10 requests a second of it per unit", () => {
    const stages = stagesOf(api, peak, units, established);
    // 2 x 30 + 500 x 10 + 1,000 x 20 + 3,000 x 2 ms, and 200 batches (1,000 votes / 5) x 40 ms: 39.06 s a second
    expect(named(stages, `${QUOTAS.lambdaAccountConcurrency.name} (requests × billed time)`)).toMatchObject({
      limit: 1_000,
      fix: { quota: 'lambdaAccountConcurrency' },
    });
    expect(named(stages, `${QUOTAS.lambdaAccountConcurrency.name} (requests × billed time)`).load).toBeCloseTo(
      39.06,
      9,
    );
    // 2 + 500 + 1,000 + 3,000 + 200 invocations a second; a raise to a tenth of them lifts it.
    const requests = named(stages, 'Lambda requests a second (10 x account concurrency)');
    expect(requests).toMatchObject({ limit: 10_000, load: 4_702, fix: { quota: 'lambdaAccountConcurrency' } });
    expect(requests.raiseTo).toBeCloseTo(470.2, 9);
  });

  it("behind CloudFront's caches, invokes the poll-read and results functions only for what they pass on", () => {
    const requests = named(
      stagesOf(cloudFront, peak, units, established),
      'Lambda requests a second (10 x account concurrency)',
    );
    // 2 creates + 1,000 votes + 200 batches, poll reads 5 polls x 13 caches / 30 s, results 5 x 13 / 2 s = 32.5
    expect(requests.load).toBeCloseTo(1_202 + 65 / 30 + 32.5, 9);
  });

  it("on a new account: the new account's lower concurrency, and a tenth of the requests", () => {
    const stages = stagesOf(api, peak, units, { ...established, account: 'new' });
    const concurrency = `${QUOTAS.lambdaNewAccountConcurrency.name} (requests × billed time)`;
    expect(named(stages, concurrency)).toMatchObject({ limit: 10, fix: { quota: 'lambdaNewAccountConcurrency' } });
    expect(named(stages, 'Lambda requests a second (10 x account concurrency)')).toMatchObject({
      limit: 100,
      load: 4_702,
    });
    expect(stages.find((s) => s.name.startsWith(`${QUOTAS.lambdaAccountConcurrency.name} (`))).toBeUndefined();
  });

  it('caps the function URL at its reserved concurrency, which the account must be able to give', () => {
    const stages = stagesOf(functionUrl, peak, units, established);
    // 50 reserved x 10 requests a second each, against all 3,000 results
    expect(named(stages, 'results function URL: reserved concurrency')).toMatchObject({
      limit: 500,
      load: 3_000,
      fix: { flag: 'resultsConcurrency' },
    });
    // An account of 1,000 keeps 100 unreserved: 900 to give; a new account's 10 give none.
    const give = 'reserved concurrency the account can give';
    expect(named(stages, give)).toMatchObject({ limit: 900, load: 50, raiseTo: 150 });
    expect(named(stagesOf(functionUrl, peak, units, { ...established, account: 'new' }), give).limit).toBe(0);
    // No reservation, or results through the API: neither stage.
    for (const stack of [{ ...functionUrl, resultsConcurrency: undefined }, api])
      expect(stagesOf(stack, peak, units, established).filter((s) => s.name.includes('reserved'))).toEqual([]);
  });
});

describe('the queue', () => {
  it('takes every vote at the queue, the hottest poll over its groups, each group draining a batch per cycle', () => {
    const stages = stagesOf(api, peak, units, established);
    expect(named(stages, QUOTAS.sqsFifoSendsPerQueue.name)).toMatchObject({
      limit: 70_000,
      load: 1_000,
      fix: { quota: 'sqsFifoSendsPerQueue' },
    });
    const inRegion = (region: string) =>
      named(stagesOf(api, peak, units, { ...established, region }), QUOTAS.sqsFifoSendsPerQueue.name).limit;
    expect(inRegion('eu-west-2')).toBe(4_500);
    expect(inRegion('ca-central-1')).toBe(2_400);
    // 4 groups x 300 sends a second
    const groups = 'message groups of the hottest poll';
    expect(named(stages, groups)).toMatchObject({ limit: 1_200, load: 400, fix: { flag: 'hotPollVotesPerSecond' } });
    // 4 groups x 10 votes a batch / 40 ms = 1,000 votes a second; a batch size above FIFO's 10 drains no faster.
    const consumer = 'consumer, one batch in flight per group';
    expect(named(stages, consumer)).toMatchObject({ limit: 1_000, load: 400, fix: { flag: 'hotPollVotesPerSecond' } });
    const bigger = { ...api, consumer: { batchSize: 100, maxBatchingWindowSeconds: 0 } };
    expect(named(stagesOf(bigger, peak, units, established), consumer).limit).toBe(1_000);
    const slower = { ...units, billedMs: { ...units.billedMs, countVotes: 80 } };
    expect(named(stagesOf(api, peak, slower, established), consumer).limit).toBe(500);
  });
});

describe('the table', () => {
  const counterKey = 'each counter key of the hottest poll: writes';

  it("puts the hottest poll's counter writes on its busiest counter key", () => {
    // 400 votes a second x 0.4 units: 160 on one key; over 2 keys, 80; 3 keys of 4 groups: the busiest takes 2.
    const onKeys = (counterShards: number) =>
      named(stagesOf({ ...api, votePath: { ...api.votePath, counterShards } }, peak, units, established), counterKey);
    expect(onKeys(1)).toMatchObject({ limit: 1_000, fix: { flag: 'hotPollVotesPerSecond' } });
    expect(onKeys(1).load).toBeCloseTo(160, 9);
    expect(onKeys(2).load).toBeCloseTo(80, 9);
    expect(onKeys(3).load).toBeCloseTo(80, 9);
  });

  it('writes counters, voter claims (one a vote, only with oneVotePerVoter) and creates to the table', () => {
    const writes = (p: CapacityProfile) =>
      named(stagesOf(api, peak, units, { ...established, profile: p }), QUOTAS.dynamoNewTableWriteUnits.name);
    // 1,000 votes x 0.4 + 1,000 claims x 1 + 2 creates x 2
    expect(writes(profile)).toMatchObject({ limit: 4_000, fix: { quota: 'dynamoNewTableWriteUnits' } });
    expect(writes(profile).load).toBeCloseTo(1_404, 9);
    expect(writes({ ...profile, oneVotePerVoter: false }).load).toBeCloseTo(404, 9);
  });

  it("reads the hottest poll's key: the poll per function environment a minute, and its results; fixed by AWS", () => {
    const key = named(stagesOf(api, peak, units, established), "the hottest poll's own key: reads");
    // Vote environments max(1,000 x 20 ms, 1,000 / 10) = 100, poll reads max(5, 50) = 50: 150 reads a 60 s,
    // half a unit each = 1.25; the hottest poll's 1,200 results x 0.01 measured = 12.
    expect(key).toMatchObject({ limit: 3_000, fix: 'none' });
    expect(key.load).toBeCloseTo(13.25, 9);
  });
});

describe('stagesOf', () => {
  it('leaves out a stage with no load', () => {
    const idle: Peak = {
      ...peak,
      routes: { pages: 0, pollReads: 0, votes: 0, results: 0, creates: 0 },
      pollsOpenAtOnce: 0,
      hottestPoll: { ...peak.hottestPoll, votesPerSecond: 0, resultsRequestsPerSecond: 0, pageLoadsPerSecond: 0 },
    };
    expect(stagesOf(api, idle, units, established)).toEqual([]);
    // A reservation is asked of the account however idle the peak.
    expect(stagesOf(functionUrl, idle, units, established).map((s) => s.name)).toEqual([
      'reserved concurrency the account can give',
    ]);
  });
});

describe('rampSeconds', () => {
  const withResults = (results: number): Peak => ({ ...peak, routes: { ...peak.routes, results } });

  it('is 0 up to 1,000 environments a function, then 10 s per 1,000 more', () => {
    // 3,000 results a second need 300 environments (10 requests a second each); 10,000 need 1,000.
    expect(rampSeconds(api, peak, units, profile)).toBe(0);
    expect(rampSeconds(api, withResults(10_000), units, profile)).toBe(0);
    expect(rampSeconds(api, withResults(10_010), units, profile)).toBe(10);
    expect(rampSeconds(api, withResults(25_000), units, profile)).toBe(20); // 2,500 environments
  });

  it('counts requests x billed time where that needs more environments, and only functions the peak reaches', () => {
    // 25,000 results a second at 200 ms: 5,000 busy at once.
    const slow = { ...units, billedMs: { ...units.billedMs, getResults: 200 } };
    expect(rampSeconds(api, withResults(25_000), slow, profile)).toBe(40);
    // With WebSocket push no results request reaches the results function.
    expect(rampSeconds({ ...api, results: 'websocket' }, withResults(25_000), units, profile)).toBe(0);
  });
});
