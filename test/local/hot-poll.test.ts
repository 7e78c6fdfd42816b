/**
 * A poll sized for a hot one (`npm start -- --hot-poll-votes-per-second 20000`: 3 or more counter
 * items) counted exactly once end to end: over HTTP, with the consumer's faults and a redrive, and
 * batch by batch, where a redelivery or a half-applied batch must count nothing twice. Its counter
 * items are each on a partition key of its own; a sized poll created before that layout (its items
 * under the poll's key) is still counted and read exactly.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE } from '../../config/table';
import { newId } from '../../domain/ids';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { CAMPAIGN_RUNTIME, campaign } from '../support/campaign';
import { sqsRecord, voteBody } from '../support/factories';
import { clients, scanTable } from '../support/local';
import { votePathFor } from '../../sizing/vote-path';

const VOTES_PER_SECOND = 20_000;
const SIZE = votePathFor(VOTES_PER_SECOND);
const { pollPrefix, pollSort, countsSort } = TABLE.keys;

let runtime: LocalRuntime;
let check: ReturnType<typeof campaign>;
beforeAll(async () => {
  runtime = await startLocalRuntime({ ...CAMPAIGN_RUNTIME, hotPollVotesPerSecond: VOTES_PER_SECOND });
  check = campaign(runtime);
});
afterAll(async () => runtime?.stop());

/** A poll's items as stored, read from the table: its META and its counter items, wherever their keys are. */
async function itemsOf(pollId: string) {
  const pk = `${pollPrefix}${pollId}`;
  const items = (await scanTable(runtime)).filter(
    (item) => item.pk === pk || (item.pk as string).startsWith(`${pk}#`),
  ) as Array<Record<string, any>>;
  const counters = items.filter((item) => (item.sk as string).startsWith(countsSort));
  return { meta: items.find((item) => item.pk === pk && item.sk === pollSort)!, counters };
}

const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);

/**
 * A sized poll as the code before counter layouts wrote it: META with its size (12 groups, 3
 * counter items) and no layout, its counter items at COUNTS and COUNTS#k under its key. Its id.
 */
async function pollMadeBeforeLayouts(): Promise<string> {
  const id = newId();
  const pk = `${pollPrefix}${id}`;
  const now = Math.floor(Date.now() / 1000);
  const [closesAt, expiresAt] = [now + 3600, now + 3600 + TABLE.retainAfterCloseSeconds];
  const [options, shards, updatedAt] = [['A', 'B', 'C'], 3, new Date().toISOString()];
  const put = (Item: Record<string, unknown>) =>
    clients(runtime).dynamo.send(new PutCommand({ TableName: runtime.resources.tableName, Item }));
  for (let k = 0; k < shards; k++) {
    const sk = k === 0 ? countsSort : `${countsSort}#${k}`;
    const votes = { 0: 0, 1: 0, 2: 0 };
    await put({ pk, sk, votes, total: 0, optionCount: 3, updatedAt, closesAt, expiresAt, applied: {} });
  }
  await put({
    ...{ pk, sk: pollSort, id, title: 'Made before layouts', options, oneVotePerVoter: false },
    ...{ createdAt: updatedAt, closesAt, expiresAt, voterSalt: newId(32), groups: 12, counterShards: shards },
  });
  return id;
}

/** What the results function has asked of the table so far: requests by action, and read units. */
function resultsReads() {
  const table = runtime.usage().tables[runtime.resources.tableName];
  const fn = Object.keys(table.byFunction).find((name) => name.startsWith('GetResults'))!;
  return {
    query: table.requests.Query ?? 0,
    batchGet: table.requests.BatchGetItem ?? 0,
    units: table.byFunction[fn].readUnits,
  };
}

describe('a hot poll in the local runtime', () => {
  it('keeps each counter item on a partition key of its own, counts every vote once, results their sum', {
    timeout: 120_000,
  }, async () => {
    const n = SIZE.counterShards;
    expect(n).toBeGreaterThanOrEqual(3);
    const poll = await check.client.createPoll();
    const votes = 300;
    const accepted = await check.castVotes(poll.id, votes, 3);
    expect(sum(accepted)).toBe(votes);
    await check.expectExactCounts(poll.id, accepted);

    const { meta, counters } = await itemsOf(poll.id);
    expect(meta).toMatchObject({ groups: SIZE.groupsPerPoll, counterShards: n, counterLayout: 'partition-keys' });
    const pk = `${pollPrefix}${poll.id}`;
    expect(counters.map((item) => item.pk).sort()).toEqual(
      [pk, ...Array.from({ length: n - 1 }, (_, i) => `${pk}#${i + 1}`)].sort(),
    );
    expect(new Set(counters.map((item) => item.pk)).size).toBe(n);
    expect(counters.every((item) => item.sk === countsSort)).toBe(true);
    // Item 0 tells the results how many items to read.
    expect(counters.find((item) => item.pk === pk)!.counterKeys).toBe(n);
    expect(counters.every((item) => item.total > 0)).toBe(true);
    expect(sum(counters.map((item) => item.total))).toBe(sum(accepted));
    // Each item keeps the marks of its own groups only: group g is counted in item g % n.
    for (const item of counters) {
      const k = item.pk === pk ? 0 : Number(item.pk.slice(pk.length + 1));
      for (const group of Object.keys(item.applied)) expect(Number(group) % n).toBe(k);
    }

    // The results function knows the poll's size by now: each read is one BatchGetItem of its n
    // items, half a read unit each (eventually consistent, under 4 KB), and no Query.
    const before = resultsReads();
    for (let i = 0; i < 2; i++) expect((await check.client.results(poll.id)).json.total).toBe(votes);
    const after = resultsReads();
    expect([after.query - before.query, after.batchGet - before.batchGet]).toEqual([0, 2]);
    expect(after.units - before.units).toBe(2 * n * 0.5);
  });

  it('counts a sized poll created before that layout (items under its own key) exactly, with redeliveries', {
    timeout: 180_000,
  }, async () => {
    const id = await pollMadeBeforeLayouts();
    const accepted = await check.withFaults({ failAfterApply: 0.2, crashAfterWrites: 0.2 }, () =>
      check.castVotes(id, 300, 3),
    );
    await check.expectExactCounts(id, accepted);
    const { counters } = await itemsOf(id);
    const pk = `${pollPrefix}${id}`;
    expect(counters.map((item) => [item.pk, item.sk]).sort()).toEqual(
      [countsSort, `${countsSort}#1`, `${countsSort}#2`].map((sk) => [pk, sk]),
    );
    expect(counters.every((item) => item.total > 0)).toBe(true);
    expect(sum(counters.map((item) => item.total))).toBe(300);
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

  it.each([
    ['created now', async () => (await check.client.createPoll()).id],
    ['created before layouts', pollMadeBeforeLayouts],
  ])('counts dead-lettered votes of a poll %s once after a redrive', { timeout: 240_000 }, async (made, create) => {
    const id = await create();
    const accepted = await check.withFaults({ throttleUpdates: 0.95 }, async () => {
      const cast = await check.castVotes(id, 40, 3);
      await runtime.waitForDrain(180_000);
      return cast;
    });
    await check.expectExactAfterRedrive(id, accepted, `hot poll ${made}, 95% of writes throttled`, true);
  });
});

describe('a hot poll’s batches', () => {
  /** Invokes the consumer as Lambda would; returns the ids it reported failed. */
  async function consume(records: SQSRecord[]): Promise<string[]> {
    const invoked = await runtime.invoke('CountVotes', { Records: records });
    expect(invoked.outcome).toBe('ok');
    return invoked.result.batchItemFailures.map((f: { itemIdentifier: string }) => f.itemIdentifier);
  }

  it('count once when a batch over two items is delivered again, whole or after half of it was applied', async () => {
    const poll = await check.client.createPoll();
    // Eight votes in groups 0..3, counted in items 0 and 1; sequence numbers rise within each group.
    const item = (i: number) => (i % 2 === 0 ? {} : { counter: 1, counterLayout: 'partition-keys' as const });
    const records = Array.from({ length: 8 }, (_, i) =>
      sqsRecord(voteBody(poll.id, i % 3, item(i)), {
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
    const pk = `${pollPrefix}${poll.id}`;
    const totals = Object.fromEntries((await itemsOf(poll.id)).counters.map((c) => [c.pk, c.total]));
    expect([totals[pk], totals[`${pk}#1`]]).toEqual([4, 4]);
  });
});
