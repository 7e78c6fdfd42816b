/** DynamoDB: one table, on-demand, items expire by TTL. The stack makes it, the handlers' PollTable reads it. */
export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  /**
   * Keep counts a while after a poll closes so late viewers see final results,
   * then let TTL delete everything.
   */
  retainAfterCloseSeconds: 24 * 60 * 60,
  /**
   * Item keys: a poll is `POLL#<id>` with sort keys META and COUNTS; a poll created sized for a hot
   * poll has its counter shard k > 0 on a partition key of its own, `POLL#<id>#<k>` with sort key
   * COUNTS (one created before that layout: `COUNTS#<k>` under the poll's key; see PollTable). A
   * voter claim has its own partition key prefix, so that IAM can confine the vote function to
   * claims (lib/poll-stack.ts).
   */
  keys: { pollPrefix: 'POLL#', voterPrefix: 'VOTER#', pollSort: 'META', countsSort: 'COUNTS', voterSort: 'VOTER' },
} as const;
