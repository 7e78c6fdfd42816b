/** POST /api/poll — validate and store a new poll. */
import { createPoll, toPublicPoll } from './domain/poll';
import { captchaCheck } from './adapters/captcha';
import { requireEnv } from './adapters/env';
import { httpHandler, jsonBody, rateLimitBySource } from './adapters/http';
import { logger } from './adapters/logger';
import { PollTable } from './adapters/poll-table';

const table = new PollTable(requireEnv('TABLE_NAME'));
const checkRate = rateLimitBySource(process.env.RATE_LIMIT);
const checkCaptcha = captchaCheck();

export const handler = httpHandler(logger, async (request, nowMs) => {
  checkRate(request, nowMs);
  const poll = createPoll(await checkCaptcha(jsonBody(request), request.sourceIp, 'create'), nowMs);
  await table.putNewPoll(poll);
  return { status: 201, body: toPublicPoll(poll, nowMs), headers: { location: `/api/poll/${poll.id}` } };
});
