/**
 * The results function: GET /api/poll/{id}/results, behind the API or its own function URL (what it
 * does: lambdas/handlers/get-results.ts).
 */
import { apiGatewayHandler } from '../adapters/api-gateway';
import { envSetting, httpOptions, requireEnv } from '../adapters/lambda-settings';
import { PollTable } from '../adapters/poll-table';
import { getResultsHandler } from '../handlers/get-results';

export const handler = apiGatewayHandler(
  getResultsHandler({
    polls: new PollTable(requireEnv('tableName')),
    keepCounts: envSetting('resultsKeepCounts') !== 'false',
  }),
  httpOptions('getResults'),
);
