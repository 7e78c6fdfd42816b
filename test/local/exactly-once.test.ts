/**
 * End to end over HTTP against the local runtime: every vote accepted with a 202
 * is counted exactly once, also when the consumer fails records, crashes after
 * its writes, or meets a poison message.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redrive } from '../../dlq/dead-letters';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { api, clients, pool } from '../support/local';

let runtime: LocalRuntime;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  // Redeliveries after 1 s instead of the deployed 60 s, so fault tests finish quickly.
  runtime = await startLocalRuntime({ visibilityTimeoutSeconds: 1, rateLimits: false, logLevel: 'SILENT' });
  client = api(runtime);
});
afterAll(async () => runtime?.stop());

/** Casts `count` votes with bounded concurrency; returns the accepted (202) count per option. */
async function castVotes(pollId: string, count: number, options: number): Promise<number[]> {
  const accepted = new Array(3).fill(0); // test polls have 3 options; votes go to the first `options`
  await pool(count, 100, async (i) => {
    const res = await client.vote(pollId, i % options);
    if (res.status === 202) accepted[i % options]++;
    else throw new Error(`vote refused: ${res.status} ${res.text}`);
  });
  return accepted;
}

/** Votes of a poll held in the dead-letter queue (kept, not lost: a redrive counts them). */
async function deadLettered(pollId: string): Promise<number[]> {
  const dlqName = runtime.resources.deadLetterQueueUrl.split('/').pop()!;
  const held = new Array(3).fill(0);
  const messages = runtime.queueBodies(dlqName);
  for (const body of messages) {
    try {
      const vote = JSON.parse(body);
      if (vote.pollId === pollId) held[vote.option]++;
    } catch {
      // poison, not a vote
    }
  }
  return held;
}

/** Every accepted vote is counted once, or (after maxReceiveCount failures) kept in the DLQ; never lost, never doubled. */
async function expectConserved(pollId: string, accepted: number[]): Promise<{ counted: number[]; held: number[] }> {
  await runtime.waitForDrain(90_000);
  const results = (await client.results(pollId)).json;
  const held = await deadLettered(pollId);
  expect(results.counts.map((n: number, i: number) => n + held[i])).toEqual(accepted);
  expect(results.total).toBe(results.counts.reduce((a: number, b: number) => a + b, 0));
  return { counted: results.counts, held };
}

async function expectExactCounts(pollId: string, accepted: number[]): Promise<void> {
  const { held } = await expectConserved(pollId, accepted);
  expect(held).toEqual([0, 0, 0]);
}

/**
 * Dead-letters what can be redriven (`npm run dlq -- redrive`) and waits for it to be counted.
 * What stays is what the consumer never saw on a last delivery (SQS moved it untouched): it may
 * have been counted by an earlier delivery whose acknowledgement was lost, so it is left for a
 * person. What holds: the table never counts a vote twice, and no vote is lost.
 */
async function expectExactAfterRedrive(pollId: string, accepted: number[], label: string, exact: boolean): Promise<void> {
  await runtime.waitForDrain(90_000);
  const heldBefore = await deadLettered(pollId);
  const result = await redrive({ sqs: clients(runtime).sqs, voteQueueUrl: runtime.resources.voteQueueUrl, deadLetterQueueUrl: runtime.resources.deadLetterQueueUrl });
  await runtime.waitForDrain(90_000);
  const counted = (await client.results(pollId)).json.counts as number[];
  const held = await deadLettered(pollId);
  const kept = result.kept.filter((j) => j.vote?.pollId === pollId).map((j) => j.verdict);
  console.log(`${label}: accepted ${accepted}, dead-lettered ${heldBefore}, after the redrive counted ${counted} and left ${held} (${kept.length} ${[...new Set(kept)].join('/') || 'letters'})`);
  expect(kept.filter((verdict) => verdict !== 'unknown')).toEqual([]);
  if (exact) {
    expect(heldBefore.some((n) => n > 0), 'the faults should have dead-lettered some votes').toBe(true);
    expect(counted).toEqual(accepted);
    expect(held).toEqual([0, 0, 0]);
  }
  counted.forEach((n, i) => {
    expect(n).toBeLessThanOrEqual(accepted[i]);
    expect(n + held[i]).toBeGreaterThanOrEqual(accepted[i]);
  });
}

describe('exactly once, end to end', () => {
  it('counts 1,000 concurrent votes exactly', async () => {
    const poll = await client.createPoll();
    const accepted = await castVotes(poll.id, 1000, 3);
    await expectExactCounts(poll.id, accepted);
  });

  // Before-apply failures may dead-letter records (never applied): counted + held = accepted.
  // Post-write faults are transient, so those runs must be exact with nothing dead-lettered.
  // The last rows redrive the dead-letter queue, which must leave every vote counted once.
  it.each([
    ['the consumer fails 20% of records before applying them', { failBeforeApply: 0.2 }, 500, 3, 'conserved'],
    ['20% of records are reported failed after they were applied', { failAfterApply: 0.2 }, 500, 3, 'exact'],
    ['invocations crash after their writes and whole batches come back', { crashAfterWrites: 0.3 }, 300, 2, 'exact'],
    ['30% of counter writes are throttled (beyond the SDK’s own retries)', { throttleUpdates: 0.3 }, 300, 3, 'conserved'],
    [
      // 95% throttled: a write fails all 4 SDK attempts 81% of the time, so a batch fails all 3 deliveries about half the time.
      'the consumer’s own faults: 95% of counter writes throttled, 20% of acknowledgements lost, 10% of invocations crashing',
      { throttleUpdates: 0.95, failAfterApply: 0.2, crashAfterWrites: 0.1 },
      60,
      3,
      'exact after redrive',
    ],
    [
      'every fault at once: failures before and after applying, crashes after writes, throttled writes',
      { failBeforeApply: 0.1, failAfterApply: 0.1, crashAfterWrites: 0.1, throttleUpdates: 0.1 },
      400,
      3,
      'bounded after redrive',
    ],
  ] as const)('keeps every vote when %s', { timeout: 240_000 }, async (label, faults, votes, options, check) => {
    const poll = await client.createPoll();
    Object.assign(runtime.faults, faults);
    let faultsOn = true;
    const faultsOff = () => {
      for (const key of Object.keys(faults)) delete runtime.faults[key as keyof typeof faults];
      faultsOn = false;
    };
    try {
      const accepted = await castVotes(poll.id, votes, options);
      if (check === 'exact') return await expectExactCounts(poll.id, accepted);
      if (check === 'conserved') {
        const { counted, held } = await expectConserved(poll.id, accepted);
        return console.log(`${label}: accepted ${accepted}, counted ${counted}, dead-lettered ${held}`);
      }
      // Faults end with the incident; the redrive runs after it.
      await runtime.waitForDrain(180_000);
      faultsOff();
      await expectExactAfterRedrive(poll.id, accepted, label, check === 'exact after redrive');
    } finally {
      if (faultsOn) faultsOff();
    }
  });

  it('moves a poison message to the dead-letter queue, where the alarm sees it, and keeps counting the rest', async () => {
    const poll = await client.createPoll();
    const { sqs } = clients(runtime);
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: runtime.resources.voteQueueUrl,
        MessageBody: '{"this is": "not a vote"}',
        MessageGroupId: `${poll.id}.0`,
        MessageDeduplicationId: 'poison-1',
      }),
    );
    const dlqName = runtime.resources.deadLetterQueueUrl.split('/').pop()!;
    const dlqBefore = runtime.queueDepths()[dlqName];
    const accepted = await castVotes(poll.id, 40, 3);
    await expectExactCounts(poll.id, accepted);
    // The DLQ alarm fires on ApproximateNumberOfMessagesVisible > 0 of this queue.
    expect(runtime.queueDepths()[dlqName]).toBe(dlqBefore + 1);
    expect(runtime.queueBodies(dlqName)).toContain('{"this is": "not a vote"}');
  });

  it('meters what AWS would bill for the votes', async () => {
    const usage = runtime.usage();
    expect(usage.functions.CastVote.invocations).toBeGreaterThanOrEqual(2340);
    expect(usage.functions.CountVotes.billedMs).toBeGreaterThan(0);
    const table = usage.tables[runtime.resources.tableName];
    expect(table.writeUnits).toBeGreaterThan(0);
    expect(table.readUnits).toBeGreaterThan(0);
    const queue = usage.queues[runtime.resources.voteQueueUrl.split('/').pop()!];
    expect(queue.messagesSent).toBeGreaterThanOrEqual(2341);
    expect(queue.requests.ReceiveMessage).toBeGreaterThan(0);
    expect(usage.api.bytesOut).toBeGreaterThan(0);
    const served = await fetch(`${runtime.url}/_local/usage`).then((r) => r.json());
    expect(served.functions.CastVote.invocations).toBe(usage.functions.CastVote.invocations);
  });
});
