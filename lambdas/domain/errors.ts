/**
 * What can go wrong, as the domain says it: a code and a message for a person. No HTTP here:
 * the status each code answers with is decided once, in lambdas/handlers/http.ts, for the
 * serverless edition and the VPS edition alike.
 */
import { POLL_LIMITS } from '../../config/app-config';

export type ErrorCode =
  // The request itself
  | 'invalid_body'
  | 'invalid_json'
  | 'invalid_field'
  | 'invalid_option'
  | 'unknown_field'
  | 'unsupported_media_type'
  | 'body_too_large'
  | 'invalid_path'
  | 'invalid_idempotency_key'
  | 'not_found'
  | 'method_not_allowed'
  // The poll and the voter
  | 'poll_not_found'
  | 'poll_closed'
  | 'already_voted'
  /** The VPS edition: a key sent again, within its window, with another option. */
  | 'idempotency_key_reused'
  // Abuse controls
  | 'rate_limited'
  | 'captcha_required'
  | 'captcha_failed'
  | 'captcha_unavailable'
  // Ours
  | 'vote_not_queued'
  | 'internal_error';

export class PollError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** For `rate_limited`: when the caller may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'PollError';
  }

  toBody(): { error: { code: ErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export const invalid = (code: ErrorCode, message: string) => new PollError(code, message);
export const bodyTooLarge = () =>
  new PollError('body_too_large', `The body must be at most ${POLL_LIMITS.maxBodyBytes} bytes.`);
/** What a caller is told of a failure of ours: nothing of its cause. */
export const internalError = () => new PollError('internal_error', 'Something went wrong on our side.');
export const pollNotFound = () => new PollError('poll_not_found', 'No poll with this id (it may have expired).');
export const rateLimited = (retryAfterSeconds: number) =>
  new PollError('rate_limited', 'Too many requests from your address; try again shortly.', retryAfterSeconds);
