/**
 * Which price line bills each quantity of a month's usage (BILLED_USAGE: the estimate's bill is made from it), and
 * for those CloudWatch measures, which metrics a deployed stack's bill is read from and how each becomes the
 * line's usage: one table for the stack's cost dashboard (lib/cost-dashboard.ts: metric math in dollars an hour)
 * and for the estimator's CloudWatch reader (cost/estimate/cloudwatch.ts: a window's usage, projected to a
 * month). All are made from it, so that they count alike (they drifted once: the reader's SQS requests were not
 * the dashboard's). A leaf: it reads only the bill's lines (no prices) and a batch's SQS requests.
 */
import type { PriceId } from '../pricing/price-lines';
import { SQS_REQUESTS_PER_BATCH } from './vote-rates';

/** The services whose metrics are read, by their key in the dashboard's math, as a bill names them. */
export const METERED_SERVICES = {
  api: 'API Gateway',
  lambda: 'Lambda',
  sqs: 'SQS',
  dynamodb: 'DynamoDB',
  cloudfront: 'CloudFront',
} as const;
export type MeteredService = (typeof METERED_SERVICES)[keyof typeof METERED_SERVICES];

/** The kind of resource a metric is published for. */
export type MeteredResource = 'api' | 'function' | 'queue' | 'table' | 'distribution';

/** A metric as CloudWatch keeps it: its namespace and name, the statistic summed, the dimension naming it. */
export interface MeteredMetric {
  service: MeteredService;
  resource: MeteredResource;
  namespace: string;
  metricName: string;
  statistic: 'Sum';
  /** The dimension that names the resource; an API's by its kind (a REST API's metrics go by its name). */
  dimension: string | { http: string; rest: string };
  /** Dimensions each of its metrics carries besides. */
  fixedDimensions?: Record<string, string>;
  /** Where it is published, when not in the stack's region. */
  region?: 'us-east-1';
  /** What one of its units counts. */
  unit: string;
}

const sum = { statistic: 'Sum' } as const;
/** CloudFront publishes its metrics in us-east-1 only, with this dimension. */
const EDGE = { region: 'us-east-1', fixedDimensions: { Region: 'Global' } } as const;

/** Every metric read, by resource in the order the reader asks CloudWatch for them. */
export const METERED_METRICS = {
  apiRequests: {
    ...sum,
    service: 'API Gateway',
    resource: 'api',
    namespace: 'AWS/ApiGateway',
    metricName: 'Count',
    dimension: { http: 'ApiId', rest: 'ApiName' },
    unit: 'requests',
  },
  invocations: {
    ...sum,
    service: 'Lambda',
    resource: 'function',
    namespace: 'AWS/Lambda',
    metricName: 'Invocations',
    dimension: 'FunctionName',
    unit: 'invocations',
  },
  durationMs: {
    ...sum,
    service: 'Lambda',
    resource: 'function',
    namespace: 'AWS/Lambda',
    metricName: 'Duration',
    dimension: 'FunctionName',
    unit: 'ms',
  },
  messagesSent: {
    ...sum,
    service: 'SQS',
    resource: 'queue',
    namespace: 'AWS/SQS',
    metricName: 'NumberOfMessagesSent',
    dimension: 'QueueName',
    unit: 'messages',
  },
  messagesReceived: {
    ...sum,
    service: 'SQS',
    resource: 'queue',
    namespace: 'AWS/SQS',
    metricName: 'NumberOfMessagesReceived',
    dimension: 'QueueName',
    unit: 'messages',
  },
  messagesDeleted: {
    ...sum,
    service: 'SQS',
    resource: 'queue',
    namespace: 'AWS/SQS',
    metricName: 'NumberOfMessagesDeleted',
    dimension: 'QueueName',
    unit: 'messages',
  },
  emptyReceives: {
    ...sum,
    service: 'SQS',
    resource: 'queue',
    namespace: 'AWS/SQS',
    metricName: 'NumberOfEmptyReceives',
    dimension: 'QueueName',
    unit: 'receives',
  },
  readUnits: {
    ...sum,
    service: 'DynamoDB',
    resource: 'table',
    namespace: 'AWS/DynamoDB',
    metricName: 'ConsumedReadCapacityUnits',
    dimension: 'TableName',
    unit: 'RRU',
  },
  writeUnits: {
    ...sum,
    service: 'DynamoDB',
    resource: 'table',
    namespace: 'AWS/DynamoDB',
    metricName: 'ConsumedWriteCapacityUnits',
    dimension: 'TableName',
    unit: 'WRU',
  },
  edgeRequests: {
    ...sum,
    ...EDGE,
    service: 'CloudFront',
    resource: 'distribution',
    namespace: 'AWS/CloudFront',
    metricName: 'Requests',
    dimension: 'DistributionId',
    unit: 'requests',
  },
  edgeBytes: {
    ...sum,
    ...EDGE,
    service: 'CloudFront',
    resource: 'distribution',
    namespace: 'AWS/CloudFront',
    metricName: 'BytesDownloaded',
    dimension: 'DistributionId',
    unit: 'bytes',
  },
} as const satisfies Record<string, MeteredMetric>;
export type MeteredMetricId = keyof typeof METERED_METRICS;

/** The stack's queues: the votes', and the dead letters' (where redelivered votes end). */
export type Queue = 'voteQueue' | 'deadLetterQueue';

/**
 * Which of the stack's resources a term reads: one, or each of a kind. The reader reads each function of the
 * stack (CDK's helpers are billed too), the dashboard graphs the app's own.
 */
export type TermOf = 'api' | 'eachFunction' | 'consumer' | Queue | 'eachQueue' | 'table' | 'distribution';

/** Each resource a term reads, in words (a message's). */
export const TERM_OF_LABELS: Record<TermOf, string> = {
  api: 'the API',
  eachFunction: 'each function',
  consumer: 'the consumer',
  voteQueue: 'the vote queue',
  deadLetterQueue: 'the dead-letter queue',
  eachQueue: 'each queue',
  table: 'the table',
  distribution: 'the distribution',
};

/** Lambda's GB-second: a function's milliseconds, over these, times its memory in MB over MB_PER_GB. */
export const MS_PER_SECOND = 1000;
export const MB_PER_GB = 1024;

/** One metric's part of a line's usage, in the price's units. */
export interface UsageTerm {
  /** Its name in the dashboard's math: a function's after the function's name (`castVoteMs`); each queue's. */
  id: string | Record<Queue, string>;
  metric: MeteredMetricId;
  of: TermOf;
  /** Requests each of the metric's units brings. */
  times?: number;
  /** Bytes, counted in the price's GB (its `bytes.perUnit`). */
  inBytes?: true;
  /** Milliseconds, counted in GB-seconds at the function's memory. */
  atMemory?: true;
  /**
   * Where this metric has no datapoints, the reader counts a request for each of these instead (an upper
   * bound); the dashboard always has it.
   */
  orElse?: { metrics: MeteredMetricId[]; of: TermOf };
}

/** A line's price: one, or one by the API's kind, or by the function's architecture. */
export type PricedBy = PriceId | { http: PriceId; rest: PriceId } | { arm64: PriceId; x86_64: PriceId };

/** The quantities of a month's usage (cost/estimate/monthly-usage.ts) that a bill prices. */
export type BilledQuantity =
  | 'apiRequests'
  | 'invocations'
  | 'gbSeconds'
  | 'sqsRequests'
  | 'writeUnits'
  | 'readUnits'
  | 'storageGb'
  | 'logsGb'
  | 'logsStoredGb'
  | 'alarms'
  | 'dashboards'
  | 'customMetrics'
  | 'xrayTraces'
  | 'webSocketMessages'
  | 'webSocketConnectionMinutes'
  | 'cloudFrontRequests'
  | 'cloudFrontFunctionInvocations'
  | 'cloudFrontGb'
  | 'cloudFrontOriginGb'
  | 's3Gets'
  | 'managedInstanceHours'
  | 'apiTransferGb';

/**
 * A quantity of the month and the price it is billed at. Priced by variant, a quantity kept by variant (a
 * record keyed as the price is) bills each variant at its own price; a single quantity, the stack's variant.
 */
export interface BilledUsage {
  usage: BilledQuantity;
  price: PricedBy;
  /** Each variant's usage billed at its own price (GB-seconds by architecture). */
  each?: true;
}

/** A billed quantity CloudWatch measures: the service whose metrics give it, and the terms it is the sum of. */
export interface PricedUsage extends BilledUsage {
  service: MeteredService;
  terms: UsageTerm[];
}

/**
 * The one map from a month's usage to the bill's price lines, in the bill's order: the estimate prices a
 * profile's month through it (cost/estimate/bill.ts), and its metered rows make the stack's cost dashboard
 * and the measured month of --from-cloudwatch (cost/estimate/cloudwatch-bill.ts).
 */
export const BILLED_USAGE: readonly (BilledUsage | PricedUsage)[] = [
  {
    usage: 'apiRequests',
    service: 'API Gateway',
    price: { http: 'httpApiRequests', rest: 'restApiRequests' },
    terms: [{ id: 'apiRequests', metric: 'apiRequests', of: 'api' }],
  },
  {
    usage: 'invocations',
    service: 'Lambda',
    price: 'lambdaRequests',
    terms: [{ id: 'Invocations', metric: 'invocations', of: 'eachFunction' }],
  },
  {
    usage: 'gbSeconds',
    each: true,
    service: 'Lambda',
    price: { arm64: 'lambdaArmGbSeconds', x86_64: 'lambdaX86GbSeconds' },
    terms: [{ id: 'Ms', metric: 'durationMs', of: 'eachFunction', atMemory: true }],
  },
  {
    // A send per vote (and per dead letter), a receive and a batch delete per consumer batch, and the poller's
    // empty receives: as the cost model counts them (sizing/vote-rates.ts).
    usage: 'sqsRequests',
    service: 'SQS',
    price: 'sqsFifoRequests',
    terms: [
      {
        id: { voteQueue: 'sqsSent', deadLetterQueue: 'sqsDeadLettered' },
        metric: 'messagesSent',
        of: 'eachQueue',
      },
      { id: 'sqsEmptyReceives', metric: 'emptyReceives', of: 'voteQueue' },
      {
        id: 'sqsBatches',
        metric: 'invocations',
        of: 'consumer',
        times: SQS_REQUESTS_PER_BATCH,
        orElse: { metrics: ['messagesReceived', 'messagesDeleted'], of: 'eachQueue' },
      },
    ],
  },
  {
    usage: 'writeUnits',
    service: 'DynamoDB',
    price: 'dynamoWriteUnits',
    terms: [{ id: 'writeUnits', metric: 'writeUnits', of: 'table' }],
  },
  {
    usage: 'readUnits',
    service: 'DynamoDB',
    price: 'dynamoReadUnits',
    terms: [{ id: 'readUnits', metric: 'readUnits', of: 'table' }],
  },
  { usage: 'storageGb', price: 'dynamoStorage' },
  { usage: 'logsGb', price: 'logsIngestion' },
  { usage: 'logsStoredGb', price: 'logsStorage' },
  { usage: 'alarms', price: 'alarms' },
  { usage: 'dashboards', price: 'dashboards' },
  { usage: 'customMetrics', price: 'customMetrics' },
  { usage: 'xrayTraces', price: 'xrayTraces' },
  { usage: 'webSocketMessages', price: 'webSocketMessages' },
  { usage: 'webSocketConnectionMinutes', price: 'webSocketConnectionMinutes' },
  {
    usage: 'cloudFrontRequests',
    service: 'CloudFront',
    price: 'cloudFrontRequests',
    terms: [{ id: 'edgeRequests', metric: 'edgeRequests', of: 'distribution' }],
  },
  { usage: 'cloudFrontFunctionInvocations', price: 'cloudFrontFunctions' },
  {
    usage: 'cloudFrontGb',
    service: 'CloudFront',
    price: 'cloudFrontTransfer',
    terms: [{ id: 'edgeBytes', metric: 'edgeBytes', of: 'distribution', inBytes: true }],
  },
  { usage: 'cloudFrontOriginGb', price: 'cloudFrontOriginTransfer' },
  { usage: 's3Gets', price: 's3Gets' },
  // An instance hour is billed twice: the EC2 instance, and Lambda's management fee on it.
  { usage: 'managedInstanceHours', price: 'managedInstanceHours' },
  { usage: 'managedInstanceHours', price: 'managedInstanceFee' },
  { usage: 'apiTransferGb', price: 'dataTransferOut' },
];

/** The rows CloudWatch measures: what the dashboard prices in dollars an hour and the reader in a month. */
export const PRICED_USAGE: readonly PricedUsage[] = BILLED_USAGE.filter((row): row is PricedUsage => 'terms' in row);
