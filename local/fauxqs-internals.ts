/**
 * What the local runtime needs from fauxqs 1.9.2 beyond its public API.
 *
 * Two corrections to its FIFO receive, so that local batches look like AWS's
 * (the cost model meters them):
 * - a receive takes as many messages as it may from one message group, in
 *   order, before moving to the next group (fauxqs takes one per group);
 * - messages that become visible again go back in sequence order (fauxqs
 *   puts them back reversed when several expire together).
 * And a snapshot and restore of a queue's messages, sequence numbers included, and of the
 * deduplication ids it still remembers, so that `--data-dir` keeps queued votes across a restart
 * and a vote retried after it is still dropped (fauxqs 1.9.2 has no persistence).
 *
 * Pinned to fauxqs 1.9.2 (package.json); test/local/gateway-and-fidelity.test.ts checks
 * the receive order over the SQS API and test/local/restart.test.ts the restore, so an
 * upgrade that changes these internals fails there.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FauxqsServer } from 'fauxqs';

interface FifoMessage {
  messageId: string;
  body: string;
  md5OfBody: string;
  md5OfMessageAttributes?: string;
  messageAttributes: Record<string, unknown>;
  messageGroupId?: string;
  sequenceNumber?: string;
  approximateReceiveCount: number;
  approximateFirstReceiveTimestamp?: number;
}

/** toad-cache's FifoMap, as fauxqs keeps deduplication ids in it: each with its expiry (ms since the epoch). */
interface DeduplicationCache {
  items: Map<string, { value: Deduplicated; expiry: number }>;
  set(id: string, value: Deduplicated): void;
}
interface Deduplicated {
  messageId: string;
  sequenceNumber?: string;
}

interface FauxqsQueue {
  attributes: Record<string, string>;
  deduplicationCache: DeduplicationCache;
  sequenceCounter: number;
  messages: FifoMessage[];
  fifoDelayed: Map<string, FifoMessage[]>;
  enqueue(message: FifoMessage): void;
  fifoMessages: Map<string, FifoMessage[]>;
  fifoLockedGroups: Map<string, number>;
  inflightMessages: Map<string, { message: FifoMessage; receiptHandle: string; visibilityDeadline: number }>;
  isFifo(): boolean;
  processTimers(): void;
  changeVisibility(receiptHandle: string, timeoutSeconds: number): void;
  dequeueFifo(
    maxCount: number,
    visibilityOverride: number | undefined,
    dlqResolver?: (arn: string) => { enqueue(m: FifoMessage): void } | undefined,
  ): unknown[];
}

const bySequence = (a: FifoMessage, b: FifoMessage) => (a.sequenceNumber ?? '').localeCompare(b.sequenceNumber ?? '');

function sortGroups(queue: FauxqsQueue): void {
  for (const messages of queue.fifoMessages.values()) {
    for (let i = 1; i < messages.length; i++) {
      if (bySequence(messages[i - 1], messages[i]) > 0) {
        messages.sort(bySequence);
        break;
      }
    }
  }
}

let patched = false;

export async function patchFauxqs(projectRoot: string): Promise<void> {
  if (patched) return;
  const storeUrl = pathToFileURL(resolve(projectRoot, 'node_modules/fauxqs/dist/sqs/sqsStore.js')).href;
  const { SqsQueue, SqsStore } = (await import(storeUrl)) as {
    SqsQueue: { prototype: FauxqsQueue };
    SqsStore: { prototype: { inspectQueue(name: string): any; queuesByName: Map<string, FauxqsQueue> } };
  };
  const proto = SqsQueue.prototype;

  // Hand the queue itself to snapshotQueue/restoreQueue through inspectQueue's answer.
  const inspectQueue = SqsStore.prototype.inspectQueue;
  SqsStore.prototype.inspectQueue = function (name: string) {
    const result = inspectQueue.call(this, name);
    if (result) Object.defineProperty(result, QUEUE, { value: this.queuesByName.get(name), enumerable: false });
    return result;
  };

  const processTimers = proto.processTimers;
  proto.processTimers = function (this: FauxqsQueue) {
    processTimers.call(this);
    if (this.isFifo()) sortGroups(this);
  };
  const changeVisibility = proto.changeVisibility;
  proto.changeVisibility = function (this: FauxqsQueue, handle: string, seconds: number) {
    changeVisibility.call(this, handle, seconds);
    if (this.isFifo()) sortGroups(this);
  };

  proto.dequeueFifo = function (this: FauxqsQueue, maxCount, visibilityOverride, dlqResolver) {
    this.processTimers();
    const visibilityTimeout = visibilityOverride ?? parseInt(this.attributes.VisibilityTimeout, 10);
    const policy = this.attributes.RedrivePolicy ? JSON.parse(this.attributes.RedrivePolicy) : undefined;
    const maxReceiveCount = policy ? Number(policy.maxReceiveCount) : Infinity;
    const result = [];
    const count = Math.min(maxCount, 10);
    for (const [groupId, messages] of this.fifoMessages) {
      if (result.length >= count) break;
      if (this.fifoLockedGroups.has(groupId)) continue;
      while (result.length < count && messages.length > 0) {
        const message = messages.shift()!;
        message.approximateReceiveCount++;
        message.approximateFirstReceiveTimestamp ??= Date.now();
        const dlq =
          policy && message.approximateReceiveCount > maxReceiveCount
            ? dlqResolver?.(policy.deadLetterTargetArn)
            : undefined;
        if (dlq) {
          dlq.enqueue(message);
          continue;
        }
        const receiptHandle = randomUUID();
        this.inflightMessages.set(receiptHandle, {
          message,
          receiptHandle,
          visibilityDeadline: Date.now() + visibilityTimeout * 1000,
        });
        this.fifoLockedGroups.set(groupId, (this.fifoLockedGroups.get(groupId) ?? 0) + 1);
        result.push({
          MessageId: message.messageId,
          ReceiptHandle: receiptHandle,
          MD5OfBody: message.md5OfBody,
          Body: message.body,
          ...(message.md5OfMessageAttributes ? { MD5OfMessageAttributes: message.md5OfMessageAttributes } : {}),
          ...(Object.keys(message.messageAttributes).length > 0
            ? { MessageAttributes: message.messageAttributes }
            : {}),
        });
      }
      if (messages.length === 0) this.fifoMessages.delete(groupId);
    }
    return result;
  };
  patched = true;
}

const QUEUE = Symbol('fauxqs queue');

/** A queue's messages and sequence counter, to survive a restart of the local runtime. */
export interface QueueSnapshot {
  sequenceCounter: number;
  messages: FifoMessage[];
  /** Deduplication ids still in their window, with when each expires (absent in a file from before). */
  deduplication?: Array<[id: string, value: Deduplicated, expiry: number]>;
}

function queueOf(fauxqs: FauxqsServer, name: string): FauxqsQueue {
  const queue = (fauxqs.inspectQueue(name) as any)?.[QUEUE] as FauxqsQueue | undefined;
  if (!queue) throw new Error(`No queue ${name} (was patchFauxqs called first?)`);
  return queue;
}

/**
 * Every message, waiting, delayed or in flight, with its sequence number and receive count.
 * Sequence numbers must survive: the consumer's exactly-once marks compare them.
 */
export function snapshotQueue(fauxqs: FauxqsServer, name: string): QueueSnapshot {
  const queue = queueOf(fauxqs, name);
  const messages = [
    ...queue.messages,
    ...[...queue.fifoMessages.values()].flat(),
    ...[...queue.fifoDelayed.values()].flat(),
    ...[...queue.inflightMessages.values()].map((entry) => entry.message),
  ];
  const now = Date.now();
  const deduplication = [...queue.deduplicationCache.items]
    .filter(([, item]) => item.expiry > now)
    .map(([id, item]): [string, Deduplicated, number] => [id, item.value, item.expiry]);
  return structuredClone({ sequenceCounter: queue.sequenceCounter, messages, deduplication });
}

/** Puts a snapshot back: in-flight messages come back visible, as after their visibility timeout. */
export function restoreQueue(fauxqs: FauxqsServer, name: string, snapshot: QueueSnapshot): void {
  const queue = queueOf(fauxqs, name);
  queue.sequenceCounter = Math.max(queue.sequenceCounter, snapshot.sequenceCounter);
  for (const message of snapshot.messages) queue.enqueue(message);
  if (queue.isFifo()) sortGroups(queue);
  for (const [id, value, expiry] of snapshot.deduplication ?? []) {
    queue.deduplicationCache.set(id, value);
    // Its window runs from the first send, not from the restart.
    queue.deduplicationCache.items.get(id)!.expiry = expiry;
  }
}
