/**
 * What can go wrong, as the domain says it: a code and a message for a person. No HTTP here:
 * the status each code answers with is decided once, in lambdas/handlers/http.ts, for the
 * serverless edition and the VPS edition alike. Here too the base every error of ours extends, and
 * the command line's two, which the CDK app (lib/) throws as well as the commands (bin/): the domain
 * is plain TypeScript that the stack, the commands, the page and the estimator all import.
 */
import { POLL_LIMITS } from '../config/api-contract';

/**
 * An error that says which it is: each class states its `name` (class names do not survive the
 * minified bundles). The error it replaces goes in `cause` (ES2022 `{ cause }`), for the log only.
 */
export abstract class NamedError extends Error {
  abstract override readonly name: string;
}

/** A mistake in how a command (or `cdk synth -c`) was called: printed as one line, exit code 2. */
export class UsageError extends NamedError {
  override readonly name: string = 'UsageError';
}

/** Called right, but it could not do its work (nothing answers, a file is missing): one line, exit code 1. */
export class CommandFailure extends NamedError {
  override readonly name: string = 'CommandFailure';
}

export type ErrorCode =
  // The request itself
  | 'invalid_body'
  | 'invalid_json'
  | 'invalid_field'
  | 'invalid_option'
  | 'unknown_field'
  | 'unsupported_media_type'
  | 'body_too_large'
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

/**
 * A refusal the client is told about: its code decides the status, its message is for a person.
 * A `cause` (the error behind it) is for the log: the body a client gets carries only the two.
 */
export class PollError extends NamedError {
  override readonly name = 'PollError';
  /** For `rate_limited`: when the caller may try again. */
  readonly retryAfterSeconds?: number;
  /** For `invalid_field`: the field refused, by its name in the API (a form marks its control). */
  readonly field?: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ErrorOptions & { retryAfterSeconds?: number; field?: string } = {},
  ) {
    super(message, options);
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.field = options.field;
  }

  /** The answer's body: the code and message, and the refused field where there is one (a form marks it). */
  toBody(): { error: { code: ErrorCode; message: string; field?: string } } {
    const { code, message, field } = this;
    return { error: field === undefined ? { code, message } : { code, message, field } };
  }
}

/** The refusals every route may give, built in one place so each says the same everywhere. */
export const invalid = (code: ErrorCode, message: string) => new PollError(code, message);
export const invalidField = (field: string, message: string) => new PollError('invalid_field', message, { field });
export const bodyTooLarge = () =>
  new PollError('body_too_large', `The body must be at most ${POLL_LIMITS.maxBodyBytes} bytes.`);
/** What a caller is told of a failure of ours: nothing of its cause. */
export const internalError = () => new PollError('internal_error', 'Something went wrong on our side.');
export const pollNotFound = () => new PollError('poll_not_found', 'No poll with this id (it may have expired).');
export const rateLimited = (retryAfterSeconds: number) =>
  new PollError('rate_limited', 'Too many requests from your address; try again shortly.', { retryAfterSeconds });
