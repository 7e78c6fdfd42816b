/** POST /api/poll/{id}/vote — validate a vote and hand it to the vote sink (the queue; the consumer counts it). */
import { noCaptcha } from '../../domain/captcha';
import { PollError, pollNotFound } from '../../domain/errors';
import { IDEMPOTENCY } from '../../config/api-contract';
import { isPollId } from '../../domain/ids';
import { cachedPollStore } from '../../domain/poll-cache';
import { isExpired } from '../../domain/poll';
import { isoTime } from '../../domain/time';
import type { CaptchaCheck, Clock, Log, PollStore, VoteSink } from '../../domain/ports';
import type { RateLimit, RateTaker } from '../../domain/rate-limit';
import {
  chooseOption,
  idempotencyKey,
  voteIdFor,
  voterKey,
  type VoteLayout,
  type VoteMessage,
} from '../../domain/vote';
import { jsonBody, rateLimitBySource, type ApiRoute } from './http';

export interface CastVotePorts {
  polls: PollStore;
  votes: VoteSink;
  log: Log;
  clock?: Clock;
  /** Per-address limits: buckets of the handler's own, or a shared taker's. */
  rateLimit?: RateLimit | RateTaker;
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
  const pollOf = cachedPollStore(polls, clock);

  /** Sends the vote; if it is not accepted, `release` frees the voter claim this request made for it. */
  async function queue(vote: VoteMessage, to: { keyed: boolean; poll: VoteLayout }, release?: () => Promise<void>) {
    try {
      await votes.send(vote, to);
    } catch (error) {
      await release?.().catch((e) => log.error('could not release voter claim', e as Error));
      if (error instanceof PollError) throw error;
      log.error('could not queue vote', error as Error);
      throw new PollError('vote_not_queued', 'Your vote could not be recorded; please try again.', { cause: error });
    }
  }

  return async (request) => {
    const nowMs = clock();
    await checkRate(request, nowMs);
    const id = request.pathParameters.id;
    if (!isPollId(id)) throw pollNotFound();
    // Checked before anything is read or verified: a malformed key costs nothing.
    const key = idempotencyKey(request.headers[IDEMPOTENCY.header]);
    // Verified before any read, so a bot without a token costs no read.
    const body = await captcha(jsonBody(request), request.sourceIp, 'vote');
    const poll = await pollOf(id);
    // Checked against the clock on every vote, cached or not: a closed poll refuses votes at once.
    if (!poll || isExpired(poll, nowMs)) throw pollNotFound();
    const option = chooseOption(body, poll, nowMs);
    const castAt = isoTime(nowMs);
    const vote: VoteMessage = { v: 1, voteId: voteIdFor(id, key), pollId: id, option, castAt };

    // A keyed ballot's claim carries its vote id, so a retry of it is not taken for a second vote.
    const ballot = key === undefined ? undefined : vote.voteId;
    const voter = poll.oneVotePerVoter ? voterKey(poll.voterSalt, request.sourceIp) : undefined;
    const claim = voter ? await polls.claimVoter(id, voter, poll.expiresAt, ballot) : undefined;
    if (claim === 'taken') throw new PollError('already_voted', 'You have already voted in this poll.');
    // Not accepted, so not counted: the voter may try again. A claim an earlier try made stays (it may be queued).
    const release = voter && claim === 'claimed' ? () => polls.releaseVoter(id, voter, ballot) : undefined;
    await queue(vote, { keyed: key !== undefined, poll }, release);
    return {
      status: 202,
      body: { voteId: vote.voteId, pollId: id, option, castAt },
      headers: { 'cache-control': 'no-store' },
    };
  };
}
