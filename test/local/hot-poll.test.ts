/**
 * A poll sized for a hot one (`npm start -- --hot-poll-votes-per-second 10000`: 67 message groups,
 * 2 counter items) counted exactly once end to end: over HTTP, with the consumer's faults and a
 * redrive, and batch by batch, where a redelivery or a half-applied batch must count nothing twice.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE } from '../../config/app-config';
import { votePathFor } from '../../cost/vote-path';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { CAMPAIGN_RUNTIME, campaign } from '../support/campaign';
import { sqsRecord, voteBody } from '../support/factories';
import { clients } from '../support/local';

const VOTES_PER_SECOND = 10_000;
const SIZE = votePathFor(VOTES_PER_SECOND);

let runtime: LocalRuntime;
let check: ReturnType<typeof campaign>;
beforeAll(async () => {
  runtime = await startLocalRuntime({ ...CAMPAIGN_RUNTIME, hotPollVotesPerSecond: VOTES_PER_SECOND });
  check = campaign(runtime);
});
afterAll(async () => runtime?.stop());

/** A poll's items as stored: its META and its counter items by sort key. */
async function itemsOf(pollId: string): Promise<Record<string, Record<string, any>>> {
  const out = await clients(runtime).dynamo.send(
    new QueryCommand({
      TableName: runtime.resources.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `${TABLE.keys.pollPrefix}${pollId}` },
      ConsistentRead: true,
    }),
  );
  return Object.fromEntries((out.Items ?? []).map((item) => [item.sk as string, item]));
}

describe('a hot poll in the local runtime', () => {
  it('is created with its size, and counts every vote once over its counter items; results are their sum', {
    timeout: 120_000,
  }, async () => {
    expect(SIZE).toMatchObject({ groupsPerPoll: 67, counterShards: 2 });
    const poll = await check.client.createPoll();
    const accepted = await check.castVotes(poll.id, 600, 3);
    await check.expectExactCounts(poll.id, accepted);
    const items = await itemsOf(poll.id);
    expect(Object.keys(items).sort()).toEqual(['COUNTS', 'COUNTS#1', 'META']);
    expect(items.META).toMatchObject({ groups: 67, counterShards: 2 });
    const totals = [items.COUNTS.total, items['COUNTS#1'].total];
    expect(totals.every((n) => n > 0)).toBe(true);
    expect(totals[0] + totals[1]).toBe(600);
    // Each item keeps the marks of its own groups only: group g is counted in item g % 2.
    for (const [sk, k] of [
      ['COUNTS', 0],
      ['COUNTS#1', 1],
    ] as const)
      for (const group of Object.keys(items[sk].applied)) expect(Number(group) % 2).toBe(k);
  });

  it('counts exactly when batches are acknowledged late and invocations crash after their writes', {
    timeout: 180_000,
  }, async () => {
    const poll = await check.client.createPoll();
    await check.withFaults({ failAfterApply: 0.2, crashAfterWrites: 0.2 }, async () => {
      const accepted = await check.castVotes(poll.id, 300, 3);
      await check.expectExactCounts(poll.id, accepted);
    });
  });

  it('counts dead-lettered votes once after a redrive', { timeout: 240_000 }, async () => {
    const poll = await check.client.createPoll();
    const accepted = await check.withFaults({ throttleUpdates: 0.95 }, async () => {
      const cast = await check.castVotes(poll.id, 40, 3);
      await runtime.waitForDrain(180_000);
      return cast;
    });
    await check.expectExactAfterRedrive(poll.id, accepted, 'hot poll, 95% of writes throttled', true);
  });
});

describe('a hot poll’s batches', () => {
  /** Invokes the consumer as Lambda would; returns the ids it reported failed. */
  async function consume(records: SQSRecord[]): Promise<string[]> {
    const invoked = await runtime.invoke('CountVotes', { Records: records });
    expect(invoked.outcome).toBe('ok');
    return invoked.result.batchItemFailures.map((f: { itemIdentifier: string }) => f.itemIdentifier);
  }

  it('count once when a batch over both items is delivered again, whole or after half of it was applied', async () => {
    const poll = await check.client.createPoll();
    // Eight votes in groups 0..3, so in both counter items; sequence numbers rise within each group.
    const records = Array.from({ length: 8 }, (_, i) =>
      sqsRecord(voteBody(poll.id, i % 3, { counter: i % 2 }), {
        groupId: `${poll.id}.${i % 4}`,
        sequenceNumber: String(1000 + i),
      }),
    );
    // The write of item 1 failed: only item 0's votes (groups 0 and 2) were applied.
    expect(await consume(records.filter((_, i) => i % 2 === 0))).toEqual([]);
    // The whole batch comes back, and then again.
    expect(await consume(records)).toEqual([]);
    expect(await consume(records)).toEqual([]);
    const results = (await check.client.results(poll.id)).json;
    expect(results.counts).toEqual([3, 3, 2]);
    expect(results.total).toBe(8);
    const items = await itemsOf(poll.id);
    expect([items.COUNTS.total, items['COUNTS#1'].total]).toEqual([4, 4]);
  });
});
