/**
 * Carpooling: fold a batch of queued votes into one counter write per poll (per counter item of
 * the poll, for a poll sized for a hot one: each item keeps the marks of its own groups).
 *
 * Exactness rests on FIFO order. Within a message group, messages are delivered
 * in sequence-number order and the next batch of a group is not delivered while
 * one is in flight. The consumer applies all of a group's votes in a batch in
 * one conditional write that also records the group's last applied sequence
 * number (its high-water mark). So the applied votes of a group are always a
 * prefix of it, and a redelivered vote is one whose sequence number is at or
 * below the mark: it is skipped, never counted twice.
 */
import { counterId, counterOfVote, parseVoteMessage, shardOfGroup, type CounterRef, type VoteMessage } from './vote';

/** A queue record as the consumer sees it, independent of the SQS event shape. */
export interface QueuedRecord {
  messageId: string;
  body: string;
  groupId?: string;
  sequenceNumber?: string;
  /** How many times SQS has delivered it (ApproximateReceiveCount), this delivery included. */
  receiveCount?: number;
}

interface CountedVote {
  messageId: string;
  shard: string;
  /** Zero-padded to 40 digits so that string order is numeric order. */
  seq: string;
  option: number;
}

/** Everything one conditional write applies to one counter item of a poll (0: its first, often its only one). */
export interface PollTally extends CounterRef {
  /** Votes per option index (only options that got votes). */
  votes: Record<string, number>;
  total: number;
  /** Per message-group shard: the first and last sequence number applied. */
  marks: Record<string, { first: string; last: string }>;
  messageIds: string[];
  /** Kept so the tally can be redone without already-applied votes. */
  readonly counted: readonly CountedVote[];
}

/** A vote put back by a redrive: counted on its own, guarded by its vote id. */
export interface RedrivenVote extends CounterRef {
  messageId: string;
  voteId: string;
  option: number;
}

export interface BatchPlan {
  tallies: PollTally[];
  redriven: RedrivenVote[];
  /** Records that are not votes we produced: they go to the dead-letter queue. */
  malformed: string[];
}

/** SQS sequence numbers are up to 128-bit decimals: compare them as padded strings. */
export const padSequence = (seq: string): string => seq.padStart(40, '0');

function tallyOf(item: CounterRef, counted: readonly CountedVote[]): PollTally {
  const votes: Record<string, number> = {};
  const marks: Record<string, { first: string; last: string }> = {};
  for (const vote of counted) {
    votes[vote.option] = (votes[vote.option] ?? 0) + 1;
    const mark = marks[vote.shard];
    if (!mark) marks[vote.shard] = { first: vote.seq, last: vote.seq };
    else {
      if (vote.seq < mark.first) mark.first = vote.seq;
      if (vote.seq > mark.last) mark.last = vote.seq;
    }
  }
  const messageIds = counted.map((v) => v.messageId);
  const { pollId, counter, layout } = item;
  return { pollId, counter, ...(layout && { layout }), votes, total: counted.length, marks, messageIds, counted };
}

/** The vote in a record, its group's shard and its padded sequence number; null when it is not a vote we produced. */
export function readRecord(record: QueuedRecord): { vote: VoteMessage; shard: string; seq: string } | null {
  const vote = parseVoteMessage(record.body);
  const shard = vote && shardOfGroup(record.groupId, vote.pollId);
  if (!vote || shard === null || !record.sequenceNumber || !/^\d+$/.test(record.sequenceNumber)) return null;
  return { vote, shard, seq: padSequence(record.sequenceNumber) };
}

/** Groups a batch by poll and counter item. Pure: the same records always give the same plan. */
export function planBatch(records: readonly QueuedRecord[]): BatchPlan {
  const byCounter = new Map<string, { item: CounterRef; counted: CountedVote[] }>();
  const redriven: RedrivenVote[] = [];
  const malformed: string[] = [];
  for (const record of records) {
    const queued = readRecord(record);
    if (!queued) {
      malformed.push(record.messageId);
      continue;
    }
    const { vote, shard, seq } = queued;
    const { voteId, option } = vote;
    const item = counterOfVote(vote);
    if (vote.redriven) {
      redriven.push({ messageId: record.messageId, ...item, voteId, option });
      continue;
    }
    const key = counterId(item);
    const entry = byCounter.get(key) ?? { item, counted: [] };
    entry.counted.push({ messageId: record.messageId, shard, seq, option });
    byCounter.set(key, entry);
  }
  const tallies = [...byCounter.values()].map((t) => tallyOf(t.item, t.counted));
  return { tallies, redriven, malformed };
}

/**
 * The same tally without the votes a previous delivery already applied, given
 * the stored high-water marks. Returns null when nothing is left to apply.
 */
export function withoutApplied(tally: PollTally, applied: Record<string, string>): PollTally | null {
  const left = tally.counted.filter((vote) => applied[vote.shard] === undefined || vote.seq > applied[vote.shard]);
  return left.length === 0 ? null : tallyOf(tally, left);
}
