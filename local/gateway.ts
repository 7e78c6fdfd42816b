/**
 * API Gateway, locally: serves exactly the routes the template declares, builds
 * the event of the template's API kind (HTTP API payload 2.0, or REST payload
 * 1.0), and answers gateway-level errors as each kind does on AWS.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiKind } from '../config/app-config';
import { routeMatcher } from '../lambdas/handlers/http';
import { EMULATED_ACCOUNT } from '../config/emulated-aws';
import type { LoadedFunction } from './functions';
import type { Meter } from './metering';
import type { RouteModel } from './template-model';

/** API Gateway's own payload limit. Larger bodies never reach a function. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

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

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml|javascript)|text\/)/i;

async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export interface Gateway {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createGateway(options: { kind: ApiKind; routes: RouteModel[]; functions: Map<string, LoadedFunction>; meter: Meter }): Gateway {
  const match = routeMatcher(options.routes);
  const errors = GATEWAY_ERRORS[options.kind];

  function send(res: ServerResponse, route: string, status: number, headers: Record<string, string>, body: Buffer): void {
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
    options.meter.recordApi(route, status, body.length);
  }
  const gatewayError = (res: ServerResponse, route: string, [status, message]: [number, string]) =>
    send(res, route, status, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ message })));

  return {
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = req.method ?? 'GET';
      // Both kinds answer an unknown path and a wrong method alike.
      const matched = match(method, url.pathname);
      if (!matched || matched === 'method-not-allowed') return gatewayError(res, 'unmatched', errors.notFound);
      const { route, pathParameters } = matched;
      const routeKey = `${route.method} ${route.path}`;

      const raw = await readLimited(req, MAX_PAYLOAD_BYTES);
      if (raw === 'too-large') return gatewayError(res, routeKey, errors.tooLarge);

      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = [value].flat().join(',');
      const isText = raw.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? '') || options.kind === 'rest';
      const body = raw.length === 0 ? undefined : isText ? raw.toString('utf8') : raw.toString('base64');
      const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
      const query = Object.fromEntries(url.searchParams);
      const requestId = randomUUID();
      const now = Date.now();

      const event =
        options.kind === 'http'
          ? {
              version: '2.0',
              routeKey,
              rawPath: url.pathname,
              rawQueryString: url.search.slice(1),
              headers,
              queryStringParameters: Object.keys(query).length ? query : undefined,
              pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
              requestContext: {
                accountId: EMULATED_ACCOUNT,
                apiId: 'local',
                domainName: headers.host ?? 'localhost',
                domainPrefix: 'local',
                http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp, userAgent: headers['user-agent'] ?? '' },
                requestId,
                routeKey,
                stage: '$default',
                time: new Date(now).toUTCString(),
                timeEpoch: now,
              },
              body,
              isBase64Encoded: !isText,
            }
          : {
              resource: route.path,
              path: url.pathname,
              httpMethod: method,
              headers,
              multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
              queryStringParameters: Object.keys(query).length ? query : null,
              multiValueQueryStringParameters: null,
              pathParameters: Object.keys(pathParameters).length ? pathParameters : null,
              stageVariables: null,
              requestContext: {
                accountId: EMULATED_ACCOUNT,
                apiId: 'local',
                resourcePath: route.path,
                httpMethod: method,
                path: `/prod${url.pathname}`,
                stage: 'prod',
                protocol: 'HTTP/1.1',
                requestId,
                requestTimeEpoch: now,
                identity: { sourceIp, userAgent: headers['user-agent'] ?? '' },
              },
              body: body ?? null,
              isBase64Encoded: false,
            };

      const fn = options.functions.get(route.functionLogicalId);
      if (!fn) return gatewayError(res, routeKey, errors.failed);
      const outcome = await fn.invoke(event);
      if (outcome.outcome === 'timeout') return gatewayError(res, routeKey, errors.timeout);
      const result = outcome.result;
      if (outcome.outcome === 'error' || typeof result?.statusCode !== 'number') return gatewayError(res, routeKey, errors.failed);
      const responseBody = result.body === undefined ? Buffer.alloc(0) : Buffer.from(String(result.body), result.isBase64Encoded ? 'base64' : 'utf8');
      send(res, routeKey, result.statusCode, { ...(result.headers ?? {}) }, responseBody);
    },
  };
}
