/** POST /api/poll/{id}/vote — validate a vote and hand it to the vote sink (the queue; the consumer counts it). */
import { noCaptcha } from '../domain/captcha';
import { PollError, pollNotFound } from '../domain/errors';
import { isPollId, newId } from '../domain/ids';
import { isExpired } from '../domain/poll';
import type { CaptchaCheck, Clock, Log, PollStore, VoteSink } from '../domain/ports';
import type { RateLimit } from '../domain/rate-limit';
import { chooseOption, voterKey, type VoteMessage } from '../domain/vote';
import { jsonBody, rateLimitBySource, type ApiRoute } from './http';

export interface CastVotePorts {
  polls: PollStore;
  votes: VoteSink;
  log: Log;
  clock?: Clock;
  rateLimit?: RateLimit;
  captcha?: CaptchaCheck;
}

export function castVoteHandler({
  polls,
  votes,
  log,
  clock = Date.now,
  rateLimit,
  captcha = noCaptcha,
}: CastVotePorts): ApiRoute {
  const checkRate = rateLimitBySource(rateLimit);
  return async (request) => {
    const nowMs = clock();
    checkRate(request, nowMs);
    const id = request.pathParameters.id;
    if (!isPollId(id)) throw pollNotFound();
    // Verified before any read, so a bot without a token costs no read.
    const body = await captcha(jsonBody(request), request.sourceIp, 'vote');
    const poll = await polls.getPoll(id);
    if (!poll || isExpired(poll, nowMs)) throw pollNotFound();
    const option = chooseOption(body, poll, nowMs);

    const voter = poll.oneVotePerVoter ? voterKey(poll.voterSalt, request.sourceIp) : undefined;
    if (voter && !(await polls.claimVoter(id, voter, poll.expiresAt))) {
      throw new PollError('already_voted', 'You have already voted in this poll.');
    }

    const vote: VoteMessage = { v: 1, voteId: newId(), pollId: id, option, castAt: new Date(nowMs).toISOString() };
    try {
      await votes.send(vote);
    } catch (error) {
      // Not accepted, so not counted: free the claim so the voter can retry.
      if (voter)
        await polls.releaseVoter(id, voter).catch((e) => log.error('could not release voter claim', e as Error));
      log.error('could not queue vote', error as Error);
      throw new PollError('vote_not_queued', 'Your vote could not be recorded; please try again.', { cause: error });
    }
    return { status: 202, body: { voteId: vote.voteId, pollId: id, option }, headers: { 'cache-control': 'no-store' } };
  };
}
