/** The vote queue and its consumer: the queue's settings, what the consumer reports, and when it alarms. */

/**
 * The vote queue is FIFO so that votes of one message group arrive in order:
 * that is what lets the consumer count exactly once with one conditional write
 * per poll per batch (see docs/exactly-once.md).
 */
export const VOTE_QUEUE = {
  /**
   * Message groups per poll. A group is processed one batch at a time and is
   * limited to ~300 sends/s in high-throughput mode, so a hot poll is spread
   * over a few groups. More groups = more parallelism, slightly more writes.
   */
  groupsPerPoll: 4,
  /** The FIFO maximum for a Lambda event source. */
  batchSize: 10,
  /** A batching window is not supported for FIFO event sources. */
  maxBatchingWindowSeconds: 0,
  consumerTimeoutSeconds: 10,
  /** AWS advice for SQS event sources: at least 6x the function timeout. */
  visibilityTimeoutSeconds: 60,
  /** After this many failed receives a message goes to the dead-letter queue. */
  maxReceiveCount: 3,
  retentionDays: 4,
  dlqRetentionDays: 14,
  /** The consumer gives up on one poll's write after this many condition races. */
  maxWriteAttempts: 4,
} as const;

/**
 * What the vote consumer reports as CloudWatch metrics (embedded metric format: written with its
 * log line, no API calls). Each name is one custom metric; `DeadLettered` is one per verdict, and
 * exists only in hours a letter is sent. The cost model prices them from the template.
 */
export const CONSUMER_METRICS = {
  namespace: 'ServerlessPoll',
  /** Powertools adds it to every metric: the functions' service name (config/function-env.ts serviceName). */
  service: 'poll',
  /** Published by every invocation. */
  always: ['VotesCounted', 'Batches', 'WriteConflicts', 'RecordsFailed'],
  /** Published with a `Verdict` dimension when the consumer dead-letters a record. */
  byVerdict: 'DeadLettered',
} as const;
export type ConsumerMetricName = (typeof CONSUMER_METRICS.always)[number];

/** The consumer's failures alarm: every 1-minute period of this many in a row with a failed invocation. */
export const CONSUMER_FAILURE_ALARM = { periodMinutes: 1, evaluationPeriods: 5 } as const;
