/**
 * Values kept in a function's memory for a bounded time and number: what the results and vote
 * functions keep of a poll between requests. Bounded, so a flood of distinct ids cannot grow it
 * without limit. Pure: the caller says what time it is.
 */

/** Values per key for at most `maxAgeMs`, at most `maxEntries` of them (oldest out). Throws nothing. */
export class TimedCache<V> {
  private readonly entries = new Map<string, { value: V; readAt: number }>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEntries = 1000,
  ) {}

  /** The cached value and its age, if younger than the max-age (a clock gone backwards: none). */
  get(key: string, nowMs: number): { value: V; ageMs: number } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const ageMs = nowMs - entry.readAt;
    if (ageMs >= this.maxAgeMs || ageMs < 0) {
      this.entries.delete(key);
      return undefined;
    }
    return { value: entry.value, ageMs };
  }

  set(key: string, value: V, nowMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, readAt: nowMs });
    // Oldest first out: Map keeps insertion order.
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
