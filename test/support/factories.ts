/**
 * Test data shaped as production sees it: polls, votes, SQS records, API requests and Lambda
 * events (built by the local runtime's own builders, local/lambda-events.ts, from test data).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, LambdaFunctionURLEvent, SQSRecord } from 'aws-lambda';
import { EMULATED_ACCOUNT, EMULATED_REGION } from '../../config/emulated-aws';
import { createPoll, type Poll } from '../../domain/poll';
import type { QueuedRecord } from '../../domain/tally';
import type { VoteMessage } from '../../domain/vote';
import { toQueuedRecord } from '../../lambdas/handlers/count-votes';
import type { ApiRequest } from '../../lambdas/handlers/http';
import {
  functionUrlEvent as buildFunctionUrlEvent,
  httpApiEvent as buildHttpApiEvent,
  restApiEvent as buildRestApiEvent,
  sqsRecord as buildSqsRecord,
  type ReceivedRequest,
} from '../../local/lambda-events';

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
  return buildSqsRecord(
    {
      messageId: `msg-${++serial}`,
      receiptHandle: 'test',
      body,
      attributes: {
        MessageGroupId: options.groupId,
        SequenceNumber: options.sequenceNumber ?? String(sequence),
        ApproximateReceiveCount: String(options.receiveCount ?? 1),
        SentTimestamp: String(NOW),
        SenderId: 'test',
        ApproximateFirstReceiveTimestamp: String(NOW),
      },
      md5OfBody: '',
    },
    `arn:aws:sqs:${EMULATED_REGION}:${EMULATED_ACCOUNT}:votes.fifo`,
  );
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

interface EventOptions {
  pathParameters?: Record<string, string>;
  body?: string;
  headers?: Record<string, string>;
}

/** A request as a gateway receives it, from 192.0.2.1 at NOW. */
const received = (method: string, path: string, options: EventOptions): ReceivedRequest => ({
  method,
  path,
  query: '',
  headers: options.headers ?? {},
  body: options.body,
  isBase64Encoded: false,
  sourceIp: '192.0.2.1',
  requestId: 'test',
  timeEpoch: NOW,
});

/** An HTTP API (payload 2.0) event for the route `route` (a template, e.g. `/api/poll/{id}`; the path by default). */
export const httpApiEvent = (
  method: string,
  path: string,
  options: EventOptions & { route?: string } = {},
): APIGatewayProxyEventV2 =>
  buildHttpApiEvent(received(method, path, options), {
    method,
    path: options.route ?? path,
    pathParameters: options.pathParameters ?? {},
  });

/** A function URL's event (payload 2.0, route key $default): the path is the function's to match. */
export const functionUrlEvent = (method: string, path: string, options: EventOptions = {}): LambdaFunctionURLEvent =>
  buildFunctionUrlEvent(received(method, path, options));

/** A REST API (payload 1.0) event, for a request to the resource's own path. */
export const restApiEvent = (method: string, resource: string, options: EventOptions = {}): APIGatewayProxyEvent =>
  buildRestApiEvent(received(method, resource, options), {
    method,
    path: resource,
    pathParameters: options.pathParameters ?? {},
  });
