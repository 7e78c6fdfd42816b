/** GET /api/poll/{id}/results — counts per option, cheap to poll often. */
import { RESULTS_CACHE_SECONDS } from '../config/app-config';
import { pollNotFound } from './domain/errors';
import { isPollId } from './domain/ids';
import { isExpired } from './domain/poll';
import { toPublicResults } from './domain/results';
import { requireEnv } from './adapters/env';
import { httpHandler } from './adapters/http';
import { logger } from './adapters/logger';
import { PollTable } from './adapters/poll-table';

const table = new PollTable(requireEnv('TABLE_NAME'));

export const handler = httpHandler(logger, async (request, nowMs) => {
  const id = request.pathParameters.id;
  if (!isPollId(id)) throw pollNotFound();
  const counts = await table.getCounts(id);
  if (!counts || isExpired(counts, nowMs)) throw pollNotFound();
  const results = toPublicResults(id, counts, nowMs);
  return {
    status: 200,
    body: results,
    headers: {
      // Viewers poll this: a short shared cache lets CloudFront and browsers absorb repeats.
      'cache-control': `public, max-age=${RESULTS_CACHE_SECONDS}`,
      'last-modified': new Date(results.updatedAt).toUTCString(),
    },
  };
});
