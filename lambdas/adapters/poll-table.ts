/**
 * DynamoDB access for polls, counts and voter claims: the PollStore and CountStore ports. One
 * table, keys from config.
 */
import { DynamoDBClient, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { TABLE } from '../../config/app-config';
import type { CountGuards } from '../domain/dead-letter';
import type { Poll } from '../domain/poll';
import type { ApplyOutcome, CountStore, PollStore, VoterClaim } from '../domain/ports';
import { sumCounts, zeroCounts, type PollCounts } from '../domain/results';
import type { PollTally, RedrivenVote } from '../domain/tally';
import { sizeOfPoll } from '../domain/vote';

const { keys } = TABLE;
const pollKey = (id: string) => ({ pk: `${keys.pollPrefix}${id}`, sk: keys.pollSort });
/** Counter item k of a poll: `COUNTS` for the first (a poll's only one, unless it is sized for a hot poll). */
const countsKey = (id: string, counter: number) => ({
  pk: `${keys.pollPrefix}${id}`,
  sk: counter === 0 ? keys.countsSort : `${keys.countsSort}#${counter}`,
});
/** What the results read of each counter item: not its marks nor its redriven ids. */
const COUNTS_ATTRIBUTES = ['votes', 'total', 'optionCount', 'updatedAt', 'closesAt', 'expiresAt'];
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

  constructor(
    private readonly tableName: string,
    // Read at cold start like every other setting (the SDK would read it at the first request):
    // on AWS it is unset; the local runtime gives each function its own, to meter them apart.
    client: DynamoDBClient = new DynamoDBClient({ endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB }),
  ) {
    this.doc = DynamoDBDocumentClient.from(client);
  }

  /**
   * Writes the poll and its zeroed counter items (one per counter shard: at most 14 at the flag's
   * bound, so with META within BatchWriteItem's 25). Small puts in one request; retried until all land.
   */
  async putNewPoll(poll: Poll): Promise<void> {
    const counts = zeroCounts(poll);
    const counters = Array.from({ length: sizeOfPoll(poll).counterShards }, (_, k) => k);
    // Counts first: a poll whose META exists always has its counter items.
    let requests = [
      ...counters.map((k) => ({ PutRequest: { Item: { ...countsKey(poll.id, k), ...counts, applied: {} } } })),
      { PutRequest: { Item: { ...pollKey(poll.id), ...poll } } },
    ];
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt === 5) throw new Error('DynamoDB left poll items unprocessed after 5 attempts');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
      const out = await this.doc.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: requests } }));
      requests = (out.UnprocessedItems?.[this.tableName] ?? []) as typeof requests;
    }
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
   * The poll's counter items in one Query on its key (sort keys from COUNTS), summed. Eventually
   * consistent; on a miss, once strongly consistent, so a poll created a moment ago is not missing.
   */
  async getCounts(id: string): Promise<PollCounts | undefined> {
    const items = (await this.queryCounts(id, false)) ?? (await this.queryCounts(id, true));
    return sumCounts(items ?? []);
  }

  /** Every counter item of a poll (undefined: none); more than one page only if items grew past 1 MB. */
  private async queryCounts(id: string, consistent: boolean): Promise<PollCounts[] | undefined> {
    const items: PollCounts[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :counts)',
          ExpressionAttributeValues: { ':pk': `${keys.pollPrefix}${id}`, ':counts': keys.countsSort },
          ProjectionExpression: COUNTS_ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
          ExpressionAttributeNames: Object.fromEntries(COUNTS_ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
          ConsistentRead: consistent,
          ExclusiveStartKey: start,
        }),
      );
      items.push(...((page.Items ?? []) as PollCounts[]));
      start = page.LastEvaluatedKey;
    } while (start);
    return items.length > 0 ? items : undefined;
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
          Key: countsKey(tally.pollId, tally.counter),
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
    const guards = await this.readGuards(tally.pollId, tally.counter);
    return guards ? { kind: 'conflict', applied: guards.applied } : { kind: 'poll-missing' };
  }

  /** What a counter item says was applied (strongly consistent); undefined when the poll is gone. */
  async readGuards(pollId: string, counter: number): Promise<CountGuards | undefined> {
    const current = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: countsKey(pollId, counter),
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
          Key: countsKey(vote.pollId, vote.counter),
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
    const guards = await this.readGuards(vote.pollId, vote.counter);
    if (!guards) return 'poll-missing';
    if (guards.redriven.has(vote.voteId)) return 'applied';
    throw new Error(`redriven vote ${vote.voteId}: condition failed but the vote is not counted`);
  }
}
