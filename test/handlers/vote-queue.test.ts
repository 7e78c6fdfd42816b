/**
 * The vote queue (lambdas/adapters/vote-queue.ts) spreads a poll's votes as its layout says: a hot poll's over
 * its message groups, each vote naming its group's counter item; a plain poll's over its 4 groups with no
 * counter fields (as votes were always queued). Where a vote goes is a hash of its id, pinned here: a change of
 * it would move a retried vote to another group, past SQS's deduplication. The vote id is the deduplication id.
 */
import type { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { VoteQueue } from '../../lambdas/adapters/vote-queue';
import type { VoteLayout, VoteMessage } from '../../domain/vote';

/** A queue over a client that keeps each SendMessage's input. */
function queue() {
  const sent: SendMessageCommand['input'][] = [];
  const sqs = { send: async (command: SendMessageCommand) => sent.push(command.input) } as unknown as SQSClient;
  return { votes: new VoteQueue('https://sqs.example/votes.fifo', sqs), sent };
}

const vote = (i: number): VoteMessage => ({
  v: 1,
  voteId: `vote-${i}`,
  pollId: 'poll1',
  option: i % 3,
  castAt: '2026-11-27T12:00:00.000Z',
});
const HOT: VoteLayout = { groups: 67, counterShards: 2, counterLayout: 'partition-keys' };

describe('the vote queue', () => {
  it("spreads a hot poll's votes over its groups, each naming its group's counter item", async () => {
    const { votes, sent } = queue();
    for (let i = 0; i < 300; i++) await votes.send(vote(i), { keyed: false, poll: HOT });
    const groups = sent.map((input) => Number(input.MessageGroupId!.replace(/^poll1\./, '')));
    expect(new Set(groups).size).toBeGreaterThan(50);
    const bodies: VoteMessage[] = sent.map((input) => JSON.parse(input.MessageBody!));
    expect(bodies.map((body) => body.counter ?? 0)).toEqual(groups.map((group) => group % 2));
    expect(bodies.some((body) => body.counter === 1)).toBe(true);
    // The consumer finds item 1 by the layout the vote carries.
    for (const body of bodies)
      expect(body.counterLayout).toBe(body.counter === undefined ? undefined : 'partition-keys');
    expect(sent.map((input) => input.MessageDeduplicationId)).toEqual(bodies.map((body) => body.voteId));
  });

  it("queues a plain poll's votes over its groups with no counter fields, and a retry where it went", async () => {
    const { votes, sent } = queue();
    for (const i of [0, 1, 2, 1]) await votes.send(vote(i), { keyed: true, poll: {} });
    expect(sent.map((input) => [input.MessageGroupId, input.MessageDeduplicationId])).toEqual([
      ['poll1.1', 'vote-0'],
      ['poll1.0', 'vote-1'],
      ['poll1.2', 'vote-2'],
      ['poll1.0', 'vote-1'],
    ]);
    expect(JSON.parse(sent[1].MessageBody!)).toEqual(vote(1));
  });

  it("routes a hot poll's vote to the same group and counter item, vote id by vote id", async () => {
    const { votes, sent } = queue();
    for (const i of [0, 1, 2]) await votes.send(vote(i), { keyed: false, poll: HOT });
    expect(sent.map((input) => input.MessageGroupId)).toEqual(['poll1.62', 'poll1.33', 'poll1.47']);
    const items = sent.map((input) => {
      const { counter, counterLayout } = JSON.parse(input.MessageBody!);
      return { counter, counterLayout };
    });
    expect(items).toEqual([
      { counter: undefined, counterLayout: undefined },
      { counter: 1, counterLayout: 'partition-keys' },
      { counter: 1, counterLayout: 'partition-keys' },
    ]);
  });
});
