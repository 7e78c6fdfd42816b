/**
 * HTTP in front of the functions, locally, as AWS does it: API Gateway (the template's routes
 * only, the event of its API kind, its own answers for what no function handles) and Lambda
 * function URLs (payload 2.0 for any path, CORS from the template, 429 past reserved
 * concurrency). Each returns a response object, so a cache (local/cloudfront.ts) can keep it.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ROUTES } from '../config/api-contract';
import type { ApiKind } from '../config/stack';
import { announcesBody, headersOf, readBody, sourceIpOf, targetOf } from '../node/request-reader';
import { routeMatcher } from '../lambdas/handlers/http';
import type { AwsLimits } from './aws-limits';
import { takeOne, type Faults } from './faults';
import type { LoadedFunction } from './functions';
import { functionUrlEvent, httpApiEvent, restApiEvent, type ReceivedRequest } from './lambda-events';
import type { CorsModel, RouteModel } from '../template/model';

/** API Gateway's (and a function URL's) payload limit. Larger bodies never reach a function. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

export interface LocalResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A request as read off the socket: never throws for what a client may send. */
export interface IncomingRequest {
  method: string;
  /** Path as sent (still percent-encoded) and the query string without '?'. */
  path: string;
  query: string;
  headers: Readonly<Record<string, string>>;
  /** 'too-large': the rest was not read, so the answer closes the connection. */
  body: Buffer | 'too-large';
  sourceIp: string;
}

/** What a request brings, read as every server of ours reads it (node/request-reader.ts). */
export async function readRequest(req: IncomingMessage): Promise<IncomingRequest> {
  const { path, query } = targetOf(req.url);
  const body = announcesBody(req) ? await readBody(req, MAX_PAYLOAD_BYTES) : Buffer.alloc(0);
  return { method: req.method ?? 'GET', path, query, headers: headersOf(req), body, sourceIp: sourceIpOf(req) };
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml|javascript)|text\/)/i;

/** The request as a gateway hands it to a function: the body as text, or as base64 where payload 2.0 does. */
function received(kind: ApiKind | 'function-url', request: IncomingRequest & { body: Buffer }): ReceivedRequest {
  const raw = request.body;
  const isText = raw.length === 0 || TEXT_TYPES.test(request.headers['content-type'] ?? '') || kind === 'rest';
  return {
    method: request.method,
    path: request.path,
    query: request.query,
    headers: request.headers,
    body: raw.length === 0 ? undefined : raw.toString(isText ? 'utf8' : 'base64'),
    isBase64Encoded: !isText,
    sourceIp: request.sourceIp,
    requestId: randomUUID(),
    timeEpoch: Date.now(),
  };
}

/** A proxy integration's result as the HTTP response; undefined when it is not one. */
function responseOf(value: unknown): LocalResponse | undefined {
  const result = value as Partial<APIGatewayProxyStructuredResultV2> | undefined;
  if (typeof result?.statusCode !== 'number') return undefined;
  const body =
    result.body === undefined
      ? Buffer.alloc(0)
      : Buffer.from(String(result.body), result.isBase64Encoded ? 'base64' : 'utf8');
  return {
    status: result.statusCode,
    headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)])),
    body,
  };
}

const json = (status: number, value: unknown, headers: Record<string, string> = {}): LocalResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify(value)),
});

/** What each API kind answers when it, not a function, handles a request. */
const GATEWAY_ERRORS: Record<ApiKind, Record<'notFound' | 'tooLarge' | 'failed' | 'timeout', [number, string]>> = {
  http: {
    notFound: [404, 'Not Found'],
    tooLarge: [413, 'Request Entity Too Large'],
    failed: [500, 'Internal Server Error'],
    timeout: [503, 'Service Unavailable'],
  },
  rest: {
    notFound: [403, 'Missing Authentication Token'],
    tooLarge: [413, 'Request Entity Too Large'],
    failed: [502, 'Internal server error'],
    timeout: [504, 'Endpoint request timed out'],
  },
};

export interface Gateway {
  /** The route key it matched ('unmatched' for none), for metering, and the answer. */
  respond(request: IncomingRequest): Promise<{ routeKey: string; response: LocalResponse }>;
}

/** API Gateway's answer past its account or stage throttle (both kinds). */
const THROTTLED = { message: 'Too Many Requests' };

const VOTE_ROUTE = ROUTES.find((route) => route.fn === 'castVote')!;

const NO_CONTENT = Buffer.alloc(0);

/** A function's headers less its CORS headers: where the gateway has a CORS configuration, its own win. */
const withoutCors = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !name.toLowerCase().startsWith('access-control-')));

/**
 * An HTTP API with a CORS configuration answers every preflight itself (an OPTIONS with Origin and
 * Access-Control-Request-Method, on any path): 204, with the CORS headers only when the origin, the
 * method and every requested header are allowed. To every other request from an allowed origin it adds
 * its own CORS headers, in place of any the function sent (AWS: "Configure CORS for HTTP APIs").
 */
function httpApiCors(cors: Extract<CorsModel<string>, { kind: 'http' }>) {
  const allows = (list: string[], value: string) => list.includes('*') || list.includes(value);
  const allowedOrigin = (request: IncomingRequest) => {
    const origin = request.headers.origin;
    return origin !== undefined && allows(cors.allowOrigins, origin) ? origin : undefined;
  };
  return {
    preflight(request: IncomingRequest): LocalResponse | undefined {
      const method = request.headers['access-control-request-method'];
      if (request.method !== 'OPTIONS' || !request.headers.origin || !method) return undefined;
      const origin = allowedOrigin(request);
      const asked = (request.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean);
      const allowed = origin && allows(cors.allowMethods, method) && asked.every((h) => allows(cors.allowHeaders, h));
      const headers: Record<string, string> = allowed
        ? {
            'access-control-allow-origin': origin,
            'access-control-allow-methods': cors.allowMethods.join(','),
            'access-control-allow-headers': cors.allowHeaders.join(','),
            ...(cors.maxAge === undefined ? {} : { 'access-control-max-age': String(cors.maxAge) }),
          }
        : {};
      return { status: 204, headers, body: NO_CONTENT };
    },
    onAnswer(request: IncomingRequest, response: LocalResponse): LocalResponse {
      const headers = withoutCors(response.headers);
      const origin = allowedOrigin(request);
      if (origin) {
        headers['access-control-allow-origin'] = origin;
        if (cors.exposeHeaders.length > 0) headers['access-control-expose-headers'] = cors.exposeHeaders.join(',');
      }
      return { ...response, headers };
    },
  };
}

/** A REST API's OPTIONS methods: mock integrations, answered with their fixed status and headers. */
function restApiCors(cors: Extract<CorsModel<string>, { kind: 'rest' }>) {
  const match = routeMatcher(cors.preflights.map((p) => ({ ...p, method: 'OPTIONS' })));
  return {
    preflight(request: IncomingRequest): LocalResponse | undefined {
      const found = match(request.method, request.path);
      if (!found || 'allowed' in found) return undefined;
      return { status: found.route.status, headers: found.route.headers, body: NO_CONTENT };
    },
    onAnswer: (_request: IncomingRequest, response: LocalResponse) => response,
  };
}

export function createGateway(options: {
  kind: ApiKind;
  routes: RouteModel[];
  functions: Map<string, LoadedFunction>;
  faults: Faults;
  /** With --aws-limits: the account's and the stage's throttles, before anything else. */
  limits?: Pick<AwsLimits, 'frontDoor'>;
  /** The API's CORS configuration, its values resolved; none: it has none. */
  cors?: CorsModel<string>;
}): Gateway {
  const match = routeMatcher(options.routes);
  const errors = GATEWAY_ERRORS[options.kind];
  const gatewayError = ([status, message]: [number, string]) => json(status, { message });
  const cors = options.cors && (options.cors.kind === 'http' ? httpApiCors(options.cors) : restApiCors(options.cors));

  return {
    async respond(request) {
      // Both kinds answer an unknown path and a wrong method alike.
      const matched = match(request.method, request.path);
      if (options.limits?.frontDoor()) return { routeKey: 'throttled', response: json(429, THROTTLED) };
      // A preflight is a request like any other to the throttles and the bill, but no route's.
      const preflight = cors?.preflight(request);
      if (preflight) return { routeKey: 'preflight', response: preflight };
      if (!matched || 'allowed' in matched) return { routeKey: 'unmatched', response: gatewayError(errors.notFound) };
      const { route, pathParameters } = matched;
      const routeKey = `${route.method} ${route.path}`;
      if (request.body === 'too-large') return { routeKey, response: gatewayError(errors.tooLarge) };
      const fn = options.functions.get(route.functionLogicalId);
      if (!fn) return { routeKey, response: gatewayError(errors.failed) };
      const event = received(options.kind, { ...request, body: request.body });
      const at = { method: route.method, path: route.path, pathParameters };
      const outcome = await fn.invoke(options.kind === 'rest' ? restApiEvent(event, at) : httpApiEvent(event, at));
      if (outcome.outcome === 'timeout') return { routeKey, response: gatewayError(errors.timeout) };
      // A throttled function, like a failed one, is a 5xx from API Gateway: it does not pass Lambda's 429 on.
      const response = outcome.outcome === 'ok' ? responseOf(outcome.result) : undefined;
      if (response?.status === 202 && route.path === VOTE_ROUTE.path && takeOne(options.faults, 'timeOutAfterVotes'))
        return { routeKey, response: gatewayError(errors.timeout) };
      if (!response) return { routeKey, response: gatewayError(errors.failed) };
      return { routeKey, response: cors ? cors.onAnswer(request, response) : response };
    },
  };
}

/** A Lambda function URL: any path and method go to the function; CORS and throttling are the URL's. */
export function functionUrlResponder(
  fn: LoadedFunction,
  cors: { allowOrigins: string[]; allowMethods: string[]; maxAge?: number },
) {
  const allowedOrigin = (origin: string | undefined) =>
    origin && (cors.allowOrigins.includes(origin) || cors.allowOrigins.includes('*')) ? origin : undefined;
  return async (request: IncomingRequest): Promise<LocalResponse> => {
    const origin = allowedOrigin(request.headers.origin);
    const corsHeaders: Record<string, string> = origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {};
    // Lambda answers the preflight itself, from the URL's CORS settings: the function never sees it.
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      const methodAllowed =
        cors.allowMethods.includes(request.headers['access-control-request-method']) || cors.allowMethods.includes('*');
      return {
        status: 200,
        headers:
          origin && methodAllowed
            ? {
                ...corsHeaders,
                'access-control-allow-methods': cors.allowMethods.join(','),
                'access-control-max-age': String(cors.maxAge ?? 0),
              }
            : {},
        body: NO_CONTENT,
      };
    }
    if (request.body === 'too-large')
      return json(
        413,
        { message: 'Request must be smaller than 6291456 bytes for the InvokeFunction operation' },
        corsHeaders,
      );
    const outcome = await fn.invoke(functionUrlEvent(received('function-url', { ...request, body: request.body })));
    if (outcome.outcome === 'throttled')
      return json(
        429,
        { Reason: 'ReservedFunctionConcurrentInvocationLimitExceeded', Type: 'User', message: 'Rate Exceeded.' },
        corsHeaders,
      );
    const response = outcome.outcome === 'ok' ? responseOf(outcome.result) : undefined;
    if (!response) return json(502, { Message: null }, corsHeaders);
    // The URL's CORS settings win over whatever the function said.
    return { ...response, headers: { ...withoutCors(response.headers), ...corsHeaders } };
  };
}
