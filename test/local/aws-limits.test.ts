/**
 * The local runtime with AWS's limits at scale (`npm start -- --aws-limits 0.01`): API Gateway's
 * 429 past the stage's throttle, votes refused by SQS's sends per group answered 503 and never
 * counted, throttled counter writes retried and counted once; and without the flag, no limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { CAMPAIGN_RUNTIME } from '../support/campaign';
import { api } from '../support/local';

const SCALE = 0.01;
const NO_POLL = `/api/poll/${'0'.repeat(21)}/results`;

let limited: LocalRuntime;
let unlimited: LocalRuntime;
beforeAll(async () => {
  limited = await startLocalRuntime({ ...CAMPAIGN_RUNTIME, awsLimits: SCALE });
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
    let poll: { id: string } | undefined;
    while (!poll) poll = await client.createPoll().catch(() => undefined);
    const accepted = [0, 0, 0];
    const statuses: Record<number, number> = {};
    // Waves of 8: within the account's concurrency, past the stage's and the groups' rates.
    for (let wave = 0; wave < 10; wave++) {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => client.vote(poll!.id, i % 3)));
      answers.forEach((a, i) => {
        statuses[a.status] = (statuses[a.status] ?? 0) + 1;
        if (a.status === 202) accepted[i % 3]++;
      });
    }
    expect(statuses[202]).toBeGreaterThan(0);
    await limited.waitForDrain(90_000);
    let results = await client.results(poll.id);
    while (results.status !== 200) results = await client.results(poll.id);
    expect(results.json.counts).toEqual(accepted);
    const refused = limited.usage().awsLimits!.refused;
    // A 503 is a send SQS refused: the vote function answers it, and nothing of it is counted.
    if (statuses[503]) expect(refused['sqs-group']).toBeGreaterThan(0);
  });
});

describe('the local runtime without --aws-limits', () => {
  it('refuses nothing and reports no limits', async () => {
    const answers = await burst(unlimited, 80);
    expect(answers.every((a) => a.status === 404)).toBe(true);
    expect(unlimited.usage().awsLimits).toBeUndefined();
  });
});
