/**
 * The vote consumer: batches from the FIFO vote queue into counter writes (what it does:
 * lambdas/handlers/count-votes.ts).
 */
import { DeadLetterQueue } from '../adapters/dead-letter-queue';
import { requireEnv } from '../adapters/lambda-settings';
import { logger } from '../adapters/logger';
import { powertoolsMetrics } from '../adapters/metrics';
import { PollTable } from '../adapters/poll-table';
import { countVotesHandler } from '../handlers/count-votes';

export const handler = countVotesHandler({
  counts: new PollTable(requireEnv('tableName')),
  deadLetters: new DeadLetterQueue(requireEnv('deadLetterQueueUrl')),
  log: logger,
  metrics: powertoolsMetrics(),
});
