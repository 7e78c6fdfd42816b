/** The vote path's size from the flag: bounds, the default, and what each size carries. */
import { describe, expect, it } from 'vitest';
import { API_THROTTLE } from '../../../../config/throttling';
import { VOTE_QUEUE } from '../../../../config/vote-queue';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { DEFAULT_VOTE_PATH, MAX_HOT_POLL_VOTES_PER_SECOND } from '../../../../config/vote-path';
import { quota } from '../../../../sizing/quotas';
import { votePathFor, withApiRateLimit } from '../../../../sizing/vote-path';
import { voteRates } from '../../../../sizing/vote-rates';

describe('votePathFor', () => {
  it('is today’s size without the flag', () => {
    expect(votePathFor(undefined)).toEqual({
      groupsPerPoll: VOTE_QUEUE.groupsPerPoll,
      counterShards: 1,
      stageRateLimit: API_THROTTLE.rateLimit,
      stageBurstLimit: API_THROTTLE.burstLimit,
    });
  });

  it('is never smaller than the default', () => {
    const small = votePathFor(10);
    expect(small).toMatchObject({ ...DEFAULT_VOTE_PATH, hotPollVotesPerSecond: 10 });
  });

  it.each([10_000, 50_000, MAX_HOT_POLL_VOTES_PER_SECOND])(
    'at %i votes a second, keeps every group and counter item within half its quota',
    (n) => {
      const path = votePathFor(n);
      expect(n / path.groupsPerPoll).toBeLessThanOrEqual(quota('sqsFifoSendsPerGroup') / 2);
      // The writes a vote at that rate brings (the bill's rate), over the counter keys.
      const stack = { consumer: { batchSize: VOTE_QUEUE.batchSize }, votePath: path };
      const rates = voteRates(n, stack, DEFAULT_UNIT_COSTS.billedMs.countVotes);
      expect(rates.counterWritesPerVote).toBeGreaterThan(1 / VOTE_QUEUE.batchSize);
      // Write units, not writes: an item holding many groups' marks takes more than a unit a write.
      const perKey = (n * rates.counterWriteUnitsPerVote) / path.counterShards;
      expect(perKey).toBeLessThanOrEqual(quota('dynamoItemWriteUnits') / 2);
      // The stage throttle is -c apiRateLimit's, not this flag's.
      expect(path.stageRateLimit).toBe(API_THROTTLE.rateLimit);
      // A group's id carries its shard in at most 3 digits; a counter key counts at least one group.
      expect(path.groupsPerPoll).toBeLessThan(1000);
      expect(path.counterShards).toBeLessThanOrEqual(path.groupsPerPoll);
    },
  );

  it('sizes 50,000 votes a second as docs/hot-poll.md says', () => {
    expect(votePathFor(50_000)).toEqual({
      hotPollVotesPerSecond: 50_000,
      groupsPerPoll: 334,
      counterShards: 21,
      stageRateLimit: API_THROTTLE.rateLimit,
      stageBurstLimit: API_THROTTLE.burstLimit,
    });
  });
});

describe('the stage throttle (-c apiRateLimit)', () => {
  it('sets the rate, and a burst of a second of it within the account burst', () => {
    expect(withApiRateLimit(DEFAULT_VOTE_PATH, undefined)).toBe(DEFAULT_VOTE_PATH);
    expect(withApiRateLimit(DEFAULT_VOTE_PATH, 3_000)).toMatchObject({ stageRateLimit: 3_000, stageBurstLimit: 3_000 });
    expect(withApiRateLimit(votePathFor(50_000), 66_000)).toMatchObject({
      groupsPerPoll: 334,
      stageRateLimit: 66_000,
      stageBurstLimit: quota('apiAccountBurst'),
    });
  });
});
