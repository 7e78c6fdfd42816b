import type { Poll } from './poll';

/** The running counts of a poll, as stored by the consumer. */
export interface PollCounts {
  /** Votes per option index, as a map because DynamoDB ADDs to map entries. */
  votes: Record<string, number>;
  total: number;
  optionCount: number;
  updatedAt: string;
  closesAt: number;
  expiresAt: number;
}

export interface PublicResults {
  id: string;
  counts: number[];
  total: number;
  updatedAt: string;
  closed: boolean;
}

/** A new poll's counts: every option at zero. */
export function zeroCounts(poll: Poll): PollCounts {
  return {
    votes: Object.fromEntries(poll.options.map((_, i) => [String(i), 0])),
    total: 0,
    optionCount: poll.options.length,
    updatedAt: poll.createdAt,
    closesAt: poll.closesAt,
    expiresAt: poll.expiresAt,
  };
}

export function toPublicResults(id: string, stored: PollCounts, nowMs: number): PublicResults {
  const counts = Array.from({ length: stored.optionCount }, (_, i) => Number(stored.votes[i] ?? 0));
  return {
    id,
    counts,
    total: Number(stored.total),
    updatedAt: stored.updatedAt,
    closed: stored.closesAt * 1000 <= nowMs,
  };
}
