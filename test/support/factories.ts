/** Test data shaped as production sees it: polls, votes, SQS records, API requests and Lambda events. */
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, SQSRecord } from 'aws-lambda';
import { createPoll, type Poll } from '../../lambdas/domain/poll';
import type { QueuedRecord } from '../../lambdas/domain/tally';
import type { VoteMessage } from '../../lambdas/domain/vote';
import { toQueuedRecord } from '../../lambdas/handlers/count-votes';
import type { ApiRequest } from '../../lambdas/handlers/http';

/** A fixed "now" for tests that hold time still. */
export const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

export const testPoll = (input: Record<string, unknown> = {}, nowMs = NOW): Poll =>
  createPoll({ title: 'Best editor', options: ['vim', 'emacs', 'nano'], lifetimeMinutes: 10, ...input }, nowMs);

let serial = 0;
/** A vote message's body, as the vote function queues it. */
export function voteBody(pollId: string, option: number, extra: Partial<VoteMessage> = {}): string {
  serial++;
  return JSON.stringify({
    v: 1,
    voteId: `vote${String(serial).padStart(17, '0')}`,
    pollId,
    option,
    castAt: new Date(NOW).toISOString(),
    ...extra,
  });
}

// SQS sequence numbers are large, grow, and are not consecutive.
let sequence = 5_000_000_000_000_000_000n;

export interface RecordOptions {
  /** The message group's shard within the poll (the group is `<poll>.<shard>`). */
  shard?: number;
  groupId?: string;
  sequenceNumber?: string;
  receiveCount?: number;
  body?: string;
}

/** An SQS record as the event source hands it to the consumer. */
export function sqsRecord(
  body: string,
  options: Omit<RecordOptions, 'body' | 'shard'> & { groupId: string },
): SQSRecord {
  sequence += 13n;
  const sequenceNumber = options.sequenceNumber ?? String(sequence);
  return {
    messageId: `msg-${++serial}`,
    receiptHandle: 'test',
    body,
    attributes: {
      MessageGroupId: options.groupId,
      SequenceNumber: sequenceNumber,
      ApproximateReceiveCount: String(options.receiveCount ?? 1),
      SentTimestamp: String(NOW),
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: String(NOW),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:votes.fifo',
    awsRegion: 'us-east-1',
  };
}

/** A vote for `pollId` as an SQS record. */
export const voteRecord = (pollId: string, option: number, options: RecordOptions = {}): SQSRecord =>
  sqsRecord(options.body ?? voteBody(pollId, option), {
    groupId: options.groupId ?? `${pollId}.${options.shard ?? 0}`,
    ...options,
  });

/** The same, as the consumer's domain code sees it. */
export const queuedVote = (pollId: string, option: number, options: RecordOptions = {}): QueuedRecord =>
  toQueuedRecord(voteRecord(pollId, option, options));

/** A request as the API's handlers see it, whatever the platform. */
export function apiRequest(request: Partial<ApiRequest> & { route: string }): ApiRequest {
  const json: Record<string, string> =
    request.body !== undefined && request.headers === undefined ? { 'content-type': 'application/json' } : {};
  return {
    method: 'GET',
    pathParameters: {},
    headers: { ...json, ...request.headers },
    body: undefined,
    sourceIp: '192.0.2.1',
    ...request,
  };
}

/** An HTTP API (payload 2.0) event; `routeKey: '$default'` makes it a function URL's. */
export function httpApiEvent(
  method: string,
  path: string,
  options: {
    routeKey?: string;
    pathParameters?: Record<string, string>;
    body?: string;
    headers?: Record<string, string>;
  } = {},
): APIGatewayProxyEventV2 {
  const routeKey = options.routeKey ?? `${method} ${path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: options.headers ?? {},
    pathParameters: options.pathParameters,
    body: options.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'test',
      domainPrefix: 'test',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'test' },
      requestId: 'test',
      routeKey,
      stage: '$default',
      time: new Date(NOW).toUTCString(),
      timeEpoch: NOW,
    },
  };
}

/** A REST API (payload 1.0) event. */
export function restApiEvent(
  method: string,
  resource: string,
  options: { pathParameters?: Record<string, string>; body?: string; headers?: Record<string, string> } = {},
): APIGatewayProxyEvent {
  return {
    resource,
    path: resource,
    httpMethod: method,
    headers: options.headers ?? {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    body: options.body ?? null,
    isBase64Encoded: false,
    requestContext: { identity: { sourceIp: '192.0.2.1' } } as APIGatewayProxyEvent['requestContext'],
  };
}
