/**
 * The vote path's rates a vote: how many votes a FIFO batch folds, and the counter writes and queue requests
 * that follow. The stack sizes its vote path with them (sizing/vote-path.ts) and the estimator bills and
 * judges with them (cost/estimate/shares.ts, stages.ts): defined once, here where both read. Pure.
 */
import {
  COUNTER_ITEM_BYTES,
  type MeasuredVoteRates,
  SQS_REQUESTS_PER_BATCH,
  type VotePathShape,
  type VoteRates,
} from '../config/vote-rates';
import { quota } from './quotas';

/** Write units one counter write takes: DynamoDB bills a write per KB of the item, marks included. */
export function counterWriteUnits(votePath: VotePathShape['votePath']): number {
  const groups = Math.ceil(votePath.groupsPerPoll / votePath.counterShards);
  return Math.ceil((COUNTER_ITEM_BYTES.base + groups * COUNTER_ITEM_BYTES.perGroupMark) / 1024);
}

/**
 * Votes in a batch of one message group: a group has one batch in flight at a time, and Lambda
 * receives its next batch as soon as that one is done, with no batching window (FIFO event sources
 * have none). So a batch holds the votes that arrived while the last one was processed, at least
 * the one that woke an idle group, at most the batch size: with x = votes a second in the group ×
 * the cycle in seconds (Poisson arrivals), E[batch] = P(none arrived) + E[min(arrivals, size); arrivals ≥ 1].
 * Sparse polls get about one vote a batch; a storm fills batches.
 */
export function votesPerBatch(votesPerSecondPerGroup: number, batchSize: number, cycleMs: number): number {
  const x = Math.max(0, votesPerSecondPerGroup) * (cycleMs / 1000);
  if (x >= batchSize * 4) return batchSize;
  let p = Math.exp(-x);
  let expected = p;
  let below = p;
  for (let k = 1; k < batchSize; k++) {
    p *= x / k;
    expected += k * p;
    below += p;
  }
  return expected + batchSize * Math.max(0, 1 - below);
}

/**
 * The vote path's rates for a poll taking `pollVotesPerSecond`, over its message groups, the
 * consumer's `cycleMs` a batch: measured figures where a load test gave them.
 */
export function voteRates(
  pollVotesPerSecond: number,
  stack: VotePathShape,
  cycleMs: number,
  measured: MeasuredVoteRates = {},
): VoteRates {
  const batch = Math.min(stack.consumer.batchSize, quota('fifoEventSourceBatchSize'));
  const perBatch =
    measured.votesPerBatch ?? votesPerBatch(pollVotesPerSecond / stack.votePath.groupsPerPoll, batch, cycleMs);
  return {
    votesPerBatch: perBatch,
    counterWritesPerVote: 1 / perBatch,
    counterWriteUnitsPerVote: measured.counterWriteUnitsPerVote ?? counterWriteUnits(stack.votePath) / perBatch,
    sqsRequestsPerVote: measured.sqsRequestsPerVote ?? 1 + SQS_REQUESTS_PER_BATCH / perBatch,
  };
}
