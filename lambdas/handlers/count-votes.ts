/**
 * The vote consumer: folds a batch of queued votes into one counter write per poll, or per
 * counter item of a poll sized for a hot one ("carpooling"), exactly once (see domain/tally.ts),
 * and reports the records it could not apply so that only they are retried. A record that fails
 * its last delivery is judged here rather than dead-lettered blind by SQS (see domain/dead-letter.ts).
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { VOTE_QUEUE } from '../../config/vote-queue';
import { NamedError } from '../../domain/errors';
import { applyExactlyOnce } from '../../domain/apply-exactly-once';
import { isLastDelivery, judgeLastDelivery, VERDICTS, type GuardsRead } from '../../domain/dead-letter';
import type { Clock, ConsumerMetrics, CountStore, DeadLetterSink, Log } from '../../domain/ports';
import { planBatch, readRecord, type PollTally, type QueuedRecord, type RedrivenVote } from '../../domain/tally';
import { counterId, counterOfVote, type CounterRef } from '../../domain/vote';

export interface CountVotesPorts {
  counts: CountStore;
  deadLetters: DeadLetterSink;
  log: Log & { info(message: string, ...details: unknown[]): void };
  metrics: ConsumerMetrics;
  clock?: Clock;
}

/** A record this delivery could not settle, and why: the queue delivers it again. */
export interface RecordFailure {
  messageId: string;
  reason: string;
}

/**
 * Thrown when no record of a batch could be settled: Lambda counts it in Errors (its metric, and
 * the failures alarm), and SQS delivers the whole batch again. Carries each record's failure.
 */
export class BatchFailedError extends NamedError {
  override readonly name = 'BatchFailedError';
  constructor(readonly failures: readonly RecordFailure[]) {
    const reasons = [...new Set(failures.map((f) => f.reason))];
    super(`every record of the batch failed (${failures.length}): ${reasons.join('; ')}`);
  }
}

/** The consumer's view of an SQS record: what exactly-once needs, nothing of the event's shape. */
export const toQueuedRecord = (record: SQSRecord): QueuedRecord => ({
  messageId: record.messageId,
  body: record.body,
  groupId: record.attributes.MessageGroupId,
  sequenceNumber: record.attributes.SequenceNumber,
  receiveCount: Number(record.attributes.ApproximateReceiveCount),
});

const POLL_MISSING = 'the poll no longer exists';

/**
 * The consumer's Lambda handler, built from its ports. Each step returns the failures of its
 * records; none is thrown but BatchFailedError, when every record of the batch failed.
 */
export function countVotesHandler({ counts, deadLetters, log, metrics, clock = Date.now }: CountVotesPorts) {
  /** Runs one step over some records: none of them failed, or all of them with its reason (an error is logged). */
  async function step(
    messageIds: readonly string[],
    context: object,
    apply: () => Promise<string | undefined>,
  ): Promise<RecordFailure[]> {
    let reason: string | undefined;
    try {
      reason = await apply();
    } catch (error) {
      log.error('could not apply votes', { ...context, error: error as Error });
      reason = `could not apply: ${(error as Error).message}`;
    }
    return reason === undefined ? [] : messageIds.map((messageId) => ({ messageId, reason }));
  }

  /** One counter item's votes, exactly once (domain/apply-exactly-once.ts). */
  const countTally = (tally: PollTally, nowIso: string) =>
    step(tally.messageIds, { pollId: tally.pollId, counter: tally.counter }, async () => {
      const outcome = await applyExactlyOnce(counts, tally, nowIso);
      if (outcome.conflicts > 0) metrics.add('WriteConflicts', outcome.conflicts);
      if (outcome.kind === 'applied') {
        if (outcome.counted > 0) metrics.add('VotesCounted', outcome.counted);
        return undefined;
      }
      if (outcome.kind === 'exhausted') return `still conflicting after ${VOTE_QUEUE.maxWriteAttempts} writes`;
      log.error('votes for a poll that no longer exists', { pollId: tally.pollId });
      return POLL_MISSING;
    });

  /** Rare: a vote put back by `npm run dlq -- redrive`, counted once by its id. */
  const countRedriven = (vote: RedrivenVote, nowIso: string) =>
    step([vote.messageId], { pollId: vote.pollId, voteId: vote.voteId }, async () => {
      if ((await counts.applyRedrivenVote(vote, nowIso)) === 'poll-missing') return POLL_MISSING;
      metrics.add('VotesCounted', 1);
      return undefined;
    });

  /** The guards of each counter item the records are counted in, or 'unreachable' when they could not be read. */
  async function guardsOf(records: QueuedRecord[]): Promise<(item: CounterRef) => GuardsRead> {
    const items = new Map<string, CounterRef>();
    for (const queued of records.map(readRecord)) {
      if (!queued) continue;
      const item = counterOfVote(queued.vote);
      items.set(counterId(item), item);
    }
    const guards = new Map<string, GuardsRead>();
    await Promise.all(
      [...items].map(async ([key, item]) => {
        guards.set(key, await counts.readGuards(item).catch((): 'unreachable' => 'unreachable'));
      }),
    );
    return (item) => guards.get(counterId(item));
  }

  /** A failed record on its last delivery: settled (acknowledged or dead-lettered), or still a failure. */
  async function settle(
    record: QueuedRecord,
    guards: (item: CounterRef) => GuardsRead,
  ): Promise<RecordFailure | undefined> {
    const verdict = judgeLastDelivery(record, guards);
    try {
      if (verdict !== 'counted') {
        await deadLetters.send(record, verdict);
        metrics.deadLettered(verdict);
      }
      log.warn('last delivery settled', { messageId: record.messageId, verdict });
      return undefined;
    } catch (error) {
      log.error('could not dead-letter a record', { messageId: record.messageId, verdict, error: error as Error });
      return { messageId: record.messageId, reason: `could not dead-letter (${verdict}): ${(error as Error).message}` };
    }
  }

  /**
   * Failures on their last delivery: acknowledged if an earlier delivery counted them, otherwise
   * dead-lettered with a verdict. Returns what still fails: the others, and a record whose letter
   * could not be sent (SQS dead-letters it then, verdict unknown).
   */
  async function settleLastDeliveries(records: QueuedRecord[], failures: RecordFailure[]): Promise<RecordFailure[]> {
    const failed = new Set(failures.map((f) => f.messageId));
    const last = records.filter((r) => failed.has(r.messageId) && isLastDelivery(r));
    if (last.length === 0) return failures;
    const guards = await guardsOf(last);
    const unsettled = await Promise.all(last.map((record) => settle(record, guards)));
    const settling = new Set(last.map((r) => r.messageId));
    return [...failures.filter((f) => !settling.has(f.messageId)), ...unsettled.filter((f) => f !== undefined)];
  }

  /** Every step of a batch; the failures that remain. */
  async function countBatch(records: QueuedRecord[]): Promise<RecordFailure[]> {
    const plan = planBatch(records);
    if (plan.malformed.length > 0) log.warn('malformed vote messages', { messageIds: plan.malformed });
    const nowIso = new Date(clock()).toISOString();
    const stepFailures = await Promise.all([
      ...plan.tallies.map((tally) => countTally(tally, nowIso)),
      ...plan.redriven.map((vote) => countRedriven(vote, nowIso)),
    ]);
    const malformed = plan.malformed.map((messageId) => ({ messageId, reason: VERDICTS.malformed }));
    const failures = await settleLastDeliveries(records, [...malformed, ...stepFailures.flat()]);
    metrics.add('Batches', 1);
    metrics.add('RecordsFailed', failures.length);
    log.info('batch counted', {
      records: records.length,
      polls: plan.tallies.length,
      redriven: plan.redriven.length,
      failed: failures.length,
    });
    return failures;
  }

  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const records = event.Records.map(toQueuedRecord);
    let failures: RecordFailure[];
    try {
      failures = await countBatch(records);
    } finally {
      metrics.publish();
    }
    // Every record failed: returning them all would leave Lambda's Errors metric at 0. Throwing
    // returns the whole batch just the same, and the failure shows where operators look.
    if (records.length > 0 && failures.length === records.length) throw new BatchFailedError(failures);
    return { batchItemFailures: failures.map(({ messageId }) => ({ itemIdentifier: messageId })) };
  };
}
