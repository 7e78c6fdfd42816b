/**
 * The consumer built from in-memory ports: partial failures, a batch that fails whole, the
 * judgement on a last delivery, and what it reports as metrics. The conditional write itself
 * is tested against DynamoDB's emulator (test/integration).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { VOTE_QUEUE } from '../../config/vote-queue';
import { padSequence } from '../../domain/tally';
import { counterRef } from '../../domain/vote';
import { BatchFailedError, countVotesHandler } from '../../lambdas/handlers/count-votes';
import { sqsRecord, voteBody, voteRecord } from '../support/factories';
import { FakeDeadLetters, FakeMetrics, MemoryLog, ScriptedCountStore } from '../support/fakes';

const A = 'A'.repeat(21);
const B = 'B'.repeat(21);
const LAST = VOTE_QUEUE.maxReceiveCount;

let counts: ScriptedCountStore;
let deadLetters: FakeDeadLetters;
let metrics: FakeMetrics;
let consume: ReturnType<typeof countVotesHandler>;

beforeEach(() => {
  counts = new ScriptedCountStore();
  deadLetters = new FakeDeadLetters();
  metrics = new FakeMetrics();
  consume = countVotesHandler({ counts, deadLetters, log: new MemoryLog(), metrics });
});

const failures = (response: { batchItemFailures: Array<{ itemIdentifier: string }> }) =>
  response.batchItemFailures.map((f) => f.itemIdentifier).sort();

describe('the consumer', () => {
  it('writes once per poll per batch and counts what it wrote', async () => {
    const records = [voteRecord(A, 0), voteRecord(A, 1, { shard: 2 }), voteRecord(B, 2), voteRecord(A, 0)];
    expect(await consume({ Records: records })).toEqual({ batchItemFailures: [] });
    expect(counts.applied.map((t) => [t.pollId, t.total])).toEqual([
      [A, 3],
      [B, 1],
    ]);
    expect(metrics.totals).toEqual({ VotesCounted: 4, Batches: 1, RecordsFailed: 0 });
    expect(metrics.published).toBe(1);
  });

  it('writes once per counter item of a sized poll per batch, each with its own groups’ marks', async () => {
    const records = Array.from({ length: 10 }, (_, i) =>
      voteRecord(A, i % 2, { shard: i % 4, body: voteBody(A, i % 2, { counter: i % 2 }) }),
    );
    expect(await consume({ Records: records })).toEqual({ batchItemFailures: [] });
    expect(counts.applied.map((t) => [t.counter, t.total, Object.keys(t.marks).sort()])).toEqual([
      [0, 5, ['0', '2']],
      [1, 5, ['1', '3']],
    ]);
    expect(metrics.totals).toMatchObject({ VotesCounted: 10 });
  });

  it('writes an item k > 0 where its votes’ layout puts it, apart from the same k in the other layout', async () => {
    const body = (i: number) =>
      i % 2 === 0 ? voteBody(A, 0, { counter: 1, counterLayout: 'partition-keys' }) : voteBody(A, 1, { counter: 1 });
    const records = Array.from({ length: 4 }, (_, i) => voteRecord(A, i % 2, { shard: 1, body: body(i) }));
    expect(await consume({ Records: records })).toEqual({ batchItemFailures: [] });
    expect(counts.applied.map((t) => [t.counter, t.layout, t.total])).toEqual([
      [1, 'partition-keys', 2],
      [1, 'sort-keys', 2],
    ]);
  });

  it('returns only the records of the poll whose write failed', async () => {
    counts.script.set(B, ['throw']);
    const a = voteRecord(A, 0);
    const b = [voteRecord(B, 1), voteRecord(B, 2)];
    expect(failures(await consume({ Records: [a, ...b] }))).toEqual(b.map((r) => r.messageId).sort());
    expect(metrics.totals).toMatchObject({ VotesCounted: 1, RecordsFailed: 2 });
  });

  it('fails the invocation if every record failed, so the Errors alarm sees it; still publishes metrics', async () => {
    counts.script.set(A, ['throw']);
    const junk = sqsRecord('{"not":"a vote"}', { groupId: `${A}.0` });
    const votes = [voteRecord(A, 0), voteRecord(A, 1)];
    const thrown = await consume({ Records: [junk, ...votes] }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(BatchFailedError);
    expect((thrown as BatchFailedError).name).toBe('BatchFailedError');
    expect((thrown as BatchFailedError).failures).toEqual([
      { messageId: junk.messageId, reason: 'not a vote this app produced' },
      ...votes.map((v) => ({ messageId: v.messageId, reason: 'could not apply: Injected throttle' })),
    ]);
    expect((thrown as Error).message).toBe(
      'every record of the batch failed (3): not a vote this app produced; could not apply: Injected throttle',
    );
    expect(metrics.totals).toMatchObject({ Batches: 1, RecordsFailed: 3 });
    expect(metrics.published).toBe(1);
  });

  it('after a write conflict, applies only what an earlier delivery did not, and counts the conflict', async () => {
    const first = voteRecord(A, 0);
    const second = voteRecord(A, 1);
    // The stored mark says the first was applied (a redelivery after a lost acknowledgement).
    counts.script.set(A, [{ kind: 'conflict', applied: { 0: padSequence(first.attributes.SequenceNumber!) } }]);
    expect(await consume({ Records: [first, second] })).toEqual({ batchItemFailures: [] });
    expect(counts.applied.map((t) => t.messageIds)).toEqual([[second.messageId]]);
    expect(metrics.totals).toMatchObject({ WriteConflicts: 1, VotesCounted: 1 });
  });

  it('reports what is not one of our votes as failed, without holding back the rest', async () => {
    const junk = sqsRecord('{"not":"a vote"}', { groupId: `${A}.0` });
    const good = voteRecord(A, 1);
    expect(failures(await consume({ Records: [junk, good] }))).toEqual([junk.messageId]);
    expect(counts.applied).toHaveLength(1);
  });
});

describe('a record’s last delivery', () => {
  it('is acknowledged when an earlier delivery counted it, and dead-lettered as unapplied otherwise', async () => {
    counts.script.set(A, ['throw']);
    const counted = voteRecord(A, 0, { receiveCount: LAST, sequenceNumber: '100' });
    const uncounted = voteRecord(A, 1, { receiveCount: LAST, sequenceNumber: '200', shard: 1 });
    counts.setGuards(counterRef(A, 0), {
      applied: { 0: padSequence('100'), 1: padSequence('150') },
      redriven: new Set(),
    });
    expect(await consume({ Records: [counted, uncounted] })).toEqual({ batchItemFailures: [] });
    expect(deadLetters.letters.map((l) => [l.record.messageId, l.verdict])).toEqual([
      [uncounted.messageId, 'unapplied'],
    ]);
    expect(metrics.totals).toMatchObject({ 'DeadLettered:unapplied': 1, RecordsFailed: 0 });
  });

  it('is judged by the marks of the counter item its vote names', async () => {
    counts.script.set(A, ['throw', 'throw']);
    const inOne = (seq: string, option: number) =>
      voteRecord(A, option, {
        receiveCount: LAST,
        sequenceNumber: seq,
        shard: 1,
        body: voteBody(A, option, { counter: 1 }),
      });
    // Item 0 knows nothing of group 1; item 1 applied it up to 150.
    counts.setGuards(counterRef(A, 0), { applied: {}, redriven: new Set() });
    counts.setGuards(counterRef(A, 1), { applied: { 1: padSequence('150') }, redriven: new Set() });
    const [counted, uncounted] = [inOne('100', 0), inOne('200', 1)];
    expect(await consume({ Records: [counted, uncounted] })).toEqual({ batchItemFailures: [] });
    expect(deadLetters.letters.map((l) => [l.record.messageId, l.verdict])).toEqual([
      [uncounted.messageId, 'unapplied'],
    ]);
  });

  it('is judged by its item on a key of its own when its vote says the poll is laid out so', async () => {
    counts.script.set(A, ['throw']);
    // The same item k under the poll's key (a poll created before layouts) would say nothing was applied.
    counts.setGuards(counterRef(A, 1), { applied: {}, redriven: new Set() });
    counts.setGuards(counterRef(A, 1, 'partition-keys'), { applied: { 1: padSequence('150') }, redriven: new Set() });
    const body = voteBody(A, 0, { counter: 1, counterLayout: 'partition-keys' });
    const counted = voteRecord(A, 0, { receiveCount: LAST, sequenceNumber: '100', shard: 1, body });
    expect(await consume({ Records: [counted] })).toEqual({ batchItemFailures: [] });
    expect(deadLetters.letters).toEqual([]);
  });

  it('is dead-lettered as unknown if its marks are unreadable; stays failed if the letter cannot be sent', async () => {
    counts.script.set(A, ['throw', 'throw']);
    counts.setGuards(counterRef(A, 0), 'throw');
    const record = voteRecord(A, 0, { receiveCount: LAST });
    expect(await consume({ Records: [record] })).toEqual({ batchItemFailures: [] });
    expect(deadLetters.letters.map((l) => l.verdict)).toEqual(['unknown']);

    deadLetters.failWith = new Error('SQS unreachable');
    // SQS then moves it itself (verdict unknown): the invocation fails, as nothing was settled.
    const last = voteRecord(A, 0, { receiveCount: LAST, body: voteBody(A, 0) });
    await expect(consume({ Records: [last] })).rejects.toThrow(
      expect.objectContaining({
        failures: [{ messageId: last.messageId, reason: 'could not dead-letter (unknown): SQS unreachable' }],
      }),
    );
  });
});
