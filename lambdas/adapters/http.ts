/**
 * One thin adapter for both API Gateway flavours: HTTP API (payload 2.0) and
 * REST API (payload 1.0, what LocalStack's free plan offers). Handlers see one
 * request shape and return one response shape; errors become the JSON error body.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Logger } from '@aws-lambda-powertools/logger';
import { POLL_LIMITS } from '../../config/app-config';
import { ApiError, badRequest, rateLimited } from '../domain/errors';
import { parseRateLimit, RateLimiter } from '../domain/rate-limit';

export type ApiEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

export interface ApiRequest {
  method: string;
  /** The route template that matched, e.g. `/api/poll/{id}/options`. */
  route: string;
  pathParameters: Record<string, string | undefined>;
  headers: Record<string, string>;
  body: string | undefined;
  sourceIp: string;
}

export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const isV2 = (event: ApiEvent): event is APIGatewayProxyEventV2 => (event as APIGatewayProxyEventV2).version === '2.0';

export function toApiRequest(event: ApiEvent): ApiRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const rawBody = event.body ?? undefined;
  const body = rawBody !== undefined && event.isBase64Encoded ? Buffer.from(rawBody, 'base64').toString('utf8') : rawBody;
  return isV2(event)
    ? {
        method: event.requestContext.http.method,
        route: event.routeKey.slice(event.routeKey.indexOf(' ') + 1),
        pathParameters: event.pathParameters ?? {},
        headers,
        body,
        sourceIp: event.requestContext.http.sourceIp,
      }
    : {
        method: event.httpMethod,
        route: event.resource,
        pathParameters: event.pathParameters ?? {},
        headers,
        body,
        sourceIp: event.requestContext.identity.sourceIp,
      };
}

/** Parses a JSON request body, refusing what is too large, not JSON, or mislabelled. */
export function jsonBody(request: ApiRequest): unknown {
  const contentType = request.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  }
  const body = request.body ?? '';
  if (Buffer.byteLength(body, 'utf8') > POLL_LIMITS.maxBodyBytes) {
    throw new ApiError(413, 'body_too_large', `The body must be at most ${POLL_LIMITS.maxBodyBytes} bytes.`);
  }
  try {
    return JSON.parse(body);
  } catch {
    throw badRequest('invalid_json', 'The body is not valid JSON.');
  }
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
/**
 * The site calls the API from its own origin. An HTTP API adds this header itself
 * (from the stack's CORS settings); a REST API with Lambda proxy integration needs it
 * from the function.
 */
const CORS_HEADERS: Record<string, string> = process.env.SITE_ORIGIN ? { 'access-control-allow-origin': process.env.SITE_ORIGIN } : {};

function respond(status: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: status, headers: { ...JSON_HEADERS, ...CORS_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** Refuses a request over its source address's limit (RATE_LIMIT, set by the stack). */
export function rateLimitBySource(env: string | undefined): (request: ApiRequest, nowMs: number) => void {
  const limiter = new RateLimiter(parseRateLimit(env));
  return (request, nowMs) => {
    const retryAfter = limiter.take(request.sourceIp, nowMs);
    if (retryAfter > 0) throw rateLimited(retryAfter);
  };
}

/** Wraps a handler: request in, response out, ApiError to its status, anything else to a logged 500. */
export function httpHandler(logger: Logger, handle: (request: ApiRequest, nowMs: number) => Promise<ApiResponse>) {
  return async (event: ApiEvent, context: Context): Promise<APIGatewayProxyResult> => {
    logger.addContext(context);
    try {
      const response = await handle(toApiRequest(event), Date.now());
      return respond(response.status, response.body, response.headers);
    } catch (error) {
      if (error instanceof ApiError) {
        if (error.status >= 500) logger.error('request failed', { code: error.code });
        return respond(error.status, error.toBody(), { 'cache-control': 'no-store', ...error.headers });
      }
      logger.error('unexpected error', error as Error);
      return respond(500, new ApiError(500, 'internal_error', 'Something went wrong on our side.').toBody());
    }
  };
}
