/**
 * The API as HTTP, but on no platform: one request shape in, one response shape out, and the
 * one mapping from a domain error to its status. Lambda (lambdas/adapters/api-gateway.ts) and
 * the VPS edition (vps/server.ts) are adapters around it.
 */
import { POLL_LIMITS } from '../../config/api-contract';
import { bodyTooLarge, internalError, invalid, PollError, rateLimited, type ErrorCode } from '../../domain/errors';
import { decodeSegment } from '../../domain/ids';
import type { Log } from '../../domain/ports';
import { RateLimiter, type RateLimit, type RateTaker } from '../../domain/rate-limit';

export interface ApiRequest {
  method: string;
  /** The route template that matched, e.g. `/api/poll/{id}/options`. */
  route: string;
  pathParameters: Record<string, string | undefined>;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string | undefined;
  sourceIp: string;
}

export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** What every route is: a request in, a response (or a thrown PollError) out. */
export type ApiRoute = (request: ApiRequest) => Promise<ApiResponse>;

/** The status each error answers with, for both editions. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  invalid_body: 400,
  invalid_json: 400,
  invalid_field: 400,
  invalid_option: 400,
  unknown_field: 400,
  invalid_idempotency_key: 400,
  captcha_required: 400,
  captcha_failed: 403,
  not_found: 404,
  poll_not_found: 404,
  method_not_allowed: 405,
  already_voted: 409,
  idempotency_key_reused: 409,
  poll_closed: 410,
  body_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  captcha_unavailable: 503,
  vote_not_queued: 503,
};

/** A refusal as its answer: the status its code maps to, and a body of the code and message (and refused field). */
export function errorResponse(error: PollError): ApiResponse {
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return { status: ERROR_STATUS[error.code], body: error.toBody(), headers };
}

/** A path's answer to a method it does not take: 405, with the methods it takes in Allow, as HTTP asks. */
export function methodNotAllowed(allowed: readonly string[]): ApiResponse {
  const refusal = errorResponse(new PollError('method_not_allowed', `Use ${allowed.join(' or ')} here.`));
  return { ...refusal, headers: { ...refusal.headers, allow: allowed.join(', ') } };
}

/** Runs a route: a PollError becomes its answer, anything else a logged 500 that says nothing of the cause. */
export async function answer(route: ApiRoute, request: ApiRequest, log: Log): Promise<ApiResponse> {
  try {
    return await route(request);
  } catch (error) {
    if (error instanceof PollError) {
      if (ERROR_STATUS[error.code] >= 500) log.error('request failed', { code: error.code });
      return errorResponse(error);
    }
    log.error('unexpected error', error as Error);
    return errorResponse(internalError());
  }
}

/**
 * Parses a JSON request body. Throws PollError `unsupported_media_type` (not labelled JSON),
 * `body_too_large` or `invalid_json`.
 */
export function jsonBody(request: ApiRequest): unknown {
  const contentType = request.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new PollError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  }
  const body = request.body ?? '';
  if (Buffer.byteLength(body, 'utf8') > POLL_LIMITS.maxBodyBytes) {
    throw bodyTooLarge();
  }
  try {
    return JSON.parse(body);
  } catch {
    throw invalid('invalid_json', 'The body is not valid JSON.');
  }
}

/**
 * A check of a request against its source address's limit (none: no check), from buckets of its own
 * or a taker's; it rejects with PollError `rate_limited`.
 */
export function rateLimitBySource(
  limit: RateLimit | RateTaker | undefined,
): (request: ApiRequest, nowMs: number) => Promise<void> {
  const limiter = limit && 'take' in limit ? limit : new RateLimiter(limit ?? { perMinute: 0, burst: 0 });
  return async (request, nowMs) => {
    const retryAfter = await limiter.take(request.sourceIp, nowMs);
    if (retryAfter > 0) throw rateLimited(retryAfter);
  };
}

/** A route template: a method and a path in API Gateway's syntax. */
export interface RouteTemplate {
  method: string;
  path: string;
}

export interface RouteMatch<R extends RouteTemplate> {
  route: R;
  pathParameters: Record<string, string>;
}

/** A path that exists, asked with a method it does not allow. */
export interface MethodNotAllowed {
  allowed: string[];
}

export type RouteMatcher<R extends RouteTemplate> = (
  method: string,
  path: string,
) => RouteMatch<R> | MethodNotAllowed | undefined;

/**
 * A matcher of a method and path against route templates (`/api/poll/{id}`), compiled once: the
 * route, or the methods the path allows when it exists with others only, or undefined. Throws nothing.
 */
export function routeMatcher<R extends RouteTemplate>(routes: readonly R[]): RouteMatcher<R> {
  const compiled = routes.map((route) => {
    const names: string[] = [];
    const source = route.path
      .split('/')
      .map((part) => {
        const param = /^\{(\w+)\}$/.exec(part);
        if (!param) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
        names.push(param[1]);
        return '([^/]+)';
      })
      .join('/');
    return { route, names, pattern: new RegExp(`^${source}$`) };
  });
  return (method, path) => {
    const allowed: string[] = [];
    for (const { route, names, pattern } of compiled) {
      const values = pattern.exec(path);
      if (!values) continue;
      if (route.method !== method) {
        if (!allowed.includes(route.method)) allowed.push(route.method);
        continue;
      }
      const pathParameters: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) pathParameters[names[i]] = decodeSegment(values[i + 1]);
      return { route, pathParameters };
    }
    return allowed.length ? { allowed } : undefined;
  };
}
