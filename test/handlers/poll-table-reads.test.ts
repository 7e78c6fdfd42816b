/**
 * How the results read a poll's counter items (PollTable.getCounts), against a scripted table in
 * memory: which requests it sends for each layout, what it does with a batch's unprocessed keys
 * and with an item an eventually consistent read missed. The items as the code writes them, and
 * the reads end to end, are tested against DynamoDB's emulator (test/local/hot-poll.test.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { PollTable } from '../../lambdas/adapters/poll-table';
import { createPoll } from '../../domain/poll';

type Item = Record<string, any>;
interface Call {
  command: string;
  keys: string[];
  consistent: boolean;
}

/**
 * A table of `items` behind a real client whose requests never leave the process: Query and
 * BatchGetItem answered from memory. An eventually consistent read does not see `lagging` keys; a
 * BatchGetItem leaves `unprocessed` of its keys unprocessed, once.
 */
function scriptedTable(items: Item[], { lagging = [] as string[], unprocessed = 0 } = {}) {
  const id = (key: Item) => `${key.pk}/${key.sk}`;
  const calls: Call[] = [];
  let leave = unprocessed;
  const visible = (consistent: boolean) =>
    items.filter((item) => consistent || !lagging.includes(id(item))).map((item) => structuredClone(item));
  const answer = (command: string, input: any): any => {
    if (command === 'QueryCommand') {
      const { ':pk': pk, ':counts': prefix } = input.ExpressionAttributeValues;
      const found = visible(input.ConsistentRead).filter((item) => item.pk === pk && item.sk.startsWith(prefix));
      calls.push({ command: 'Query', keys: found.map(id), consistent: !!input.ConsistentRead });
      return { Items: found };
    }
    const [table, request] = Object.entries<any>(input.RequestItems)[0];
    if (command === 'BatchWriteItemCommand') {
      const written: Item[] = request.map((r: { PutRequest: { Item: Item } }) => r.PutRequest.Item);
      items.push(...written);
      calls.push({ command: 'BatchWriteItem', keys: written.map(id), consistent: false });
      return { UnprocessedItems: {} };
    }
    const keys: Item[] = request.Keys;
    calls.push({ command: 'BatchGetItem', keys: keys.map(id), consistent: !!request.ConsistentRead });
    const left = keys.slice(keys.length - leave);
    const served = keys.slice(0, keys.length - leave).map(id);
    leave = 0;
    return {
      Responses: { [table]: visible(request.ConsistentRead).filter((item) => served.includes(id(item))) },
      UnprocessedKeys: left.length ? { [table]: { ...request, Keys: left } } : {},
    };
  };
  const client = new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  // Before the document client marshals anything: requests and answers in plain JavaScript.
  client.middlewareStack.add(
    (_next, context) => async (args: any) => ({
      output: { ...answer(context.commandName!, args.input), $metadata: {} },
      response: {},
    }),
    { step: 'initialize', name: 'scriptedTable' },
  );
  return { table: new PollTable('polls', client), calls };
}

const ID = 'p'.repeat(21);
const PK = `POLL#${ID}`;
/** A counter item with `votes` per option. */
const counter = (key: { pk: string; sk: string }, votes: number[], extra: Item = {}): Item => ({
  ...key,
  votes: Object.fromEntries(votes.map((n, i) => [String(i), n])),
  total: votes.reduce((a, b) => a + b, 0),
  optionCount: votes.length,
  updatedAt: '2026-11-22T12:00:00.000Z',
  closesAt: 2_000_000_000,
  expiresAt: 2_000_086_400,
  applied: { 0: '1' },
  ...extra,
});
/** A poll of three counter items on keys of their own, as PollTable.putNewPoll lays one out. */
const ownKeys = () => [
  counter({ pk: PK, sk: 'COUNTS' }, [1, 2], { counterKeys: 3 }),
  counter({ pk: `${PK}#1`, sk: 'COUNTS' }, [3, 4]),
  counter({ pk: `${PK}#2`, sk: 'COUNTS' }, [5, 6]),
];
const ALL_KEYS = [`${PK}/COUNTS`, `${PK}#1/COUNTS`, `${PK}#2/COUNTS`];

describe('the results’ read of a poll’s counter items', () => {
  it('on keys of their own: a Query and a BatchGetItem of the rest, then one BatchGetItem of all', async () => {
    const { table, calls } = scriptedTable(ownKeys());
    for (let read = 0; read < 3; read++)
      expect(await table.getCounts(ID)).toMatchObject({ votes: { 0: 9, 1: 12 }, total: 21, optionCount: 2 });
    expect(calls).toEqual([
      { command: 'Query', keys: [`${PK}/COUNTS`], consistent: false },
      { command: 'BatchGetItem', keys: ALL_KEYS.slice(1), consistent: false },
      { command: 'BatchGetItem', keys: ALL_KEYS, consistent: false },
      { command: 'BatchGetItem', keys: ALL_KEYS, consistent: false },
    ]);
  });

  it('under the poll’s key (a poll created before layouts, or of one item): one Query each time', async () => {
    const old = [
      counter({ pk: PK, sk: 'COUNTS' }, [1, 0]),
      counter({ pk: PK, sk: 'COUNTS#1' }, [0, 2]),
      counter({ pk: PK, sk: 'COUNTS#2' }, [3, 0]),
    ];
    const { table, calls } = scriptedTable(old);
    for (let read = 0; read < 2; read++)
      expect(await table.getCounts(ID)).toMatchObject({ total: 6, votes: { 0: 4, 1: 2 } });
    expect(calls.map((c) => c.command)).toEqual(['Query', 'Query']);
  });

  it('asks again for the keys a BatchGetItem left unprocessed, until it has every item', async () => {
    const { table, calls } = scriptedTable(ownKeys(), { unprocessed: 2 });
    await table.getCounts(ID); // learns the poll's size (its batch of two: both left, then read)
    expect(await table.getCounts(ID)).toMatchObject({ total: 21 });
    expect(calls.slice(1).map((c) => c.keys)).toEqual([ALL_KEYS.slice(1), ALL_KEYS.slice(1), ALL_KEYS]);
  });

  it('reads what an eventually consistent read missed once more, strongly consistent: only that', async () => {
    // A poll created a moment ago: the replica read has not seen its item 2 yet.
    const { table, calls } = scriptedTable(ownKeys(), { lagging: [`${PK}#2/COUNTS`] });
    expect(await table.getCounts(ID)).toMatchObject({ total: 21 });
    expect(calls.slice(1)).toEqual([
      { command: 'BatchGetItem', keys: ALL_KEYS.slice(1), consistent: false },
      { command: 'BatchGetItem', keys: [`${PK}#2/COUNTS`], consistent: true },
    ]);
  });

  it('finds no counts for a poll with no items, after one strongly consistent try', async () => {
    const { table, calls } = scriptedTable([]);
    expect(await table.getCounts(ID)).toBeUndefined();
    expect(calls.map((c) => [c.command, c.consistent])).toEqual([
      ['Query', false],
      ['Query', true],
    ]);
  });
});

describe('a new poll’s items', () => {
  it('past BatchWriteItem’s 25 a request: written in requests one after another, its META in the last', async () => {
    const { table, calls } = scriptedTable([]);
    const poll = createPoll({ title: 'Final', options: ['a', 'b'] }, Date.now(), { groups: 420, counterShards: 30 });
    await table.putNewPoll(poll);
    expect(calls.map((c) => c.keys.length)).toEqual([25, 6]);
    expect(calls.at(-1)!.keys.at(-1)).toBe(`POLL#${poll.id}/META`);
    expect(new Set(calls.flatMap((c) => c.keys.map((k) => k.split('/')[0]))).size).toBe(30);
    // Read back as the results read them: every counter key, summed.
    expect(await table.getCounts(poll.id)).toMatchObject({ total: 0, optionCount: 2 });
  });
});
