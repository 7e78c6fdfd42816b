/**
 * AWS's limits at scale (local/aws-limits.ts), with a held clock: each bucket's rate is the quota
 * sheet's or the template's value times the scale, and the capacity model's ceiling for a poll
 * (cost/estimate/capacity.ts pollCeiling) reads the same values, so changing one changes both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pollCeiling } from '../../../cost/estimate/capacity';
import { DEFAULT_UNIT_COSTS } from '../../../cost/usage/unit-costs';
import { AwsLimitsError, awsLimits, BURST_SECONDS, parseAwsLimitsScale, TokenBucket } from '../../../local/aws-limits';
import { HOT_POLL } from '../../../load-tests/hot-poll';
import { designStack, restoreQuotas, setQuota } from '../../support/cost';
import { quota } from '../../../sizing/quotas';

const SCALE = 0.01;
const defaultStack = designStack();
// A stage above the account's throttle (20,000 against 10,000), which AWS caps at the account's; counter keys
// enough for a vote a write at the runtime's rate (batches do not fill at a hundredth of the votes).
const sized = designStack({ hotPollVotesPerSecond: '10000', apiRateLimit: '20000' });

/** A clock the test moves. */
function heldClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** How many of `n` tries `take` admits, without the clock moving. */
const admitted = (n: number, take: () => unknown) => Array.from({ length: n }, take).filter((r) => !r).length;

// Quotas changed by a test (setQuota), put back after it.
afterEach(restoreQuotas);

describe('a token bucket', () => {
  it('starts full, refuses past its burst, and refills at its rate', () => {
    const clock = heldClock();
    const bucket = new TokenBucket(10, 5, clock.now);
    expect(admitted(8, () => !bucket.take())).toBe(5);
    clock.advance(100);
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    clock.advance(10_000);
    expect(admitted(8, () => !bucket.take())).toBe(5);
  });
});

describe('the limits at a scale', () => {
  it("refuse at the front door past the stage's throttle (default stack) or the account's (sized stack)", () => {
    const stageRate = defaultStack.votePath.stageRateLimit * SCALE;
    const limits = awsLimits(defaultStack, SCALE, heldClock().now);
    expect(admitted(100, () => limits.frontDoor())).toBe(stageRate * BURST_SECONDS);
    expect(limits.refused['api-stage']).toBe(100 - stageRate * BURST_SECONDS);
    const accountRate = quota('apiAccountRequestsPerSecond') * SCALE;
    const hot = awsLimits(sized, SCALE, heldClock().now);
    expect(admitted(1000, () => hot.frontDoor())).toBe(accountRate * BURST_SECONDS);
    expect(hot.refused).toEqual({ 'api-account': 1000 - accountRate * BURST_SECONDS });
  });

  it('refuse sends past a message group’s rate, each group on its own', () => {
    const perGroup = quota('sqsFifoSendsPerGroup') * SCALE;
    const limits = awsLimits(defaultStack, SCALE, heldClock().now);
    expect(admitted(10, () => limits.send('votes.fifo', 'p#0'))).toBe(perGroup);
    expect(limits.send('votes.fifo', 'p#1')).toBeUndefined();
    expect(limits.refused['sqs-group']).toBe(10 - perGroup);
  });

  it("hold Lambda's account concurrency in flight until an invocation ends", () => {
    const concurrency = quota('lambdaAccountConcurrency') * SCALE;
    const limits = awsLimits(defaultStack, SCALE, heldClock().now);
    const running = Array.from({ length: concurrency }, () => limits.invoke({ name: 'CastVote' }));
    expect(running.every((r) => typeof r === 'function')).toBe(true);
    expect(limits.invoke({ name: 'GetPoll' })).toBe('lambda-concurrency');
    (running[0] as () => void)();
    expect(typeof limits.invoke({ name: 'GetPoll' })).toBe('function');
  });

  it("refuse an item's writes past its rate, other items unaffected; reads cost half a unit", () => {
    const writes = quota('dynamoItemWriteUnits') * SCALE;
    const limits = awsLimits(defaultStack, SCALE, heldClock().now);
    expect(admitted(30, () => limits.itemCall('write', 'poll#1/COUNTS', 1))).toBe(writes);
    expect(limits.itemCall('write', 'poll#1/COUNTS#1', 1)).toBeUndefined();
    const reads = quota('dynamoItemReadUnits') * SCALE;
    expect(admitted(200, () => limits.itemCall('read', 'poll#1/META', 0.5))).toBe(reads * 2);
  });

  it('follow the quota sheet: a changed quota changes the limit and the predicted ceiling alike', () => {
    const before = pollCeiling(sized, DEFAULT_UNIT_COSTS, HOT_POLL.traffic, SCALE);
    setQuota('apiAccountRequestsPerSecond', 8_000);
    const limits = awsLimits(sized, SCALE, heldClock().now);
    expect(admitted(1000, () => limits.frontDoor())).toBe(8_000 * SCALE * BURST_SECONDS);
    const after = pollCeiling(sized, DEFAULT_UNIT_COSTS, HOT_POLL.traffic, SCALE);
    expect(after.votesPerSecond).toBeCloseTo(before.votesPerSecond * 0.8);
  });
});

describe('the scale', () => {
  it('is a number in (0, 1]', () => {
    expect(parseAwsLimitsScale('0.01')).toBe(0.01);
    expect(parseAwsLimitsScale('1')).toBe(1);
    for (const bad of ['0', '-0.1', '1.5', 'abc', '', undefined])
      expect(() => parseAwsLimitsScale(bad)).toThrow(AwsLimitsError);
  });
});

describe("one poll's ceiling (pollCeiling)", () => {
  const ceiling = (stack = defaultStack, scale = SCALE) =>
    pollCeiling(stack, DEFAULT_UNIT_COSTS, HOT_POLL.traffic, scale);

  it("is the stage throttle's for the default stack: 4 requests a vote (read, preflight, vote, results)", () => {
    expect(ceiling()).toMatchObject({ bottleneck: 'apiStageThrottle' });
    expect(ceiling().votesPerSecond).toBeCloseTo((defaultStack.votePath.stageRateLimit * SCALE) / 4);
    expect(ceiling(defaultStack, 1).votesPerSecond).toBeCloseTo(ceiling().votesPerSecond / SCALE);
  });

  it("moves to the account's throttle when -c apiRateLimit sets the stage past it", () => {
    expect(ceiling(sized).bottleneck).toBe('apiAccountRequestsPerSecond');
    expect(ceiling(sized).votesPerSecond).toBeCloseTo((quota('apiAccountRequestsPerSecond') * SCALE) / 4);
  });

  it("changes with the template's message groups when they bind", () => {
    const fewGroups = { ...sized, votePath: { ...sized.votePath, groupsPerPoll: 2 } };
    expect(ceiling(fewGroups)).toMatchObject({ bottleneck: 'hotPollGroups' });
    expect(ceiling(fewGroups).votesPerSecond).toBeCloseTo(2 * quota('sqsFifoSendsPerGroup') * SCALE);
  });
});
