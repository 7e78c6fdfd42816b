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

/**
 * A poll's counts from its counter items (one per counter shard): votes and totals added, the
 * latest update; undefined when there are none (no such poll).
 */
export function sumCounts(items: readonly PollCounts[]): PollCounts | undefined {
  if (items.length === 0) return undefined;
  const votes: Record<string, number> = {};
  for (const item of items)
    for (const [option, n] of Object.entries(item.votes)) votes[option] = (votes[option] ?? 0) + Number(n);
  const { optionCount, closesAt, expiresAt } = items[0];
  return {
    votes,
    total: items.reduce((sum, item) => sum + Number(item.total), 0),
    optionCount,
    // ISO 8601 times: the latest sorts last.
    updatedAt: items
      .map((item) => item.updatedAt)
      .sort()
      .at(-1)!,
    closesAt,
    expiresAt,
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
