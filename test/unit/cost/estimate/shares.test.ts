/**
 * cost/estimate/shares.ts: a profile's month of volumes (polls, votes, visits, poll reads past a cache, viewers,
 * preflights only where the API needs CORS), the app's share of the usage every design has, CloudFront's share
 * where the API is behind it, and the sum of shares (each total added, an absent one 0, the work kept in order).
 * Every expected number is worked out by hand from the profile's fields, in the comments.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_VOTE_PATH } from '../../../../config/vote-path';
import {
  appShare,
  CACHE_ORIGINS_PER_POLL,
  type LambdaWork,
  type MonthVolumes,
  monthVolumes,
  sumShares,
  throughCloudFrontShare,
} from '../../../../cost/estimate/shares';
import { DEFAULT_UNIT_COSTS, type UnitCosts } from '../../../../cost/usage/unit-costs';
import { validateProfile } from '../../../../cost/usage/profiles';

/**
 * 10 polls a day (300 a month), each open 30 minutes with 1,000 votes; a visit every other vote; 1,500 watch its
 * results (500 of them never vote) for 3 minutes, asking every 6 s: 30 requests each.
 */
const profile = validateProfile({
  pollsPerDay: 10,
  votesPerPoll: 1000,
  votingMinutes: 30,
  pageLoadsPerVoter: 0.5,
  resultsViewersPerPoll: 1500,
  watchMinutes: 3,
  refresh: 6,
  oneVotePerVoter: true,
  pageBytes: 10_000,
  apiResponseBytes: 500,
});

/** The API needs CORS and a browser keeps a preflight's answer 2 hours (longer than a poll is open); no poll cache. */
const stack = {
  corsPreflight: true,
  corsMaxAgeSeconds: 7200,
  consumer: { batchSize: 10, maxBatchingWindowSeconds: 0 },
  votePath: { ...DEFAULT_VOTE_PATH, groupsPerPoll: 4, counterShards: 1 },
  pollReadCacheSeconds: 0,
};

/** Round figures a test can multiply in its head (DEFAULT_UNIT_COSTS for what these shares do not read). */
const units: UnitCosts = {
  ...DEFAULT_UNIT_COSTS,
  billedMs: { createPoll: 30, getPoll: 10, castVote: 20, getResults: 2, countVotes: 50 },
  readUnitsPerRead: 0.5,
  writeUnitsPerCreate: 2,
  writeUnitsPerVoterClaim: 1,
  siteRequestsPerPageLoad: 2,
  requestBytes: 700,
};

describe('monthVolumes', () => {
  it('counts polls over 30 days, votes, visits (voters, watchers who do not vote, creators), viewers', () => {
    const month = monthVolumes(profile, stack, units);
    expect(month.polls).toBe(300); // 10 x 30
    expect(month.votes).toBe(300_000); // 300 x 1,000
    // Voters' visits 300,000 x 0.5 = 150,000; watchers who do not vote (1,500 - 1,000) x 300 = 150,000; creators 300
    expect(month.pageLoads).toBe(300_300);
    // A poll read each visit but a creator's.
    expect(month.pollReads).toBe(300_000);
    expect(month.viewers).toBe(450_000); // 300 x 1,500
    expect(month.resultsRequests).toBe(13_500_000); // 450,000 x 30
    // Watchers who all vote bring no visits of their own.
    expect(monthVolumes({ ...profile, resultsViewersPerPoll: 800 }, stack, units).pageLoads).toBe(150_300);
  });

  it('sends a poll read to the origin past a cache at most once per cache, per period, per open poll', () => {
    expect(monthVolumes(profile, stack, units).originPollReads).toBe(300_000); // no cache: every read
    // 30 s: 30 minutes are 60 periods, 300 polls x 13 caches x 60 = 234,000 of the 300,000 reads.
    expect(CACHE_ORIGINS_PER_POLL).toBe(13);
    expect(monthVolumes(profile, { ...stack, pollReadCacheSeconds: 30 }, units).originPollReads).toBe(234_000);
    // 1 s: 1,800 periods would allow 7.02 M: never more than the 300,000 reads browsers send.
    expect(monthVolumes(profile, { ...stack, pollReadCacheSeconds: 1 }, units).originPollReads).toBe(300_000);
  });

  it('counts a CORS preflight per voting visit and per create, and none where the API needs no CORS', () => {
    // The answer outlives the poll: one preflight a visit, 150,000, and one per create, 300.
    expect(monthVolumes(profile, stack, units).preflights).toBe(150_300);
    // No max-age: every POST is asked about, each of the 300,000 votes.
    expect(monthVolumes(profile, { ...stack, corsMaxAgeSeconds: 0 }, units).preflights).toBe(300_300);
    expect(monthVolumes(profile, { ...stack, corsPreflight: false }, units).preflights).toBe(0);
  });

  it("sizes the consumer's batches at the average poll's votes a second", () => {
    // 1,000 votes over 1,800 s in 4 groups: a group sees a vote every 7.2 s, a batch takes 50 ms: one vote a batch.
    const trickle = monthVolumes(profile, stack, units).voteRates.votesPerBatch;
    expect(trickle).toBeGreaterThanOrEqual(1);
    expect(trickle).toBeLessThan(1.01);
    // 7.2 M votes over 1,800 s are 4,000 a second, 1,000 a group: 50 arrive in a 50 ms batch, which takes its 10.
    const storm = monthVolumes({ ...profile, votesPerPoll: 7_200_000 }, stack, units).voteRates;
    expect(storm.votesPerBatch).toBe(10);
    // A load test's figure replaces the derived one.
    expect(monthVolumes(profile, stack, { ...units, votesPerBatch: 3 }).voteRates.votesPerBatch).toBe(3);
  });
});

/** A month given by hand: 2,000 of 5,900 poll reads reach the API; the consumer folds 4 votes a batch. */
const volumes: MonthVolumes = {
  polls: 100,
  votes: 10_000,
  pageLoads: 6_000,
  pollReads: 5_900,
  originPollReads: 2_000,
  viewers: 8_000,
  resultsRequests: 400_000,
  preflights: 3_000,
  voteRates: { votesPerBatch: 4, counterWritesPerVote: 0.25, counterWriteUnitsPerVote: 0.5, sqsRequestsPerVote: 1.5 },
};

describe('appShare', () => {
  const share = appShare(volumes, profile, units);

  it('invokes create, poll read (at the origin), vote, and the consumer once a batch, each at its billed time', () => {
    expect(share.work).toEqual([
      { role: 'createPoll', invocations: 100, billedMs: 30 },
      { role: 'getPoll', invocations: 2_000, billedMs: 10 },
      { role: 'castVote', invocations: 10_000, billedMs: 20 },
      { role: 'countVotes', invocations: 2_500, billedMs: 50 }, // 10,000 votes / 4 a batch
    ]);
  });

  it('bills the API creates, origin poll reads, votes and preflights; the table a read per poll read and vote', () => {
    expect(share.apiRequests).toBe(15_100); // 100 + 2,000 + 10,000 + 3,000
    expect(share.readUnits).toBe(6_000); // (2,000 + 10,000) x 0.5
  });

  it("writes each create, the counter's units a vote, and a voter claim a vote only with oneVotePerVoter", () => {
    expect(share.writeUnits).toBe(15_200); // 100 x 2 + 10,000 x 0.5 + 10,000 x 1
    expect(appShare(volumes, { ...profile, oneVotePerVoter: false }, units).writeUnits).toBe(5_200);
  });

  it("serves the site's requests and bytes from CloudFront and counts what browsers send", () => {
    expect(share.cloudFrontRequests).toBe(12_000); // 6,000 visits x 2 site requests
    expect(share.cloudFrontBytes).toBe(60_000_000); // 6,000 x 10,000 bytes
    // The site's 12,000, an API call a visit (6,000), 10,000 votes, 3,000 preflights
    expect(share.clientRequests).toBe(31_000);
    // Results are each design's own share (results-shares.ts), and nothing passes CloudFront to an origin here.
    expect(share.functionUrlRequests ?? 0).toBe(0);
    expect(share.cloudFrontOriginBytes ?? 0).toBe(0);
  });
});

describe('throughCloudFrontShare', () => {
  it('makes every create, poll read and vote a CloudFront request, and passes on those its cache does not keep', () => {
    const share = throughCloudFrontShare(volumes, profile, units);
    expect(share.cloudFrontRequests).toBe(16_000); // 100 + 5,900 + 10,000
    expect(share.cloudFrontBytes).toBe(8_000_000); // 16,000 answers x 500 bytes
    // 100 creates + 2,000 poll reads past the cache + 10,000 votes, 700 bytes each
    expect(share.cloudFrontOriginBytes).toBe(8_470_000);
    // The API's requests are the app's share already.
    expect(share.apiRequests ?? 0).toBe(0);
    expect(share.work ?? []).toEqual([]);
  });
});

describe('sumShares', () => {
  const create: LambdaWork = { role: 'createPoll', invocations: 1, billedMs: 30 };
  const vote: LambdaWork = { role: 'castVote', invocations: 2, billedMs: 20 };
  const results: LambdaWork = { role: 'getResults', invocations: 3, billedMs: 2 };

  it('adds each total across the shares, keeps every share’s work in order, and leaves absent totals at 0', () => {
    const month = sumShares([
      { work: [create], apiRequests: 10, readUnits: 4 },
      { apiRequests: 5, webSocketMessages: 7 },
      { work: [vote, results], readUnits: 0.5, directBytes: 100 },
    ]);
    expect(month).toEqual({
      work: [create, vote, results],
      apiRequests: 15,
      readUnits: 4.5,
      writeUnits: 0,
      cloudFrontRequests: 0,
      cloudFrontBytes: 0,
      cloudFrontOriginBytes: 0,
      directBytes: 100,
      clientRequests: 0,
      functionUrlRequests: 0,
      webSocketMessages: 7,
      webSocketConnectionMinutes: 0,
    });
    expect(sumShares([])).toMatchObject({ work: [], apiRequests: 0, webSocketConnectionMinutes: 0 });
  });

  it('adds in the order the shares are given (a floating-point sum depends on it)', () => {
    // 1e16 + 1 rounds back to 1e16 (doubles there are 2 apart); 1 + 1 first makes 2, which 1e16 keeps.
    const big = { apiRequests: 1e16 };
    const one = { apiRequests: 1 };
    expect(sumShares([big, one, one]).apiRequests).toBe(1e16);
    expect(sumShares([one, one, big]).apiRequests).toBe(1e16 + 2);
  });
});
