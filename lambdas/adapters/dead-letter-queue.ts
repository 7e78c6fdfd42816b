/** The consumer's own dead-lettering: a record judged on its last delivery, sent with its verdict. */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { sqsClient } from './sqs-client';
import { LETTER_ATTRIBUTES, type Verdict } from '../../domain/dead-letter';
import type { DeadLetterSink } from '../../domain/ports';
import type { QueuedRecord } from '../../domain/tally';

const text = (value: string) => ({ DataType: 'String', StringValue: value });

/** The DeadLetterSink port over the dead-letter queue. A failed send throws the SDK's error: the record stays. */
export class DeadLetterQueue implements DeadLetterSink {
  constructor(
    private readonly queueUrl: string,
    private readonly sqs: SQSClient = sqsClient(),
  ) {}

  /**
   * Each letter is its own message group, so reading the queue never waits behind another
   * letter; the source message id deduplicates a send the SDK retries.
   */
  async send(record: QueuedRecord, verdict: Verdict): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: record.body,
        MessageGroupId: record.messageId,
        MessageDeduplicationId: record.messageId,
        MessageAttributes: {
          [LETTER_ATTRIBUTES.verdict]: text(verdict),
          [LETTER_ATTRIBUTES.sourceMessageId]: text(record.messageId),
          ...(record.sequenceNumber ? { [LETTER_ATTRIBUTES.sourceSequenceNumber]: text(record.sequenceNumber) } : {}),
        },
      }),
    );
  }
}
