/**
 * What the vote path's rates a vote are made of: a counter item's size, a batch's queue requests, and what a load
 * test may measure instead. The rates themselves: sizing/vote-rates.ts.
 */
/** What a load test measured of the vote path; each replaces the rate derived from traffic. */
export interface MeasuredVoteRates {
  votesPerBatch?: number;
  counterWriteUnitsPerVote?: number;
  sqsRequestsPerVote?: number;
}

/** What the vote path's rates depend on in a stack. */
export interface VotePathShape {
  consumer: { batchSize: number };
  votePath: { groupsPerPoll: number; counterShards: number };
}

/**
 * A counter item's size: its keys, counts and times, and a mark per message group counted in it (the
 * group's shard and its last sequence number, 40 digits). Measured: 574 write units for 331 counter
 * writes with ~34 groups an item (test/local/hot-poll.test.ts, the local runtime's metering).
 */
export const COUNTER_ITEM_BYTES = { base: 250, perGroupMark: 46 } as const;

/** The consumer's rates at one poll's votes a second. */
export interface VoteRates {
  /** Votes a FIFO batch holds: what one counter write and one invocation carry. */
  votesPerBatch: number;
  /** One conditional UpdateItem per poll's counter per batch. */
  counterWritesPerVote: number;
  /** Those writes' units: a write per KB of the counter item (counterWriteUnits). */
  counterWriteUnitsPerVote: number;
  /** A SendMessage per vote, and a receive and a batch delete per batch. */
  sqsRequestsPerVote: number;
}

/** What the consumer's event source asks of SQS for each batch: one receive and one batch delete. */
export const SQS_REQUESTS_PER_BATCH = 2;
