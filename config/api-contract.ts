/**
 * The API as every side of it reads it: the routes, what a poll may look like, the ballot's key and what a
 * browser on another origin may send and read. The stack, the handlers, the local runtime, the VPS edition,
 * the page and the OpenAPI document all take it from here. Plain data, no imports, so the browser can use it too.
 */

/** The handlers behind the API, by name; each becomes one Lambda function. */
export type ApiFunctionName = 'createPoll' | 'getPoll' | 'castVote' | 'getResults';

export interface RouteSpec {
  method: 'GET' | 'POST';
  /** API Gateway path syntax: `{id}` is a path parameter. */
  path: string;
  fn: ApiFunctionName;
}

/** Every API route starts here; everything else on the site's origin is the static frontend. */
export const API_BASE_PATH = '/api';

/** Mirrors the routes of the VPS poll platform. */
export const ROUTES: readonly RouteSpec[] = [
  { method: 'POST', path: '/api/poll', fn: 'createPoll' },
  { method: 'GET', path: '/api/poll/{id}', fn: 'getPoll' },
  { method: 'GET', path: '/api/poll/{id}/options', fn: 'getPoll' },
  { method: 'POST', path: '/api/poll/{id}/vote', fn: 'castVote' },
  { method: 'GET', path: '/api/poll/{id}/results', fn: 'getResults' },
];

/** What a poll may look like; validation, the frontend and the docs read these. */
export const POLL_LIMITS = {
  titleMaxLength: 200,
  minOptions: 2,
  maxOptions: 20,
  optionMaxLength: 100,
  /** Lifetime in minutes: the seed keeps polls ~30 minutes; a week at most. */
  minLifetimeMinutes: 1,
  defaultLifetimeMinutes: 60,
  maxLifetimeMinutes: 7 * 24 * 60,
  /** Request bodies above this are refused before parsing (a create is < 3 KB). */
  maxBodyBytes: 8 * 1024,
  /** Poll ids: 21 url-safe characters, like the seed's nanoid ids (126 random bits). */
  idLength: 21,
} as const;

/**
 * A client names each ballot with a key (the `Idempotency-Key` header on a vote), and a retry
 * with the same key is the same vote: it is counted once. The window is SQS FIFO's deduplication
 * interval (fixed by AWS at 5 minutes); the VPS edition keeps keys exactly as long. See
 * docs/exactly-once.md.
 */
export const IDEMPOTENCY = {
  header: 'idempotency-key',
  maxLength: 64,
  windowSeconds: 5 * 60,
} as const;

/**
 * What a browser on the site may send to the API on another origin, and read of its answers: the
 * ballot's key, and when a refused request may be tried again.
 */
export const API_CORS = {
  allowHeaders: ['content-type', IDEMPOTENCY.header],
  exposeHeaders: ['retry-after'],
} as const;
