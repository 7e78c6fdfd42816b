/** POST /api/poll — validate and store a new poll. */
import { noCaptcha } from '../../domain/captcha';
import { createPoll, toPublicPoll, type PollSize } from '../../domain/poll';
import type { CaptchaCheck, Clock, PollStore } from '../../domain/ports';
import type { RateLimit, RateTaker } from '../../domain/rate-limit';
import { jsonBody, rateLimitBySource, type ApiRoute } from './http';

export interface CreatePollPorts {
  polls: PollStore;
  clock?: Clock;
  /** Per-address limits: buckets of the handler's own, or a shared taker's. */
  rateLimit?: RateLimit | RateTaker;
  captcha?: CaptchaCheck;
  /** The vote path's size each new poll records (the stack's hotPollVotesPerSecond); none: the default. */
  size?: PollSize;
}

/**
 * The create route, built from its ports: stores a valid poll and answers 201 with it. It throws
 * PollError `rate_limited`, `captcha_required`, `captcha_failed`, `captcha_unavailable`,
 * `unsupported_media_type`, `body_too_large`, `invalid_json`, `invalid_body`, `unknown_field` or
 * `invalid_field`; a store's own error is thrown as it came (answer() makes it `internal_error`).
 */
export function createPollHandler({
  polls,
  clock = Date.now,
  rateLimit,
  captcha = noCaptcha,
  size,
}: CreatePollPorts): ApiRoute {
  const checkRate = rateLimitBySource(rateLimit);
  return async (request) => {
    const nowMs = clock();
    await checkRate(request, nowMs);
    const poll = createPoll(await captcha(jsonBody(request), request.sourceIp, 'create'), nowMs, size);
    await polls.putNewPoll(poll);
    return { status: 201, body: toPublicPoll(poll, nowMs), headers: { location: `/api/poll/${poll.id}` } };
  };
}
