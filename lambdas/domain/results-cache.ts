/**
 * A poll's counts, kept in the function's memory for at most the results max-age: viewers of a
 * busy poll then cost one table read per container per max-age instead of one per request.
 * Bounded, so a flood of distinct ids cannot grow it without limit.
 */
import type { PollCounts } from './results';

/** Counts per poll id for at most `maxAgeMs`, at most `maxEntries` of them (oldest out). Throws nothing. */
export class ResultsCache {
  private readonly entries = new Map<string, { counts: PollCounts; readAt: number }>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEntries = 1000,
  ) {}

  /** The cached counts and their age, if younger than the max-age. */
  get(pollId: string, nowMs: number): { counts: PollCounts; ageMs: number } | undefined {
    const entry = this.entries.get(pollId);
    if (!entry) return undefined;
    const ageMs = nowMs - entry.readAt;
    if (ageMs >= this.maxAgeMs || ageMs < 0) {
      this.entries.delete(pollId);
      return undefined;
    }
    return { counts: entry.counts, ageMs };
  }

  set(pollId: string, counts: PollCounts, nowMs: number): void {
    this.entries.delete(pollId);
    this.entries.set(pollId, { counts, readAt: nowMs });
    // Oldest first out: Map keeps insertion order.
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
