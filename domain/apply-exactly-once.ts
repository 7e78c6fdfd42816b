/**
 * One poll's tally, applied exactly once over the CountStore port (tally.ts says why this is
 * exact): the write carries the groups' marks; a conflict says which votes an earlier delivery
 * applied, and the rest is written again without them, a bounded number of times.
 */
import { VOTE_QUEUE } from '../config/vote-queue';
import type { CountStore } from './ports';
import { withoutApplied, type PollTally } from './tally';

export type ExactlyOnceOutcome =
  /** Every vote of the tally is counted: `counted` of them by this call (0: an earlier delivery counted them all). */
  | { kind: 'applied'; counted: number; conflicts: number }
  | { kind: 'poll-missing'; conflicts: number }
  /** Still racing after the last attempt: nothing is lost, the queue delivers the records again. */
  | { kind: 'exhausted'; conflicts: number };

/**
 * Applies a tally, retrying without what a conflict says was applied, at most `maxAttempts`
 * writes. Never counts a vote twice; an error of the store (throttled, unreachable) is thrown.
 */
export async function applyExactlyOnce(
  counts: CountStore,
  tally: PollTally,
  nowIso: string,
  maxAttempts: number = VOTE_QUEUE.maxWriteAttempts,
): Promise<ExactlyOnceOutcome> {
  let pending: PollTally | null = tally;
  let conflicts = 0;
  for (let attempt = 0; pending && attempt < maxAttempts; attempt++) {
    const outcome = await counts.applyTally(pending, nowIso);
    if (outcome.kind === 'applied') return { kind: 'applied', counted: pending.total, conflicts };
    if (outcome.kind === 'poll-missing') return { kind: 'poll-missing', conflicts };
    conflicts++;
    pending = withoutApplied(pending, outcome.applied);
  }
  return pending ? { kind: 'exhausted', conflicts } : { kind: 'applied', counted: 0, conflicts };
}
