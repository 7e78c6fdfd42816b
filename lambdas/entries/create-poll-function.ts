/** The create-poll function: POST /api/poll (what it does: lambdas/handlers/create-poll.ts). */
import { apiGatewayHandler } from '../adapters/api-gateway';
import {
  captchaSetting,
  httpOptions,
  pollSizeSetting,
  rateLimitSetting,
  requireEnv,
} from '../adapters/lambda-settings';
import { PollTable } from '../adapters/poll-table';
import { createPollHandler } from '../handlers/create-poll';

export const handler = apiGatewayHandler(
  createPollHandler({
    polls: new PollTable(requireEnv('tableName')),
    rateLimit: rateLimitSetting(),
    captcha: captchaSetting(),
    size: pollSizeSetting(),
  }),
  httpOptions('createPoll'),
);
