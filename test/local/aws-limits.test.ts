/**
 * The local runtime with AWS's limits at scale (`npm start -- --aws-limits 0.01`): API Gateway's
 * 429 past the stage's throttle, SQS's ThrottlingException past a message group's sends (the vote
 * function's 503 on it: test/handlers), every accepted vote counted once whatever was refused; and
 * without the flag, no limit.
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorClientConfig } from '../../local/endpoints';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { CAMPAIGN_RUNTIME } from '../support/campaign';
import { api } from '../support/local';
import { quota } from '../../sizing/quotas';

const SCALE = 0.01;
const NO_POLL = `/api/poll/${'0'.repeat(21)}/results`;

/**
 * The limited runtime's clock (ms): standing still where a test counts refusals, so its buckets refill only when
 * the test moves it, whatever the machine's pace; the real one (undefined) while votes drain.
 */
let clock: number | undefined = 0;
let limited: LocalRuntime;
let unlimited: LocalRuntime;
beforeAll(async () => {
  limited = await startLocalRuntime({
    ...CAMPAIGN_RUNTIME,
    awsLimits: SCALE,
    awsLimitsClock: () => clock ?? Date.now(),
  });
  unlimited = await startLocalRuntime(CAMPAIGN_RUNTIME);
});
afterAll(async () => Promise.all([limited?.stop(), unlimited?.stop()]));

/** `n` requests at once; their statuses. */
const burst = (runtime: LocalRuntime, n: number) =>
  Promise.all(Array.from({ length: n }, () => api(runtime).call('GET', NO_POLL)));

describe('the local runtime with --aws-limits', () => {
  it("answers API Gateway's 429 past the stage's throttle, counted by limit", async () => {
    const before = limited.usage().awsLimits!.refused['api-stage'] ?? 0;
    const answers = await burst(limited, 80);
    const throttled = answers.filter((a) => a.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    expect(throttled[0].json).toEqual({ message: 'Too Many Requests' });
    expect(limited.usage().awsLimits!.refused['api-stage']! - before).toBe(throttled.length);
  });

  it('counts every accepted vote once and nothing else, whatever the limits refused', {
    timeout: 120_000,
  }, async () => {
    const client = api(limited);
    clock = 1e6;
    let poll: { id: string } | undefined;
    for (let tries = 0; !poll && tries < 10; tries++, clock += 1000)
      poll = await client.createPoll().catch(() => undefined);
    if (!poll) throw new Error('No poll was created in 10 tries, a second apart on the limits’ clock');
    const accepted = [0, 0, 0];
    const statuses: Record<number, number> = {};
    // Waves of 8, a second apart on the limits' clock: within the account's concurrency and the stage's refill,
    // past the message groups' rate.
    for (let wave = 0; wave < 10; wave++) {
      clock! += 1000;
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => client.vote(poll!.id, i % 3)));
      answers.forEach((a, i) => {
        statuses[a.status] = (statuses[a.status] ?? 0) + 1;
        if (a.status === 202) accepted[i % 3]++;
      });
    }
    expect(statuses[202]).toBeGreaterThan(0);
    clock = undefined;
    await limited.waitForDrain(90_000);
    let results = await client.results(poll.id);
    while (results.status !== 200) results = await client.results(poll.id);
    expect(results.json.counts).toEqual(accepted);
    // Every other answer is a limit's: API Gateway's 429, a throttled Lambda's 500, a refused send's 503.
    expect(Object.keys(statuses).filter((s) => !['202', '429', '500', '503'].includes(s))).toEqual([]);
  });

  it("refuses a message group's sends past its rate with SQS's ThrottlingException, each counted", async () => {
    // Straight to the endpoint, one try each: the send the vote function's SDK would retry, then answer 503.
    const sqs = new SQSClient({ ...emulatorClientConfig(limited.resources.sqsEndpoint), maxAttempts: 1 });
    clock = Date.now();
    const before = limited.usage().awsLimits!.refused['sqs-group'] ?? 0;
    const perGroup = quota('sqsFifoSendsPerGroup') * SCALE;
    // Far more than a group's burst, sent while the limits' clock stands still.
    const sends = 20 + Math.ceil(perGroup * 10);
    let throttled = 0;
    for (let i = 0; i < sends; i++) {
      const send = new SendMessageCommand({
        // The dead-letter queue: FIFO and limited alike, and no consumer takes these.
        QueueUrl: limited.resources.deadLetterQueueUrl,
        MessageBody: `{"n":${i}}`,
        MessageGroupId: 'one-group',
        MessageDeduplicationId: `send-${i}`,
      });
      await sqs.send(send).catch((error: Error) => {
        expect(error.name).toBe('ThrottlingException');
        throttled++;
      });
    }
    expect(throttled).toBeGreaterThan(0);
    expect(limited.usage().awsLimits!.refused['sqs-group']! - before).toBe(throttled);
  });
});

describe('the local runtime without --aws-limits', () => {
  it('refuses nothing and reports no limits', async () => {
    const answers = await burst(unlimited, 80);
    expect(answers.every((a) => a.status === 404)).toBe(true);
    expect(unlimited.usage().awsLimits).toBeUndefined();
  });
});
