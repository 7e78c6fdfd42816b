/**
 * The exactly-once write of one poll's tally over the CountStore port, with a store that answers
 * as a script says (what DynamoDB's condition does is tested against its emulator, test/integration).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { VOTE_QUEUE } from '../../../config/vote-queue';
import { applyExactlyOnce } from '../../../domain/apply-exactly-once';
import { padSequence, planBatch, type PollTally } from '../../../domain/tally';
import { NOW, queuedVote } from '../../support/factories';
import { ScriptedCountStore } from '../../support/fakes';

const A = 'A'.repeat(21);
const NOW_ISO = new Date(NOW).toISOString();

let counts: ScriptedCountStore;
beforeEach(() => {
  counts = new ScriptedCountStore();
});

/** Three votes for A: two in shard 0 (sequence 100, 200), one in shard 1 (sequence 300). */
function tallyOfThree(): PollTally {
  const records = [
    queuedVote(A, 0, { shard: 0, sequenceNumber: '100' }),
    queuedVote(A, 1, { shard: 0, sequenceNumber: '200' }),
    queuedVote(A, 2, { shard: 1, sequenceNumber: '300' }),
  ];
  return planBatch(records).tallies[0];
}

describe('applying a tally exactly once', () => {
  it('writes it once when nothing of it was applied before', async () => {
    const tally = tallyOfThree();
    expect(await applyExactlyOnce(counts, tally, NOW_ISO)).toEqual({ kind: 'applied', counted: 3, conflicts: 0 });
    expect(counts.applied).toEqual([tally]);
  });

  it('after a conflict, writes again without the votes the stored marks say were applied', async () => {
    const tally = tallyOfThree();
    counts.script.set(A, [{ kind: 'conflict', applied: { 0: padSequence('100') } }]);
    expect(await applyExactlyOnce(counts, tally, NOW_ISO)).toEqual({ kind: 'applied', counted: 2, conflicts: 1 });
    expect(counts.applied).toHaveLength(1);
    expect(counts.applied[0].messageIds).toEqual(tally.messageIds.slice(1));
    expect(counts.applied[0].votes).toEqual({ 1: 1, 2: 1 });
  });

  it('writes nothing more when an earlier delivery applied every vote', async () => {
    counts.script.set(A, [{ kind: 'conflict', applied: { 0: padSequence('200'), 1: padSequence('300') } }]);
    expect(await applyExactlyOnce(counts, tallyOfThree(), NOW_ISO)).toEqual({
      kind: 'applied',
      counted: 0,
      conflicts: 1,
    });
    expect(counts.applied).toEqual([]);
  });

  it('says so when the poll is gone, and does not write again', async () => {
    counts.script.set(A, [{ kind: 'poll-missing' }, { kind: 'applied' }]);
    expect(await applyExactlyOnce(counts, tallyOfThree(), NOW_ISO)).toEqual({ kind: 'poll-missing', conflicts: 0 });
    expect(counts.applied).toEqual([]);
    expect(counts.script.get(A)).toHaveLength(1);
  });

  it('gives up after the configured number of writes when every one races another', async () => {
    // Each conflict says nothing of this tally was applied: another writer keeps moving the item.
    const racing = Array.from({ length: VOTE_QUEUE.maxWriteAttempts }, () => ({
      kind: 'conflict' as const,
      applied: {},
    }));
    counts.script.set(A, [...racing, { kind: 'applied' }]);
    expect(await applyExactlyOnce(counts, tallyOfThree(), NOW_ISO)).toEqual({
      kind: 'exhausted',
      conflicts: VOTE_QUEUE.maxWriteAttempts,
    });
    expect(counts.applied).toEqual([]);
    expect(counts.script.get(A)).toEqual([{ kind: 'applied' }]);
  });

  it('passes a store error on, having counted nothing', async () => {
    counts.script.set(A, ['throw']);
    await expect(applyExactlyOnce(counts, tallyOfThree(), NOW_ISO)).rejects.toThrow('Injected throttle');
    expect(counts.applied).toEqual([]);
  });
});
