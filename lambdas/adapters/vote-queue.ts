/** Puts accepted votes on the FIFO vote queue. */
import { type SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from './sqs-client';
import type { VoteSink } from '../domain/ports';
import { messageGroupId, type VoteMessage } from '../domain/vote';

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
   * The vote id is the deduplication id, and its message group comes from it (vote.ts voteRoute):
   * a copy sent again within SQS's 5-minute window (an SDK retry of a send that did land, or a
   * client's retry of a ballot by its idempotency key) lands in the same group and is dropped there.
   */
  async send(vote: VoteMessage, _keyed?: boolean, group = 0): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(vote),
        MessageGroupId: messageGroupId(vote.pollId, group),
        MessageDeduplicationId: vote.voteId,
      }),
    );
  }
}
