/**
 * The handlers against real emulated DynamoDB and SQS (dynalite, fauxqs), over
 * the AWS SDK: the API round trip, carpooled counting, exactly-once on
 * redelivery, and bad input that must change nothing.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL_LIMITS } from '../../config/api-contract';
import { PollTable } from '../../lambdas/adapters/poll-table';
import { emulatorClientConfig } from '../../local/endpoints';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { voteRecord } from '../support/factories';
import { api, clients, scanTable } from '../support/local';

let runtime: LocalRuntime;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  // Throttled writes and malformed records are logged as errors: here they are cases under test, asserted by outcome.
  runtime = await startLocalRuntime({ rateLimits: false, logLevel: 'SILENT' });
  client = api(runtime);
});
afterAll(async () => runtime?.stop());

describe('the API round trip', () => {
  it('creates, reads, votes and counts', async () => {
    const poll = await client.createPoll({ title: 'Tabs or spaces?', options: ['Tabs', 'Spaces'] });
    const read = await client.call('GET', `/api/poll/${poll.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({
      id: poll.id,
      title: 'Tabs or spaces?',
      options: ['Tabs', 'Spaces'],
      closed: false,
    });
    expect(read.json).not.toHaveProperty('voterSalt');
    const options = await client.call('GET', `/api/poll/${poll.id}/options`);
    expect(options.json).toEqual({ id: poll.id, options: ['Tabs', 'Spaces'] });

    const votes = await Promise.all([0, 1, 1].map((option) => client.vote(poll.id, option)));
    expect(votes.map((v) => v.status)).toEqual([202, 202, 202]);
    expect(votes[0].json).toMatchObject({ pollId: poll.id, option: 0, voteId: expect.any(String) });
    await runtime.waitForDrain();

    const results = await client.results(poll.id);
    expect(results.status).toBe(200);
    expect(results.json).toMatchObject({ id: poll.id, counts: [1, 2], total: 3, closed: false });
    expect(results.headers.get('cache-control')).toMatch(/max-age=\d+/);
  });

  it('answers 409 to a second vote from the same voter when the poll asks for one vote each', async () => {
    const poll = await client.createPoll({ oneVotePerVoter: true });
    expect((await client.vote(poll.id, 0)).status).toBe(202);
    const second = await client.vote(poll.id, 1);
    expect(second.status).toBe(409);
    expect(second.json.error.code).toBe('already_voted');
    await runtime.waitForDrain();
    expect((await client.results(poll.id)).json.counts).toEqual([1, 0, 0]);
  });

  it('keeps the ballot in a voter claim: its retry is its own, another is refused, only it releases', async () => {
    const table = new PollTable(
      runtime.resources.tableName,
      new DynamoDBClient(emulatorClientConfig(runtime.resources.dynamoEndpoint)),
    );
    const [poll, expires] = ['claimspoll00000000000', Math.floor(Date.now() / 1000) + 3600];
    expect(await table.claimVoter(poll, 'voter-a', expires, 'ballot-1')).toBe('claimed');
    expect(await table.claimVoter(poll, 'voter-a', expires, 'ballot-1')).toBe('retried');
    expect(await table.claimVoter(poll, 'voter-a', expires, 'ballot-2')).toBe('taken');
    expect(await table.claimVoter(poll, 'voter-a', expires)).toBe('taken');
    await table.releaseVoter(poll, 'voter-a', 'ballot-2'); // not its claim: stays
    expect(await table.claimVoter(poll, 'voter-a', expires, 'ballot-2')).toBe('taken');
    await table.releaseVoter(poll, 'voter-a', 'ballot-1');
    expect(await table.claimVoter(poll, 'voter-a', expires, 'ballot-2')).toBe('claimed');
    // Without a key, as before: one claim, no retry.
    expect(await table.claimVoter(poll, 'voter-b', expires)).toBe('claimed');
    expect(await table.claimVoter(poll, 'voter-b', expires)).toBe('taken');
  });

  it('treats a poll past its expiry as gone even while DynamoDB has not deleted it yet', async () => {
    const { dynamo } = clients(runtime);
    const id = 'expiredpoll0000000000';
    const past = Math.floor(Date.now() / 1000) - 60;
    const poll = {
      id,
      title: 'Old',
      options: ['a', 'b'],
      oneVotePerVoter: false,
      createdAt: 'x',
      closesAt: past - 60,
      expiresAt: past,
      voterSalt: 's',
    };
    await dynamo.send(
      new PutCommand({ TableName: runtime.resources.tableName, Item: { pk: `POLL#${id}`, sk: 'META', ...poll } }),
    );
    await dynamo.send(
      new PutCommand({
        TableName: runtime.resources.tableName,
        Item: {
          pk: `POLL#${id}`,
          sk: 'COUNTS',
          votes: { 0: 1, 1: 0 },
          total: 1,
          optionCount: 2,
          updatedAt: 'x',
          closesAt: past - 60,
          expiresAt: past,
          applied: {},
        },
      }),
    );
    for (const path of [`/api/poll/${id}`, `/api/poll/${id}/options`, `/api/poll/${id}/results`]) {
      const res = await client.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.json.error.code).toBe('poll_not_found');
    }
    expect((await client.vote(id, 0)).status).toBe(404);
  });

  it('refuses votes on a closed poll with 410', async () => {
    const { dynamo } = clients(runtime);
    const id = 'closedpoll00000000000';
    const now = Math.floor(Date.now() / 1000);
    await dynamo.send(
      new PutCommand({
        TableName: runtime.resources.tableName,
        Item: {
          pk: `POLL#${id}`,
          sk: 'META',
          id,
          title: 'Closed',
          options: ['a', 'b'],
          oneVotePerVoter: false,
          createdAt: 'x',
          closesAt: now - 1,
          expiresAt: now + 3600,
          voterSalt: 's',
        },
      }),
    );
    const res = await client.vote(id, 0);
    expect(res.status).toBe(410);
    expect(res.json.error.code).toBe('poll_closed');
  });
});

const updateItems = () => runtime.usage().tables[runtime.resources.tableName]?.requests.UpdateItem ?? 0;

describe('the consumer', () => {
  it('writes each poll once per batch: 1,000 votes across 3 polls make 3 counter writes', async () => {
    const polls = await Promise.all([0, 1, 2].map(() => client.createPoll()));
    const records = Array.from({ length: 1000 }, (_, i) => voteRecord(polls[i % 3].id, i % 2, { shard: i % 4 }));
    const before = updateItems();
    const out = await runtime.invoke('CountVotes', { Records: records });
    expect(out.outcome).toBe('ok');
    expect(out.result).toEqual({ batchItemFailures: [] });
    expect(updateItems() - before).toBe(3);
    const totals = await Promise.all(polls.map(async (p) => (await client.results(p.id)).json));
    expect(totals.map((r) => r.total)).toEqual([334, 333, 333]);
    expect(totals[0].counts).toEqual([167, 167, 0]);
  });

  it('counts a redelivered batch once, also when it comes back mixed with new votes', async () => {
    const poll = await client.createPoll();
    const first = [
      voteRecord(poll.id, 0, { shard: 0 }),
      voteRecord(poll.id, 1, { shard: 0 }),
      voteRecord(poll.id, 2, { shard: 1 }),
    ];
    expect((await runtime.invoke('CountVotes', { Records: first })).result).toEqual({ batchItemFailures: [] });
    // A crash after the write: the same batch again.
    expect((await runtime.invoke('CountVotes', { Records: first })).result).toEqual({ batchItemFailures: [] });
    // Redelivered with the group's next votes behind it.
    const next = [voteRecord(poll.id, 2, { shard: 0 }), voteRecord(poll.id, 2, { shard: 1 })];
    expect((await runtime.invoke('CountVotes', { Records: [...first, ...next] })).result).toEqual({
      batchItemFailures: [],
    });
    expect((await client.results(poll.id)).json).toMatchObject({ counts: [1, 1, 3], total: 5 });
  });

  it('retries only the poll whose write failed, and then counts it once', async () => {
    const [a, b] = await Promise.all([client.createPoll(), client.createPoll()]);
    const recordsA = [voteRecord(a.id, 0), voteRecord(a.id, 1)];
    const recordsB = [voteRecord(b.id, 2), voteRecord(b.id, 2)];
    // Every UpdateItem for poll B is throttled (beyond the SDK's own retries); poll A goes through.
    let throttle = false;
    runtime.faults.throttleUpdates = 1;
    runtime.faults.random = () => (throttle ? 0 : 1);
    const firstA = await runtime.invoke('CountVotes', { Records: recordsA });
    throttle = true;
    const firstB = await runtime.invoke('CountVotes', { Records: recordsB });
    throttle = false;
    expect(firstA.result.batchItemFailures).toEqual([]);
    // Every record of B failed: the invocation fails, so Lambda's Errors metric shows it; the whole batch comes back.
    expect(firstB.outcome).toBe('error');
    expect(firstB.error?.message).toMatch(/every record of the batch failed \(2\)/);
    // The event source redelivers the whole original batch (A and B) after the failure of B.
    const retry = await runtime.invoke('CountVotes', { Records: [...recordsA, ...recordsB] });
    runtime.faults.throttleUpdates = 0;
    delete runtime.faults.random;
    expect(retry.result.batchItemFailures).toEqual([]);
    expect((await client.results(a.id)).json.counts).toEqual([1, 1, 0]);
    expect((await client.results(b.id)).json.counts).toEqual([0, 0, 2]);
  });

  it('reports malformed records as failures without holding back the rest of the batch', async () => {
    const poll = await client.createPoll();
    const good = voteRecord(poll.id, 1);
    const bad = { ...voteRecord(poll.id, 0), body: '{"not":"a vote"}' };
    const out = await runtime.invoke('CountVotes', { Records: [bad, good] });
    expect(out.result.batchItemFailures).toEqual([{ itemIdentifier: bad.messageId }]);
    expect((await client.results(poll.id)).json.counts).toEqual([0, 1, 0]);
  });
});

describe('bad input', () => {
  it('gets a clear 4xx with one JSON error shape and changes nothing stored', async () => {
    const poll = await client.createPoll();
    const before = await scanTable(runtime);
    const cases: Array<[string, string, unknown, Record<string, string>?]> = [
      ['POST', '/api/poll', '{"title": "x", '],
      ['POST', '/api/poll', 'null'],
      ['POST', '/api/poll', { title: 5, options: ['a', 'b'] }],
      ['POST', '/api/poll', { title: 'x', options: ['only one'] }],
      ['POST', '/api/poll', { title: 'x', options: Array.from({ length: 50 }, (_, i) => `o${i}`) }],
      ['POST', '/api/poll', { title: 'x'.repeat(POLL_LIMITS.maxBodyBytes + 1), options: ['a', 'b'] }],
      ['POST', '/api/poll', { title: 'x', options: ['a', 'b'], lifetimeMinutes: -5 }],
      ['POST', '/api/poll', 'title=x', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['GET', '/api/poll/does-not-exist-at-all', undefined],
      ['GET', '/api/poll/AAAAAAAAAAAAAAAAAAAAA', undefined],
      ['GET', '/api/poll/%2E%2E%2F%2E%2E%2Fetc/results', undefined],
      ['POST', `/api/poll/${poll.id}/vote`, { option: 7 }],
      ['POST', `/api/poll/${poll.id}/vote`, { option: '1' }],
      ['POST', `/api/poll/${poll.id}/vote`, '[]'],
      ['POST', '/api/poll/AAAAAAAAAAAAAAAAAAAAA/vote', { option: 0 }],
    ];
    for (const [method, path, body, headers] of cases) {
      const res = await client.call(method, path, body, headers);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 60)}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      // One shape: a code and a message, and the refused field with invalid_field.
      const field = res.json?.error?.code === 'invalid_field' ? { field: expect.any(String) } : {};
      expect(res.json).toEqual({ error: { code: expect.any(String), message: expect.any(String), ...field } });
    }
    await runtime.waitForDrain();
    expect(await scanTable(runtime)).toEqual(before);
  });
});
