/**
 * The SQS-to-Lambda event source mapping, locally: long-poll the queue, invoke
 * the function with a batch, delete what succeeded. Failed records stay and come
 * back after the visibility timeout; after maxReceiveCount the queue moves them
 * to its dead-letter queue (fauxqs does that, as SQS does).
 */
import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import { EMULATED_REGION } from '../config/emulated-aws';
import { chance, type Faults } from './faults';
import type { LoadedFunction } from './functions';
import type { EventSourceModel } from './template-model';

export interface EventSourceOptions {
  mapping: EventSourceModel;
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  fn: LoadedFunction;
  faults: Faults;
  /** The queue's redrive maxReceiveCount: post-write faults stay transient (never on the last delivery). */
  maxReceiveCount?: number;
  /** Concurrent pollers (Lambda scales these with the backlog; a few are plenty locally). */
  pollers?: number;
  onBatch?: (info: { records: number; failed: number; outcome: string }) => void;
  /**
   * Tests shorten visibility timeouts to make redeliveries quick. The deployed queue's timeout is
   * 6x the function's, so a batch is never redelivered while it is still being processed; with a
   * shortened one, a slow (loaded) machine could. Set to the shortened timeout, this keeps a batch
   * invisible until its invocation is over, which is what the deployed settings guarantee.
   */
  holdWhileProcessingSeconds?: number;
}

function toRecord(message: Message, queueArn: string) {
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: message.Attributes ?? {},
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: EMULATED_REGION,
  };
}

export function startEventSource(options: EventSourceOptions): { stop(): Promise<void> } {
  const { mapping, sqs, faults } = options;
  const abort = new AbortController();
  let running = true;

  async function receiveBatch(): Promise<Message[]> {
    const batch: Message[] = [];
    const windowEnds = Date.now() + mapping.maxBatchingWindowSeconds * 1000;
    do {
      const out = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: options.queueUrl,
          MaxNumberOfMessages: Math.min(10, mapping.batchSize - batch.length),
          // Lambda long-polls for 20 s; a shorter wait here only makes Ctrl-C snappier.
          WaitTimeSeconds: batch.length === 0 ? 5 : 0,
          MessageSystemAttributeNames: ['All'],
        }),
        { abortSignal: abort.signal },
      );
      batch.push(...(out.Messages ?? []));
      if (!out.Messages?.length) break;
    } while (batch.length < mapping.batchSize && Date.now() < windowEnds);
    return batch;
  }

  /** Extends the batch's visibility every half timeout until the returned function is called. */
  function holdInvisible(messages: Message[]): () => void {
    const seconds = options.holdWhileProcessingSeconds;
    if (!seconds) return () => undefined;
    const timer = setInterval(() => {
      const entries = messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: seconds }));
      void sqs.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: options.queueUrl, Entries: entries })).catch(() => undefined);
    }, (seconds * 1000) / 2);
    return () => clearInterval(timer);
  }

  async function processBatch(messages: Message[]): Promise<void> {
    const release = holdInvisible(messages);
    try {
      await processRecords(messages);
    } finally {
      release();
    }
  }

  async function processRecords(messages: Message[]): Promise<void> {
    const records = messages.map((m) => toRecord(m, options.queueArn));
    // A failed FIFO record fails the rest of its message group in the batch too (order must hold), as Lambda expects.
    const failedGroups = new Set<string>();
    const withheld = new Set<string>();
    for (const record of records) {
      const group = String(record.attributes.MessageGroupId ?? '');
      if (failedGroups.has(group) || chance(faults, faults.failBeforeApply)) {
        if (group) failedGroups.add(group);
        withheld.add(record.messageId);
      }
    }
    const invoked = await options.fn.invoke({ Records: records.filter((r) => !withheld.has(r.messageId)) });
    // Injected post-write faults are transient: a record on its last delivery is left alone, so a
    // counted vote is not dead-lettered by the injector (see README, "What exactly-once covers").
    const lastDelivery = (r: (typeof records)[number]) => Number(r.attributes.ApproximateReceiveCount ?? 1) >= (options.maxReceiveCount ?? Infinity);
    const crashed = !records.some(lastDelivery) && chance(faults, faults.crashAfterWrites);
    if (invoked.outcome !== 'ok' || crashed) {
      // A crash or timeout: nothing is deleted, the whole batch comes back after the visibility timeout.
      options.onBatch?.({ records: records.length, failed: records.length, outcome: invoked.outcome === 'ok' ? 'crash' : invoked.outcome });
      return;
    }
    const failed = new Set(withheld);
    if (mapping.reportBatchItemFailures) {
      const reported = invoked.result?.batchItemFailures;
      if (reported !== undefined && !Array.isArray(reported)) {
        // Lambda treats a malformed response as a failure of the whole batch.
        records.forEach((r) => failed.add(r.messageId));
      } else {
        for (const item of reported ?? []) failed.add(item.itemIdentifier);
      }
    }
    for (const record of records) if (!lastDelivery(record) && chance(faults, faults.failAfterApply)) failed.add(record.messageId);
    const done = records.filter((r) => !failed.has(r.messageId));
    for (let i = 0; i < done.length; i += 10) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: options.queueUrl,
          Entries: done.slice(i, i + 10).map((r, j) => ({ Id: String(j), ReceiptHandle: r.receiptHandle })),
        }),
      );
    }
    options.onBatch?.({ records: records.length, failed: failed.size, outcome: 'ok' });
  }

  async function poll(): Promise<void> {
    while (running) {
      try {
        const messages = await receiveBatch();
        if (messages.length > 0) await processBatch(messages);
      } catch (error) {
        if (!running) return;
        console.error(`[local] event source ${mapping.functionLogicalId}: ${(error as Error).message}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  const pollers = Array.from({ length: options.pollers ?? 2 }, () => poll());
  return {
    async stop() {
      running = false;
      abort.abort();
      await Promise.all(pollers);
    },
  };
}
