/**
 * The vote consumer: folds a batch of queued votes into one counter write per
 * poll ("carpooling"), exactly once (see domain/tally.ts), and reports the
 * records it could not apply so that only they are retried.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { VOTE_QUEUE } from '../config/app-config';
import { planBatch, withoutApplied, type PollTally } from './domain/tally';
import { requireEnv } from './adapters/env';
import { logger } from './adapters/logger';
import { PollTable } from './adapters/poll-table';

const table = new PollTable(requireEnv('TABLE_NAME'));

/** Applies one poll's tally; true when every vote in it is now counted (by this or an earlier delivery). */
async function applyExactlyOnce(tally: PollTally, nowIso: string): Promise<boolean> {
  let pending: PollTally | null = tally;
  for (let attempt = 0; pending && attempt < VOTE_QUEUE.maxWriteAttempts; attempt++) {
    const outcome = await table.applyTally(pending, nowIso);
    if (outcome.kind === 'applied') return true;
    if (outcome.kind === 'poll-missing') {
      logger.error('votes for a poll that no longer exists: leaving them for the dead-letter queue', { pollId: tally.pollId });
      return false;
    }
    pending = withoutApplied(pending, outcome.applied);
  }
  return pending === null;
}

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const plan = planBatch(
    event.Records.map((record) => ({
      messageId: record.messageId,
      body: record.body,
      groupId: record.attributes.MessageGroupId,
      sequenceNumber: record.attributes.SequenceNumber,
    })),
  );
  const failed = [...plan.malformed];
  if (plan.malformed.length > 0) logger.warn('malformed vote messages', { messageIds: plan.malformed });

  const nowIso = new Date().toISOString();
  await Promise.all(
    plan.tallies.map(async (tally) => {
      try {
        if (await applyExactlyOnce(tally, nowIso)) return;
      } catch (error) {
        logger.error('could not apply votes', { pollId: tally.pollId, error: error as Error });
      }
      failed.push(...tally.messageIds);
    }),
  );
  logger.info('batch counted', { records: event.Records.length, polls: plan.tallies.length, failed: failed.length });
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};
