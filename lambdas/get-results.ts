/**
 * The results function: GET /api/poll/{id}/results, behind the API or its own function URL (what it
 * does: handlers/get-results.ts).
 */
import { RESULTS_KEEP_COUNTS_ENV } from '../config/app-config';
import { apiGatewayHandler } from './adapters/api-gateway';
import { httpOptions, requireEnv } from './adapters/lambda-settings';
import { PollTable } from './adapters/poll-table';
import { getResultsHandler } from './handlers/get-results';

export const handler = apiGatewayHandler(
  getResultsHandler({
    polls: new PollTable(requireEnv('TABLE_NAME')),
    keepCounts: process.env[RESULTS_KEEP_COUNTS_ENV] !== 'false',
  }),
  httpOptions('getResults'),
);
