/**
 * The vote consumer: folds a batch of queued votes into one counter write per poll
 * ("carpooling"), exactly once (see domain/tally.ts), and reports the records it could not
 * apply so that only they are retried. A record that fails its last delivery is judged here
 * rather than dead-lettered blind by SQS (see domain/dead-letter.ts).
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { VOTE_QUEUE, type ConsumerMetricName } from '../../config/app-config';
import { isLastDelivery, judgeLastDelivery, type GuardsRead, type Verdict } from '../domain/dead-letter';
import type { Clock, CountStore, DeadLetterSink } from '../domain/ports';
import { planBatch, readRecord, withoutApplied, type PollTally, type QueuedRecord } from '../domain/tally';
import type { Log } from './http';

/** What the consumer counts for CloudWatch; Powertools Metrics on Lambda (lambdas/adapters/metrics.ts). */
export interface ConsumerMetrics {
  add(name: ConsumerMetricName, value: number): void;
  deadLettered(verdict: Verdict): void;
  /** Writes what was added (one log line); called once per invocation. */
  publish(): void;
}

export interface CountVotesPorts {
  counts: CountStore;
  deadLetters: DeadLetterSink;
  log: Log & { info(message: string, ...details: unknown[]): void };
  metrics: ConsumerMetrics;
  clock?: Clock;
}

/** Thrown when no record of a batch could be settled: Lambda counts it in Errors (its metric, and the failures alarm). */
export class BatchFailedError extends Error {}

/** The consumer's view of an SQS record: what exactly-once needs, nothing of the event's shape. */
export const toQueuedRecord = (record: SQSRecord): QueuedRecord => ({
  messageId: record.messageId,
  body: record.body,
  groupId: record.attributes.MessageGroupId,
  sequenceNumber: record.attributes.SequenceNumber,
  receiveCount: Number(record.attributes.ApproximateReceiveCount),
});

export function countVotesHandler({ counts, deadLetters, log, metrics, clock = Date.now }: CountVotesPorts) {
  /** Applies one poll's tally; true when every vote in it is now counted (by this or an earlier delivery). */
  async function applyExactlyOnce(tally: PollTally, nowIso: string): Promise<boolean> {
    let pending: PollTally | null = tally;
    for (let attempt = 0; pending && attempt < VOTE_QUEUE.maxWriteAttempts; attempt++) {
      const outcome = await counts.applyTally(pending, nowIso);
      if (outcome.kind === 'applied') {
        metrics.add('VotesCounted', pending.total);
        return true;
      }
      if (outcome.kind === 'poll-missing') {
        log.error('votes for a poll that no longer exists', { pollId: tally.pollId });
        return false;
      }
      metrics.add('WriteConflicts', 1);
      pending = withoutApplied(pending, outcome.applied);
    }
    return pending === null;
  }

  /** Runs `apply`; on false or an error, the records are failures of this delivery. */
  async function orFail(
    messageIds: string[],
    failed: Set<string>,
    context: object,
    apply: () => Promise<boolean>,
  ): Promise<void> {
    try {
      if (await apply()) return;
    } catch (error) {
      log.error('could not apply votes', { ...context, error: error as Error });
    }
    for (const id of messageIds) failed.add(id);
  }

  /**
   * Failed records on their last delivery: acknowledged if an earlier delivery counted them,
   * otherwise dead-lettered with a verdict. Returns the ids settled either way; a record whose
   * letter could not be sent stays failed, and SQS dead-letters it (verdict unknown).
   */
  async function settleLastDeliveries(records: QueuedRecord[]): Promise<string[]> {
    const pollIds = new Set(records.map((r) => readRecord(r)?.vote.pollId).filter((id) => id !== undefined));
    const guards = new Map<string, GuardsRead>();
    await Promise.all(
      [...pollIds].map(async (pollId) => {
        guards.set(pollId, await counts.readGuards(pollId).catch((): 'unreachable' => 'unreachable'));
      }),
    );
    const settled = await Promise.all(
      records.map(async (record) => {
        const verdict = judgeLastDelivery(record, (pollId) => guards.get(pollId));
        try {
          if (verdict !== 'counted') {
            await deadLetters.send(record, verdict);
            metrics.deadLettered(verdict);
          }
          log.warn('last delivery settled', { messageId: record.messageId, verdict });
          return [record.messageId];
        } catch (error) {
          log.error('could not dead-letter a record', { messageId: record.messageId, verdict, error: error as Error });
          return [];
        }
      }),
    );
    return settled.flat();
  }

  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const records = event.Records.map(toQueuedRecord);
    const plan = planBatch(records);
    const failed = new Set(plan.malformed);
    if (plan.malformed.length > 0) log.warn('malformed vote messages', { messageIds: plan.malformed });
    try {
      const nowIso = new Date(clock()).toISOString();
      await Promise.all([
        ...plan.tallies.map((tally) =>
          orFail(tally.messageIds, failed, { pollId: tally.pollId }, () => applyExactlyOnce(tally, nowIso)),
        ),
        // Rare: votes put back by `npm run dlq -- redrive`, each counted once by its id.
        ...plan.redriven.map((vote) =>
          orFail([vote.messageId], failed, { pollId: vote.pollId, voteId: vote.voteId }, async () => {
            const applied = (await counts.applyRedrivenVote(vote, nowIso)) === 'applied';
            if (applied) metrics.add('VotesCounted', 1);
            return applied;
          }),
        ),
      ]);
      const lastDeliveries = records.filter((r) => failed.has(r.messageId) && isLastDelivery(r));
      if (lastDeliveries.length > 0) for (const id of await settleLastDeliveries(lastDeliveries)) failed.delete(id);

      metrics.add('Batches', 1);
      metrics.add('RecordsFailed', failed.size);
      log.info('batch counted', {
        records: records.length,
        polls: plan.tallies.length,
        redriven: plan.redriven.length,
        failed: failed.size,
      });
    } finally {
      metrics.publish();
    }
    // Every record failed: returning them all would leave Lambda's Errors metric at 0. Throwing
    // returns the whole batch just the same, and the failure shows where operators look.
    if (records.length > 0 && failed.size === records.length)
      throw new BatchFailedError(`every record of the batch failed (${records.length})`);
    return { batchItemFailures: [...failed].map((itemIdentifier) => ({ itemIdentifier })) };
  };
}
