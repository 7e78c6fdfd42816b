/** POST /api/poll/{id}/vote — validate a vote and queue it; the consumer counts it. */
import { createHmac } from 'node:crypto';
import { ApiError, pollNotFound } from './domain/errors';
import { isPollId, newId } from './domain/ids';
import { isExpired } from './domain/poll';
import { chooseOption, type VoteMessage } from './domain/vote';
import { captchaCheck } from './adapters/captcha';
import { requireEnv } from './adapters/env';
import { httpHandler, jsonBody, rateLimitBySource } from './adapters/http';
import { logger } from './adapters/logger';
import { PollTable } from './adapters/poll-table';
import { VoteQueue } from './adapters/vote-queue';

const table = new PollTable(requireEnv('TABLE_NAME'));
const queue = new VoteQueue(requireEnv('QUEUE_URL'));
const checkRate = rateLimitBySource(process.env.RATE_LIMIT);
const checkCaptcha = captchaCheck();

export const handler = httpHandler(logger, async (request, nowMs) => {
  checkRate(request, nowMs);
  const id = request.pathParameters.id;
  if (!isPollId(id)) throw pollNotFound();
  // Verified before any table read, so a bot without a token costs no read.
  const body = await checkCaptcha(jsonBody(request), request.sourceIp, 'vote');
  const poll = await table.getPoll(id);
  if (!poll || isExpired(poll, nowMs)) throw pollNotFound();
  const option = chooseOption(body, poll, nowMs);

  // A voter is their source IP, hashed with the poll's secret salt: no raw IPs stored.
  const voter = poll.oneVotePerVoter ? createHmac('sha256', poll.voterSalt).update(request.sourceIp).digest('base64url') : undefined;
  if (voter && !(await table.claimVoter(id, voter, poll.expiresAt))) {
    throw new ApiError(409, 'already_voted', 'You have already voted in this poll.');
  }

  const vote: VoteMessage = { v: 1, voteId: newId(), pollId: id, option, castAt: new Date(nowMs).toISOString() };
  try {
    await queue.send(vote);
  } catch (error) {
    // Not accepted, so not counted: free the claim so the voter can retry.
    if (voter) await table.releaseVoter(id, voter).catch((e) => logger.error('could not release voter claim', e as Error));
    logger.error('could not queue vote', error as Error);
    throw new ApiError(503, 'vote_not_queued', 'Your vote could not be recorded; please try again.');
  }
  return { status: 202, body: { voteId: vote.voteId, pollId: id, option }, headers: { 'cache-control': 'no-store' } };
});
