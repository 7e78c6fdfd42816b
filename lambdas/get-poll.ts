/** GET /api/poll/{id} and GET /api/poll/{id}/options — a poll, or just its options. */
import { pollNotFound } from './domain/errors';
import { isPollId } from './domain/ids';
import { isExpired, toPublicPoll } from './domain/poll';
import { requireEnv } from './adapters/env';
import { httpHandler } from './adapters/http';
import { logger } from './adapters/logger';
import { PollTable } from './adapters/poll-table';

const table = new PollTable(requireEnv('TABLE_NAME'));

export const handler = httpHandler(logger, async (request, nowMs) => {
  const id = request.pathParameters.id;
  if (!isPollId(id)) throw pollNotFound();
  const poll = await table.getPoll(id);
  if (!poll || isExpired(poll, nowMs)) throw pollNotFound();
  const view = toPublicPoll(poll, nowMs);
  // A poll never changes after creation except for closing: browsers may keep it briefly.
  const headers = { 'cache-control': 'public, max-age=30' };
  return request.route.endsWith('/options')
    ? { status: 200, body: { id: view.id, options: view.options }, headers }
    : { status: 200, body: view, headers };
});
