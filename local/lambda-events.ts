/**
 * Lambda's events, as AWS builds them: an HTTP API's (payload 2.0), a function URL's (2.0 with no
 * route), a REST API's (1.0) and an SQS batch's records. The local runtime builds them from what
 * it receives (local/gateway.ts, local/event-source.ts); the tests from their own data
 * (test/support/factories.ts), so both hand the functions the same shapes.
 */
import type {
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  LambdaFunctionURLEvent,
  SQSEvent,
  SQSRecord,
  SQSRecordAttributes,
} from 'aws-lambda';
import { EMULATED_ACCOUNT } from '../config/emulated-aws';
import { FUNCTION_URL_ROUTE_KEY } from '../lambdas/adapters/api-gateway';

/** Every event a function of the stack is invoked with. */
export type LambdaEvent = APIGatewayProxyEventV2 | APIGatewayProxyEvent | SQSEvent;

/** A request as a gateway received it. */
export interface ReceivedRequest {
  method: string;
  /** As sent, still percent-encoded. */
  path: string;
  /** The query string, without '?'. */
  query: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Text, or base64 when `isBase64Encoded`; undefined when there is none. */
  body: string | undefined;
  isBase64Encoded: boolean;
  sourceIp: string;
  requestId: string;
  /** When it arrived, in milliseconds since the epoch. */
  timeEpoch: number;
}

/** The route API Gateway matched: its template (`/api/poll/{id}`) and the path's parameters. */
export interface MatchedRoute {
  method: string;
  path: string;
  pathParameters: Record<string, string>;
}

const queryParameters = (query: string) => {
  const parameters = Object.fromEntries(new URLSearchParams(query));
  return Object.keys(parameters).length ? parameters : undefined;
};
const parametersOf = (route?: MatchedRoute) =>
  route && Object.keys(route.pathParameters).length ? route.pathParameters : undefined;

function payloadV2(request: ReceivedRequest, routeKey: string, accountId: string, route?: MatchedRoute) {
  return {
    version: '2.0',
    routeKey,
    rawPath: request.path,
    rawQueryString: request.query,
    headers: request.headers,
    queryStringParameters: queryParameters(request.query),
    pathParameters: parametersOf(route),
    requestContext: {
      accountId,
      apiId: 'local',
      domainName: request.headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: request.method,
        path: request.path,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: request.headers['user-agent'] ?? '',
      },
      requestId: request.requestId,
      routeKey,
      stage: '$default',
      time: new Date(request.timeEpoch).toUTCString(),
      timeEpoch: request.timeEpoch,
    },
    body: request.body,
    isBase64Encoded: request.isBase64Encoded,
  };
}

/** An HTTP API's event (payload 2.0) for a route it matched. */
export const httpApiEvent = (request: ReceivedRequest, route: MatchedRoute): APIGatewayProxyEventV2 =>
  payloadV2(request, `${route.method} ${route.path}`, EMULATED_ACCOUNT, route);

/** A function URL's event: payload 2.0 for any path (it has no router), from no account (its auth type is NONE). */
export const functionUrlEvent = (request: ReceivedRequest): LambdaFunctionURLEvent =>
  payloadV2(request, FUNCTION_URL_ROUTE_KEY, 'anonymous');

/** A REST API's event (payload 1.0, Lambda proxy integration) for a route it matched, on the `prod` stage. */
export function restApiEvent(request: ReceivedRequest, route: MatchedRoute): APIGatewayProxyEvent {
  const stage = 'prod';
  return {
    resource: route.path,
    path: request.path,
    httpMethod: request.method,
    headers: request.headers,
    multiValueHeaders: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: queryParameters(request.query) ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: parametersOf(route) ?? null,
    stageVariables: null,
    requestContext: {
      accountId: EMULATED_ACCOUNT,
      apiId: 'local',
      authorizer: null,
      resourceId: 'local',
      resourcePath: route.path,
      httpMethod: request.method,
      path: `/${stage}${request.path}`,
      stage,
      protocol: 'HTTP/1.1',
      requestId: request.requestId,
      requestTimeEpoch: request.timeEpoch,
      identity: restIdentity(request),
    },
    body: request.body ?? null,
    isBase64Encoded: request.isBase64Encoded,
  };
}

/** Who called, as a REST API without an authorizer knows it: the address and the user agent. */
function restIdentity(request: ReceivedRequest): APIGatewayProxyEvent['requestContext']['identity'] {
  return {
    sourceIp: request.sourceIp,
    userAgent: request.headers['user-agent'] ?? null,
    accessKey: null,
    accountId: null,
    apiKey: null,
    apiKeyId: null,
    caller: null,
    clientCert: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    user: null,
    userArn: null,
  };
}

/** A message as SQS returns it to a receive that asks for every system attribute. */
export interface ReceivedMessage {
  messageId: string;
  receiptHandle: string;
  body: string;
  attributes: SQSRecordAttributes;
  md5OfBody: string;
}

/** One record of an SQS batch event; the region is the queue's, read from its ARN. */
export const sqsRecord = (message: ReceivedMessage, queueArn: string): SQSRecord => ({
  ...message,
  messageAttributes: {},
  eventSource: 'aws:sqs',
  eventSourceARN: queueArn,
  awsRegion: queueArn.split(':')[3],
});
