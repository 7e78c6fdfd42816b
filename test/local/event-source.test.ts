/**
 * The local event source holds a batch as deployed settings do: a queue's visibility timeout is 6x its
 * consumer's, so a batch is never delivered again while its invocation runs. Tests shorten the timeout to
 * 1 s; these check that a shortened one still never lets a second delivery run beside the first, when the
 * queue answers slowly or when the invocation outlives its own timeout (a local one cannot be stopped).
 */
import type { SQSEvent } from 'aws-lambda';
import { CreateQueueCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATED_REGION } from '../../config/emulated-aws';
import { PROJECT_ROOT } from '../../node/folders';
import { emulatorClientConfig } from '../../local/endpoints';
import { startEventSource } from '../../local/event-source';
import { patchFauxqs } from '../../local/fauxqs-internals';
import type { InvokeResult, LoadedFunction } from '../../local/functions';
import type { LambdaEvent } from '../../local/lambda-events';

let fauxqs: FauxqsServer;
let sqs: SQSClient;

beforeAll(async () => {
  await patchFauxqs(PROJECT_ROOT);
  fauxqs = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false, defaultRegion: EMULATED_REGION });
  sqs = new SQSClient(emulatorClientConfig(`http://127.0.0.1:${fauxqs.port}`));
});
afterAll(async () => fauxqs?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits for `condition`, checking every 50 ms; false after 30 s (a hang, not a pace). */
async function until(condition: () => boolean): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < 30_000; await sleep(50)) if (condition()) return true;
  return condition();
}

/** A FIFO queue with `count` messages in one group, and a consumer that records each delivery's span. */
async function consume(
  name: string,
  count: number,
  invoke: (event: LambdaEvent) => Promise<InvokeResult>,
  slowSqs?: SQSClient,
) {
  const { QueueUrl } = await sqs.send(
    new CreateQueueCommand({
      QueueName: `${name}.fifo`,
      Attributes: { FifoQueue: 'true', VisibilityTimeout: '1' },
    }),
  );
  const entries = Array.from({ length: count }, (_, i) => ({
    Id: String(i),
    MessageBody: `vote ${i}`,
    MessageGroupId: 'g',
    MessageDeduplicationId: `${name}-${i}`,
  }));
  await sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: entries }));
  const fn: LoadedFunction = {
    model: { logicalId: 'Consumer', name: 'Consumer', entry: '', handler: 'handler', timeoutSeconds: 5, memoryMb: 128 },
    invoke,
    environment: {},
  } as unknown as LoadedFunction;
  return startEventSource({
    mapping: {
      queueLogicalId: 'Q',
      functionLogicalId: 'Consumer',
      batchSize: 10,
      maxBatchingWindowSeconds: 0,
      reportBatchItemFailures: true,
    },
    sqs: slowSqs ?? sqs,
    queueUrl: QueueUrl!,
    queueArn: `arn:aws:sqs:${EMULATED_REGION}:000000000000:${name}.fifo`,
    fn,
    faults: {},
    pollers: 2,
    redeliverAfterSeconds: 1,
  });
}

describe('the local event source, with a shortened visibility timeout', () => {
  it('holds a batch while a slow invocation runs, though the queue answers slowly', async () => {
    // Every visibility change takes 2 s to reach the queue: holding a batch by extending it would let it lapse.
    const slowSqs = new SQSClient(emulatorClientConfig(`http://127.0.0.1:${fauxqs.port}`));
    slowSqs.middlewareStack.add(
      (next, context) => async (args) => {
        if (/ChangeMessageVisibility/.test(String(context.commandName))) await sleep(2_000);
        return next(args);
      },
      { step: 'initialize' },
    );
    const deliveries: string[] = [];
    let running = 0;
    let ended = 0;
    let overlapped = false;
    const source = await consume(
      'slow-queue',
      3,
      async (event) => {
        overlapped ||= running > 0;
        running++;
        deliveries.push(...(event as SQSEvent).Records.map((r) => r.body));
        await sleep(2_500); // longer than the shortened 1 s timeout
        running--;
        ended++;
        return { outcome: 'ok', result: { batchItemFailures: [] }, durationMs: 2_500 };
      },
      slowSqs,
    );
    // A lapsed batch would have gone to the other poller while this invocation ran.
    expect(await until(() => ended > 0)).toBe(true);
    await source.stop();
    expect(overlapped).toBe(false);
    expect(deliveries).toEqual(['vote 0', 'vote 1', 'vote 2']);
  });

  it('gives a timed-out invocation its batch until it is over, then delivers it again', async () => {
    const spans: Record<string, { start: number; end: number }> = {};
    const source = await consume('timeout-queue', 2, async () => {
      const start = Date.now();
      if (spans.timedOut) {
        spans.again ??= { start, end: start };
        return { outcome: 'ok', result: { batchItemFailures: [] }, durationMs: 0 };
      }
      // Timed out at once, its handler still running for 2.5 s (as a local one can: Lambda would stop it).
      spans.timedOut = { start, end: Infinity };
      const running = sleep(2_500).then(() => (spans.timedOut.end = Date.now()));
      return { outcome: 'timeout', running, durationMs: 1_000 };
    });
    expect(await until(() => spans.again !== undefined), 'the batch was delivered again').toBe(true);
    await source.stop();
    expect(spans.again.start).toBeGreaterThanOrEqual(spans.timedOut.end);
  });
});
