/**
 * Lambda's HTTP events to the API's one request shape and back: API Gateway's HTTP API
 * (payload 2.0), its REST API (payload 1.0, what LocalStack's free plan offers) and a
 * function URL (payload 2.0 without a route: the path is matched here).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Logger } from '@aws-lambda-powertools/logger';
import { API_CORS, type RouteSpec } from '../../config/api-contract';
import { PollError } from '../../domain/errors';
import {
  answer,
  errorResponse,
  methodNotAllowed,
  routeMatcher,
  type ApiRequest,
  type ApiResponse,
  type ApiRoute,
  type RouteMatcher,
} from '../handlers/http';

export type ApiEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

const isV2 = (event: ApiEvent): event is APIGatewayProxyEventV2 => (event as APIGatewayProxyEventV2).version === '2.0';

/** A function URL's event: payload 2.0 with the catch-all route key. */
export const FUNCTION_URL_ROUTE_KEY = '$default';

/**
 * The request, or the answer when the event names no route of ours (only a function URL can:
 * API Gateway routes only what the stack declares, so only a function URL's path is matched):
 * PollError `not_found` or `method_not_allowed` as its response, not thrown.
 */
export function toApiRequest(event: ApiEvent, match: RouteMatcher<RouteSpec>): ApiRequest | ApiResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const rawBody = event.body ?? undefined;
  const body =
    rawBody !== undefined && event.isBase64Encoded ? Buffer.from(rawBody, 'base64').toString('utf8') : rawBody;
  if (!isV2(event)) {
    return {
      method: event.httpMethod,
      route: event.resource,
      pathParameters: event.pathParameters ?? {},
      headers,
      body,
      sourceIp: event.requestContext.identity.sourceIp,
    };
  }
  const method = event.requestContext.http.method;
  const sourceIp = event.requestContext.http.sourceIp;
  if (event.routeKey !== FUNCTION_URL_ROUTE_KEY) {
    return {
      method,
      route: event.routeKey.slice(event.routeKey.indexOf(' ') + 1),
      pathParameters: event.pathParameters ?? {},
      headers,
      body,
      sourceIp,
    };
  }
  const found = match(method, event.rawPath);
  if (found === undefined)
    return errorResponse(new PollError('not_found', `No such route: ${event.rawPath.slice(0, 100)}`));
  if ('allowed' in found) return methodNotAllowed(found.allowed);
  return { method, route: found.route.path, pathParameters: found.pathParameters, headers, body, sourceIp };
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

function respond(response: ApiResponse, corsHeaders: Record<string, string>): APIGatewayProxyResult {
  return {
    statusCode: response.status,
    headers: { ...JSON_HEADERS, ...corsHeaders, ...response.headers },
    body: JSON.stringify(response.body),
  };
}

/**
 * The Lambda handler for a route. `routes` are the routes this function serves (a function URL
 * has no router in front). The site calls the API from its own origin: an HTTP API and a
 * function URL add the CORS header themselves (from the stack's settings); a REST API with
 * Lambda proxy integration needs it from the function (SITE_ORIGIN). It throws nothing a route
 * throws: a PollError becomes its status and body, anything else a logged 500 `internal_error`.
 */
export function apiGatewayHandler(
  route: ApiRoute,
  options: { logger: Logger; routes: readonly RouteSpec[]; siteOrigin?: string },
) {
  const corsHeaders: Record<string, string> = options.siteOrigin
    ? {
        'access-control-allow-origin': options.siteOrigin,
        'access-control-expose-headers': API_CORS.exposeHeaders.join(', '),
      }
    : {};
  const match = routeMatcher(options.routes);
  return async (event: ApiEvent, context: Context): Promise<APIGatewayProxyResult> => {
    options.logger.addContext(context);
    const request = toApiRequest(event, match);
    if (!('route' in request)) return respond(request, corsHeaders);
    return respond(await answer(route, request, options.logger), corsHeaders);
  };
}
