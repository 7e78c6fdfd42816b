/** Puts accepted votes on the FIFO vote queue. */
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { VoteSink } from '../domain/ports';
import { messageGroupId, type VoteMessage } from '../domain/vote';

/**
 * The VoteSink port over the FIFO vote queue. A send that fails throws the SDK's error, which
 * the vote route answers as `vote_not_queued`.
 */
export class VoteQueue implements VoteSink {
  constructor(
    private readonly queueUrl: string,
    private readonly sqs: SQSClient = new SQSClient({}),
  ) {}

  /**
   * The vote id is the deduplication id: if the SDK retries a send whose first
   * attempt did land, SQS drops the copy (within its 5-minute window).
   */
  async send(vote: VoteMessage): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(vote),
        MessageGroupId: messageGroupId(vote.pollId),
        MessageDeduplicationId: vote.voteId,
      }),
    );
  }
}
