/**
 * The vote queue (lambdas/adapters/vote-queue.ts) spreads a poll's votes as its layout says: a hot poll's over
 * its message groups, each vote naming its group's counter item; a plain poll's in one group with no counter
 * fields (as votes were always queued). The vote id is the deduplication id, so a retry lands where it did.
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

  it("queues a plain poll's votes in one group, as they always were, and a retry where it went", async () => {
    const { votes, sent } = queue();
    await votes.send(vote(1), { keyed: true, poll: {} });
    await votes.send(vote(1), { keyed: true, poll: {} });
    expect(sent).toEqual(
      [0, 1].map(() => expect.objectContaining({ MessageGroupId: 'poll1.0', MessageDeduplicationId: 'vote-1' })),
    );
    expect(JSON.parse(sent[0].MessageBody!)).toEqual(vote(1));
  });
});
