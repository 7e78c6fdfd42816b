/** The vote path's size from the flag: bounds, the default, and what each size carries. */
import { describe, expect, it } from 'vitest';
import { API_THROTTLE, VOTE_QUEUE } from '../../config/app-config';
import { quota } from '../../cost/quotas';
import {
  DEFAULT_VOTE_PATH,
  MAX_HOT_POLL_VOTES_PER_SECOND,
  parseHotPollVotesPerSecond,
  votePathFor,
} from '../../cost/vote-path';

describe('parseHotPollVotesPerSecond', () => {
  it.each([undefined, null, '', 'off'])('reads %j as no flag', (value) => {
    expect(parseHotPollVotesPerSecond(value)).toBeUndefined();
  });
  it.each([
    ['1', 1],
    [50_000, 50_000],
    [String(MAX_HOT_POLL_VOTES_PER_SECOND), MAX_HOT_POLL_VOTES_PER_SECOND],
  ])('accepts %j', (value, expected) => {
    expect(parseHotPollVotesPerSecond(value)).toBe(expected);
  });
  it.each(['0', '-5', '1.5', 'lots', String(MAX_HOT_POLL_VOTES_PER_SECOND + 1), '1000000'])(
    'refuses %j with the valid range named',
    (value) => {
      expect(() => parseHotPollVotesPerSecond(value)).toThrow(/from 1 to 70,000 .*or off/);
    },
  );
});

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
      const writesPerItem = n / quota('fifoEventSourceBatchSize') / path.counterShards;
      expect(writesPerItem).toBeLessThanOrEqual(quota('dynamoItemWriteUnits') / 2);
      expect(path.stageRateLimit).toBeGreaterThanOrEqual(n);
      expect(path.stageBurstLimit).toBeLessThanOrEqual(quota('apiAccountBurst'));
      // A group's id carries its shard in at most 3 digits, and a poll's items fit one BatchWriteItem.
      expect(path.groupsPerPoll).toBeLessThan(1000);
      expect(path.counterShards + 1).toBeLessThanOrEqual(25);
    },
  );

  it('sizes 50,000 votes a second as docs/hot-poll.md says', () => {
    expect(votePathFor(50_000)).toEqual({
      hotPollVotesPerSecond: 50_000,
      groupsPerPoll: 334,
      counterShards: 10,
      stageRateLimit: 150_000,
      stageBurstLimit: 5_000,
    });
  });
});
