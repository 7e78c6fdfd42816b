/** The get-poll function: GET /api/poll/{id} and /options (what it does: lambdas/handlers/get-poll.ts). */
import { apiGatewayHandler } from '../adapters/api-gateway';
import { httpOptions, requireEnv } from '../adapters/lambda-settings';
import { PollTable } from '../adapters/poll-table';
import { getPollHandler } from '../handlers/get-poll';

export const handler = apiGatewayHandler(
  getPollHandler({ polls: new PollTable(requireEnv('tableName')) }),
  httpOptions('getPoll'),
);
