/**
 * DynamoDB access for polls, counts and voter claims: the PollStore and CountStore ports. One
 * table, keys from config.
 */
import { DynamoDBClient, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { POLL_LIMITS } from '../../config/api-contract';
import { TABLE } from '../../config/table';
import { FUNCTION_ENV } from '../../config/function-env';
import type { CountGuards } from '../../domain/dead-letter';
import type { Poll } from '../../domain/poll';
import type { ApplyOutcome, CountStore, PollStore, VoterClaim } from '../../domain/ports';
import { sumCounts, zeroCounts, type PollCounts } from '../../domain/results';
import type { PollTally, RedrivenVote } from '../../domain/tally';
import { TimedCache } from '../../domain/timed-cache';
import { counterRef, sizeOfPoll, type CounterRef } from '../../domain/vote';

const { keys } = TABLE;
const pollPk = (id: string) => `${keys.pollPrefix}${id}`;
const pollKey = (id: string) => ({ pk: pollPk(id), sk: keys.pollSort });
/**
 * A counter item's key. Item 0 is at the poll's key, sort key COUNTS, in every layout (a poll's only
 * item unless it is sized for a hot poll). Item k > 0 is on a partition key of its own,
 * `POLL#<id>#k` (layout partition-keys), or, for a poll created before layouts, under the poll's
 * key at sort key `COUNTS#k`.
 */
const countsKey = ({ pollId, counter, layout }: CounterRef) =>
  counter === 0 || layout !== 'partition-keys'
    ? { pk: pollPk(pollId), sk: counter === 0 ? keys.countsSort : `${keys.countsSort}#${counter}` }
    : { pk: `${pollPk(pollId)}#${counter}`, sk: keys.countsSort };
/**
 * On item 0 of a poll laid out on partition keys: how many counter items it has. The results read
 * it there, since they know a poll's size only by reading it.
 */
const COUNTER_KEYS = 'counterKeys';
/**
 * What the results read of each counter item: its key too (a batch answers in no order); not its
 * marks nor its redriven ids.
 */
const COUNTS_ATTRIBUTES = [
  TABLE.partitionKey,
  TABLE.sortKey,
  ...['votes', 'total', 'optionCount', 'updatedAt', 'closesAt', 'expiresAt', COUNTER_KEYS],
];
const COUNTS_PROJECTION = {
  ProjectionExpression: COUNTS_ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(COUNTS_ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
};
type ItemKey = ReturnType<typeof countsKey>;
type CounterItem = PollCounts & ItemKey & { [COUNTER_KEYS]?: number };
const keyId = (key: ItemKey) => `${key.pk}/${key.sk}`;
/** A poll lives at most this long: what the results may remember of it. */
const POLL_LIFE_MS = (POLL_LIMITS.maxLifetimeMinutes * 60 + TABLE.retainAfterCloseSeconds) * 1000;
/** Tries of a batch request before its unprocessed part is an error; waits double from 50 ms. */
const BATCH_ATTEMPTS = 5;

/**
 * Sends `first`, then what each answer says was left unprocessed, until nothing is (`send` returns
 * undefined), backing off between tries as AWS advises; throws after BATCH_ATTEMPTS tries.
 */
/** The most items one BatchWriteItem request takes. */
const BATCH_WRITE_ITEMS = 25;

async function untilProcessed<T>(first: T, send: (pending: T) => Promise<T | undefined>, what: string) {
  let pending: T | undefined = first;
  for (let attempt = 0; pending !== undefined; attempt++) {
    if (attempt === BATCH_ATTEMPTS) throw new Error(`DynamoDB left ${what} unprocessed after ${attempt} attempts`);
    if (attempt > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
    pending = await send(pending);
  }
}

/** The counter items of a poll from `from` (0 or 1) up to `to`, excluded. */
const countersOf = (pollId: string, from: number, to: number): CounterRef[] =>
  Array.from({ length: to - from }, (_, i) => counterRef(pollId, from + i, 'partition-keys'));
const voterItemKey = (pollId: string, voter: string) => ({
  pk: `${keys.voterPrefix}${pollId}#${voter}`,
  sk: keys.voterSort,
});

/**
 * The PollStore and CountStore ports over the one DynamoDB table. No PollError: the SDK's errors
 * (throttled, unreachable) are thrown as they come, and the handlers decide what they mean.
 */
export class PollTable implements PollStore, CountStore {
  private readonly doc: DynamoDBDocumentClient;
  /**
   * Per poll laid out on partition keys, its counter items' count, as its item 0 said on the first
   * read; a poll's size never changes. Bounded: a flood of ids cannot grow it without limit.
   */
  private readonly counterKeys = new TimedCache<number>(POLL_LIFE_MS);

  constructor(
    private readonly tableName: string,
    // Read at cold start like every other setting (the SDK would read it at the first request):
    // on AWS it is unset; the local runtime gives each function its own, to meter them apart.
    client: DynamoDBClient = new DynamoDBClient({ endpoint: process.env[FUNCTION_ENV.dynamoEndpoint.name] }),
  ) {
    this.doc = DynamoDBDocumentClient.from(client);
  }

  /**
   * Writes the poll and its zeroed counter items (one per counter shard), small puts in as few
   * requests as BatchWriteItem allows; retried until all land.
   */
  async putNewPoll(poll: Poll): Promise<void> {
    const counts = zeroCounts(poll);
    const { counterShards } = sizeOfPoll(poll);
    const items = Array.from({ length: counterShards }, (_, k) => ({
      ...countsKey(counterRef(poll.id, k, poll.counterLayout)),
      ...counts,
      applied: {},
      ...(k === 0 && poll.counterLayout === 'partition-keys' && { [COUNTER_KEYS]: counterShards }),
    }));
    // Counts first: a poll whose META exists always has its counter items. BatchWriteItem takes 25 items a
    // request: a poll sized for the hottest night has more, written a request after another, META last.
    const requests = [...items, { ...pollKey(poll.id), ...poll }].map((Item) => ({ PutRequest: { Item } }));
    for (let start = 0; start < requests.length; start += BATCH_WRITE_ITEMS)
      await untilProcessed(
        requests.slice(start, start + BATCH_WRITE_ITEMS),
        async (pending) => {
          const out = await this.doc.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
          const left = out.UnprocessedItems?.[this.tableName] as typeof requests | undefined;
          return left?.length ? left : undefined;
        },
        'poll items',
      );
  }

  /**
   * Eventually consistent read (half the price); on a miss, one strongly
   * consistent read, so a poll created a moment ago is not reported missing.
   */
  private async getItem(key: Record<string, string>): Promise<Record<string, unknown> | undefined> {
    const fast = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: key }));
    if (fast.Item) return fast.Item;
    const strong = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return strong.Item;
  }

  async getPoll(id: string): Promise<Poll | undefined> {
    return (await this.getItem(pollKey(id))) as Poll | undefined;
  }

  /**
   * The poll's counter items, summed, in one round trip once the poll's size is known. The first
   * read is one Query on the poll's key (sort keys from COUNTS: item 0, and every item of a poll
   * created before layouts); when item 0 says the poll has items on keys of their own, one
   * BatchGetItem of them, and their count is remembered: later reads are one BatchGetItem of all.
   * Eventually consistent; what is missing is read once strongly consistent, so that a poll
   * created a moment ago is neither missing nor short of an item.
   */
  async getCounts(id: string): Promise<PollCounts | undefined> {
    const known = this.counterKeys.get(id, Date.now())?.value;
    if (known !== undefined) return sumCounts(await this.getCounters(countersOf(id, 0, known)));
    const queried = (await this.queryCounts(id, false)) ?? (await this.queryCounts(id, true));
    const count = Number(queried?.find((item) => item[COUNTER_KEYS] !== undefined)?.[COUNTER_KEYS] ?? 1);
    if (!queried || count <= 1) return sumCounts(queried ?? []);
    this.counterKeys.set(id, count, Date.now());
    return sumCounts([...queried, ...(await this.getCounters(countersOf(id, 1, count)))]);
  }

  /** Every counter item under a poll's key (undefined: none); more than one page only if items grew past 1 MB. */
  private async queryCounts(id: string, consistent: boolean): Promise<CounterItem[] | undefined> {
    const items: CounterItem[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :counts)',
          ExpressionAttributeValues: { ':pk': pollPk(id), ':counts': keys.countsSort },
          ...COUNTS_PROJECTION,
          ConsistentRead: consistent,
          ExclusiveStartKey: start,
        }),
      );
      items.push(...((page.Items ?? []) as CounterItem[]));
      start = page.LastEvaluatedKey;
    } while (start);
    return items.length > 0 ? items : undefined;
  }

  /**
   * The counter items found of those given (a poll has at most a few dozen: within BatchGetItem's 100), in one
   * BatchGetItem, eventually consistent; those it did not find, once more strongly consistent.
   */
  private async getCounters(counters: readonly CounterRef[]): Promise<CounterItem[]> {
    const itemKeys = counters.map(countsKey);
    const found = await this.batchGet(itemKeys, false);
    const seen = new Set(found.map(keyId));
    const missing = itemKeys.filter((key) => !seen.has(keyId(key)));
    return missing.length === 0 ? found : [...found, ...(await this.batchGet(missing, true))];
  }

  /** Items by key in one BatchGetItem, and its unprocessed keys again until none is left. */
  private async batchGet(itemKeys: ItemKey[], consistent: boolean): Promise<CounterItem[]> {
    const items: CounterItem[] = [];
    await untilProcessed(
      { Keys: itemKeys, ...COUNTS_PROJECTION, ConsistentRead: consistent },
      async (pending) => {
        const out = await this.doc.send(new BatchGetCommand({ RequestItems: { [this.tableName]: pending } }));
        items.push(...((out.Responses?.[this.tableName] ?? []) as CounterItem[]));
        const left = out.UnprocessedKeys?.[this.tableName]?.Keys as ItemKey[] | undefined;
        return left?.length ? { ...pending, Keys: left } : undefined;
      },
      'counter items',
    );
    return items;
  }

  /**
   * One conditional put: free, or held by the same ballot (a retry). The old item, returned at no
   * read cost, tells a retry from a first claim.
   */
  async claimVoter(pollId: string, voter: string, expiresAt: number, ballot?: string): Promise<VoterClaim> {
    try {
      const out = await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...voterItemKey(pollId, voter), expiresAt, ...(ballot ? { ballot } : {}) },
          ConditionExpression: ballot ? 'attribute_not_exists(pk) OR ballot = :ballot' : 'attribute_not_exists(pk)',
          ExpressionAttributeValues: ballot ? { ':ballot': ballot } : undefined,
          ReturnValues: 'ALL_OLD',
        }),
      );
      return out.Attributes ? 'retried' : 'claimed';
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'taken';
      throw error;
    }
  }

  async releaseVoter(pollId: string, voter: string, ballot?: string): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: voterItemKey(pollId, voter),
          ConditionExpression: ballot ? 'ballot = :ballot' : undefined,
          ExpressionAttributeValues: ballot ? { ':ballot': ballot } : undefined,
        }),
      );
    } catch (error) {
      // Another ballot's claim (or none): not this request's to release.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  /**
   * Adds a tally to its counter item in one conditional write. The condition
   * holds only if no vote of this tally was applied before (each group's mark
   * is below the tally's first sequence number); the same write moves the marks.
   */
  async applyTally(tally: PollTally, nowIso: string): Promise<ApplyOutcome> {
    const names: Record<string, string> = {
      '#votes': 'votes',
      '#total': 'total',
      '#applied': 'applied',
      '#updatedAt': 'updatedAt',
    };
    const values: Record<string, unknown> = { ':total': tally.total, ':now': nowIso };
    const adds = ['#total :total'];
    Object.entries(tally.votes).forEach(([option, count], i) => {
      names[`#o${i}`] = option;
      values[`:o${i}`] = count;
      adds.push(`#votes.#o${i} :o${i}`);
    });
    const sets = ['#updatedAt = :now'];
    const conditions = ['attribute_exists(pk)'];
    Object.entries(tally.marks).forEach(([shard, mark], i) => {
      names[`#g${i}`] = shard;
      values[`:first${i}`] = mark.first;
      values[`:last${i}`] = mark.last;
      sets.push(`#applied.#g${i} = :last${i}`);
      conditions.push(`(attribute_not_exists(#applied.#g${i}) OR #applied.#g${i} < :first${i})`);
    });
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: countsKey(tally),
          UpdateExpression: `SET ${sets.join(', ')} ADD ${adds.join(', ')}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return { kind: 'applied' };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    // Rare path (a redelivery or a race): read the marks to see what was applied.
    const guards = await this.readGuards(tally);
    return guards ? { kind: 'conflict', applied: guards.applied } : { kind: 'poll-missing' };
  }

  /** What a counter item says was applied (strongly consistent); undefined when the poll is gone. */
  async readGuards(item: CounterRef): Promise<CountGuards | undefined> {
    const current = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: countsKey(item),
        ConsistentRead: true,
        ProjectionExpression: '#applied, #redriven',
        ExpressionAttributeNames: { '#applied': 'applied', '#redriven': 'redriven' },
      }),
    );
    if (!current.Item) return undefined;
    return {
      applied: (current.Item.applied ?? {}) as Record<string, string>,
      redriven: (current.Item.redriven as Set<string> | undefined) ?? new Set(),
    };
  }

  /**
   * Counts one redriven vote unless its id is already in its counter item's `redriven` set, in one
   * conditional write. Redrives are rare; each adds its id (~25 bytes) to the item.
   */
  async applyRedrivenVote(vote: RedrivenVote, nowIso: string): Promise<'applied' | 'poll-missing'> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: countsKey(vote),
          UpdateExpression: 'SET #updatedAt = :now ADD #total :one, #votes.#option :one, #redriven :ids',
          ConditionExpression: 'attribute_exists(pk) AND NOT contains(#redriven, :id)',
          ExpressionAttributeNames: {
            '#updatedAt': 'updatedAt',
            '#total': 'total',
            '#votes': 'votes',
            '#option': String(vote.option),
            '#redriven': 'redriven',
          },
          ExpressionAttributeValues: { ':now': nowIso, ':one': 1, ':ids': new Set([vote.voteId]), ':id': vote.voteId },
        }),
      );
      return 'applied';
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    const guards = await this.readGuards(vote);
    if (!guards) return 'poll-missing';
    if (guards.redriven.has(vote.voteId)) return 'applied';
    throw new Error(`redriven vote ${vote.voteId}: condition failed but the vote is not counted`);
  }
}
