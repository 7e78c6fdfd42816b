/**
 * The vote function: POST /api/poll/{id}/vote onto the FIFO vote queue (what it does:
 * lambdas/handlers/cast-vote.ts; who counts: count-votes-function.ts).
 */
import { apiGatewayHandler } from '../adapters/api-gateway';
import { captchaSetting, httpOptions, rateLimitSetting, requireEnv } from '../adapters/lambda-settings';
import { logger } from '../adapters/logger';
import { PollTable } from '../adapters/poll-table';
import { VoteQueue } from '../adapters/vote-queue';
import { castVoteHandler } from '../handlers/cast-vote';

export const handler = apiGatewayHandler(
  castVoteHandler({
    polls: new PollTable(requireEnv('tableName')),
    votes: new VoteQueue(requireEnv('queueUrl')),
    log: logger,
    rateLimit: rateLimitSetting(),
    captcha: captchaSetting(),
  }),
  httpOptions('castVote'),
);
