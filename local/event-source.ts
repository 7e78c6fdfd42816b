/**
 * The SQS-to-Lambda event source mapping, locally: long-poll the queue, invoke
 * the function with a batch, delete what succeeded. Failed records stay and come
 * back after the visibility timeout; after maxReceiveCount the queue moves them
 * to its dead-letter queue (fauxqs does that, as SQS does).
 */
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSRecord, SQSRecordAttributes } from 'aws-lambda';
import { chance, type Faults } from './faults';
import type { LoadedFunction } from './functions';
import { sqsRecord } from './lambda-events';
import type { EventSourceModel } from '../template/model';

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
  /** After each batch: the milliseconds from its receive to its delete (how long it held its message groups). */
  onBatchHeld?: (heldMs: number) => void;
  /**
   * Tests shorten visibility timeouts to make redeliveries quick. The deployed queue's timeout is
   * 6x the function's, so a batch is never redelivered while it is still being processed; with a
   * shortened one, a slow (loaded) machine could, and a vote counted by that invocation would then
   * also be dead-lettered untouched. Set to the shortened timeout, this receives each batch
   * invisible for 6x the function's timeout, as deployed, and makes what its invocation did not
   * delete visible again this many seconds after the invocation is over.
   */
  redeliverAfterSeconds?: number;
}

/**
 * A received message as its record in the function's event; its attributes are all there
 * (receiveBatch asks for All).
 */
const toRecord = (message: Message, queueArn: string): SQSRecord =>
  sqsRecord(
    {
      messageId: message.MessageId!,
      receiptHandle: message.ReceiptHandle!,
      body: message.Body ?? '',
      attributes: (message.Attributes ?? {}) as SQSRecordAttributes,
      md5OfBody: message.MD5OfBody ?? '',
    },
    queueArn,
  );

export function startEventSource(options: EventSourceOptions): { stop(): Promise<void> } {
  const abort = new AbortController();
  let running = true;
  async function poll(): Promise<void> {
    while (running) {
      try {
        const messages = await receiveBatch(options, abort.signal);
        if (messages.length === 0) continue;
        const received = performance.now();
        const left = await processBatch(options, messages).catch((error) => {
          void redeliverSoon(options, messages);
          throw error;
        });
        await redeliverSoon(options, left);
        options.onBatchHeld?.(performance.now() - received);
      } catch (error) {
        if (!running) return;
        console.error(`[local] event source ${options.mapping.functionLogicalId}: ${(error as Error).message}`);
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

/** Up to a batch, long-polling for the first message, then as long as the batching window lasts. */
async function receiveBatch(options: EventSourceOptions, signal: AbortSignal): Promise<Message[]> {
  const { sqs, mapping, queueUrl } = options;
  const batch: Message[] = [];
  const windowEnds = Date.now() + mapping.maxBatchingWindowSeconds * 1000;
  do {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: Math.min(10, mapping.batchSize - batch.length),
        // Lambda long-polls for 20 s; a shorter wait here only makes Ctrl-C snappier.
        WaitTimeSeconds: batch.length === 0 ? 5 : 0,
        MessageSystemAttributeNames: ['All'],
        VisibilityTimeout: options.redeliverAfterSeconds === undefined ? undefined : heldSeconds(options),
      }),
      { abortSignal: signal },
    );
    batch.push(...(out.Messages ?? []));
    if (!out.Messages?.length) break;
  } while (batch.length < mapping.batchSize && Date.now() < windowEnds);
  return batch;
}

/** What the deployed queue's visibility timeout is: AWS's advice for an SQS event source, 6x the function's timeout. */
const heldSeconds = ({ fn }: EventSourceOptions) => 6 * fn.model.timeoutSeconds;

/** With redeliverAfterSeconds: what an invocation left comes back that many seconds from now. */
async function redeliverSoon({ sqs, queueUrl, redeliverAfterSeconds }: EventSourceOptions, left: Message[]) {
  if (redeliverAfterSeconds === undefined) return;
  for (let i = 0; i < left.length; i += 10) {
    const entries = left.slice(i, i + 10).map((m, j) => ({
      Id: String(j),
      ReceiptHandle: m.ReceiptHandle!,
      VisibilityTimeout: redeliverAfterSeconds,
    }));
    await sqs.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: queueUrl, Entries: entries })).catch(() => {
      // Then they come back when the longer timeout they were received with ends.
    });
  }
}

/**
 * One invocation as Lambda makes it: the batch in, the records it did not fail deleted. Returns the
 * messages left to come back.
 */
async function processBatch(options: EventSourceOptions, messages: Message[]): Promise<Message[]> {
  const records = messages.map((m) => toRecord(m, options.queueArn));
  if (options.faults.slowBatchesMs) await new Promise((r) => setTimeout(r, options.faults.slowBatchesMs));
  const withheld = withheldByFaults(options.faults, records);
  const invoked = await invokeWhenAdmitted(options.fn, {
    Records: records.filter((r) => !withheld.has(r.messageId)),
  });
  // Lambda stops a function at its timeout; here it runs on, so its batch waits for it (bounded by
  // the batch's visibility): no write of a timed-out invocation lands after its records came back.
  if (invoked.outcome === 'timeout') await settledWithin(invoked.running, heldSeconds(options));
  const crashed =
    !records.some((r) => isLastDelivery(options, r)) && chance(options.faults, options.faults.crashAfterWrites);
  if (invoked.outcome !== 'ok' || crashed) {
    // A crash, an error or a timeout: nothing is deleted, the whole batch comes back after the visibility timeout.
    options.onBatch?.({
      records: records.length,
      failed: records.length,
      outcome: invoked.outcome === 'ok' ? 'crash' : invoked.outcome,
    });
    return messages;
  }
  const failed = failedRecords(options, records, withheld, invoked.result);
  await deleteDone(
    options,
    records.filter((r) => !failed.has(r.messageId)),
  );
  options.onBatch?.({ records: records.length, failed: failed.size, outcome: 'ok' });
  return messages.filter((m) => failed.has(m.MessageId!));
}

const settledWithin = (running: Promise<unknown> | undefined, seconds: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, seconds * 1000);
    void running?.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });

/** How long, and how often, a throttled batch is tried again before it is left to come back. */
const THROTTLED_RETRY_MS = 20;
const THROTTLED_TRIES = 500;

/**
 * A batch Lambda throttles (--aws-limits) is held and tried again, its group still locked, as the
 * event source's pollers back off; after THROTTLED_TRIES it comes back after its visibility timeout.
 */
async function invokeWhenAdmitted(fn: LoadedFunction, event: { Records: SQSRecord[] }) {
  for (let tries = 1; ; tries++) {
    const invoked = await fn.invoke(event);
    if (invoked.outcome !== 'throttled' || tries >= THROTTLED_TRIES) return invoked;
    await new Promise((r) => setTimeout(r, THROTTLED_RETRY_MS));
  }
}

/**
 * Injected failures before applying; a failed FIFO record fails the rest of its group in the
 * batch too (order must hold), as Lambda expects.
 */
function withheldByFaults(faults: Faults, records: SQSRecord[]): Set<string> {
  const failedGroups = new Set<string>();
  const withheld = new Set<string>();
  for (const record of records) {
    const group = String(record.attributes.MessageGroupId ?? '');
    if (failedGroups.has(group) || chance(faults, faults.failBeforeApply)) {
      if (group) failedGroups.add(group);
      withheld.add(record.messageId);
    }
  }
  return withheld;
}

// Injected post-write faults are transient: a record on its last delivery is left alone, so a
// counted vote is not dead-lettered by the injector (see docs/exactly-once.md "What exactly-once covers, tested").
const isLastDelivery = ({ maxReceiveCount }: EventSourceOptions, r: SQSRecord) =>
  Number(r.attributes.ApproximateReceiveCount ?? 1) >= (maxReceiveCount ?? Infinity);

/** The records this delivery failed: withheld ones, the ones the function reports, injected losses. */
function failedRecords(
  options: EventSourceOptions,
  records: SQSRecord[],
  withheld: Set<string>,
  result: unknown,
): Set<string> {
  const failed = new Set(withheld);
  if (options.mapping.reportBatchItemFailures) {
    const reported = (result as { batchItemFailures?: unknown } | undefined)?.batchItemFailures;
    // Lambda treats a malformed response as a failure of the whole batch.
    if (reported !== undefined && !Array.isArray(reported)) for (const r of records) failed.add(r.messageId);
    else for (const item of (reported ?? []) as Array<{ itemIdentifier: string }>) failed.add(item.itemIdentifier);
  }
  for (const record of records)
    if (!isLastDelivery(options, record) && chance(options.faults, options.faults.failAfterApply))
      failed.add(record.messageId);
  return failed;
}

async function deleteDone({ sqs, queueUrl }: EventSourceOptions, done: SQSRecord[]): Promise<void> {
  for (let i = 0; i < done.length; i += 10) {
    const entries = done.slice(i, i + 10).map((r, j) => ({ Id: String(j), ReceiptHandle: r.receiptHandle }));
    await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
  }
}
