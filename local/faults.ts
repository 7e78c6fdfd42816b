/** Fault injection for tests and campaigns; all off unless a test turns them on. */
export interface Faults {
  /** Fraction of consumer records withheld from the handler and reported failed (never applied). */
  failBeforeApply?: number;
  /** Fraction of consumer records reported failed after the handler applied them (redelivered, must not double count). */
  failAfterApply?: number;
  /** Probability that a consumer invocation "crashes" after its writes: its response is lost, the whole batch is redelivered. */
  crashAfterWrites?: number;
  /** Fraction of DynamoDB UpdateItem calls answered with a throttling error. */
  throttleUpdates?: number;
  /** Random source, replaceable for deterministic tests. */
  random?: () => number;
}

export const chance = (faults: Faults, probability: number | undefined): boolean =>
  !!probability && (faults.random ?? Math.random)() < probability;
