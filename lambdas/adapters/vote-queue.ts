/** Puts accepted votes on the FIFO vote queue. */
import { type SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from './sqs-client';
import type { VoteSink } from '../../domain/ports';
import { messageGroupId, type VoteLayout, type VoteMessage, voteRoute } from '../../domain/vote';

/**
 * The VoteSink port over the FIFO vote queue. A send that fails throws the SDK's error, which
 * the vote route answers as `vote_not_queued`.
 */
export class VoteQueue implements VoteSink {
  constructor(
    private readonly queueUrl: string,
    private readonly sqs: SQSClient = sqsClient(),
  ) {}

  /**
   * The vote id is the deduplication id, and its message group and counter item come from it (vote.ts
   * voteRoute): a copy sent again within SQS's 5-minute window (an SDK retry of a send that did land, or a
   * client's retry of a ballot by its idempotency key) lands in the same group and is dropped there.
   */
  async send(vote: VoteMessage, { poll }: { keyed: boolean; poll: VoteLayout }): Promise<void> {
    const { group, item } = voteRoute(vote.voteId, poll);
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        // A poll of one counter item (every poll made without the flag) queues its votes as it always did.
        MessageBody: JSON.stringify({ ...vote, ...item }),
        MessageGroupId: messageGroupId(vote.pollId, group),
        MessageDeduplicationId: vote.voteId,
      }),
    );
  }
}
