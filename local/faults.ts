/** Fault injection for tests and campaigns; all off unless a test turns them on. */
export interface Faults {
  /**
   * Fraction of consumer records withheld from the handler and reported failed (never applied);
   * on a FIFO queue the rest of the record's message group in that batch is withheld with it.
   */
  failBeforeApply?: number;
  /**
   * Fraction of consumer records reported failed after the handler applied them (redelivered,
   * must not double count). Never on a record's last delivery.
   */
  failAfterApply?: number;
  /**
   * Probability that a consumer invocation "crashes" after its writes: its response is lost, the
   * whole batch is redelivered. Never on a batch holding a record's last delivery.
   */
  crashAfterWrites?: number;
  /**
   * Fraction of SendMessage calls acknowledged but never enqueued: a vote lost after its 202.
   * Only for proving that the load tests' conservation check catches a loss.
   */
  dropSends?: number;
  /**
   * The next this-many votes the vote function accepts (a 202) are answered as if it had timed out
   * after queueing them (API Gateway's timeout answer): the vote counts, its answer is lost. A count,
   * not a chance, so a test knows which tries fail.
   */
  timeOutAfterVotes?: number;
  /**
   * Milliseconds each consumer batch is held before its invocation, as a consumer farther from its
   * table and queue would take (AWS's round trips): how batches fill is measured against it.
   */
  slowBatchesMs?: number;
  /** Fraction of DynamoDB UpdateItem calls answered with a throttling error. */
  throttleUpdates?: number;
  /** Random source, replaceable for deterministic tests. */
  random?: () => number;
}

export const chance = (faults: Faults, probability: number | undefined): boolean =>
  !!probability && (faults.random ?? Math.random)() < probability;

/** Uses up one of a counted fault: true while any are left. */
export function takeOne(faults: Faults, name: 'timeOutAfterVotes'): boolean {
  const left = faults[name] ?? 0;
  if (left <= 0) return false;
  faults[name] = left - 1;
  return true;
}
