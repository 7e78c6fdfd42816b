/**
 * The quota sheet: every AWS limit the capacity model checks a design against, as data, each with
 * its value, unit, scope, whether and how it can be raised, its source and the day it was checked
 * (the price books' twin: pricing/books/). us-east-1 unless a quota says otherwise. Gathered in
 * docs/sources.md. What the stack itself sets (stage throttle, reserved concurrency, message
 * groups per poll, batch size, counter shards) is not here: the model reads it from the template.
 */

/** Where a limit applies: one of it per... */
export type QuotaScope =
  | 'account and region'
  | 'function'
  | 'queue'
  | 'message group'
  | 'event source'
  | 'partition key'
  | 'table'
  | 'distribution';

/**
 * How a limit is raised: a Service Quotas request (name, and code where AWS gives one), a setting of
 * the owner's own resource (charged), by AWS itself, or not.
 */
export type QuotaRaise =
  | { how: 'service-quotas'; quotaName: string; code?: string }
  | { how: 'setting'; setting: string }
  | { how: 'automatic'; note: string }
  | { how: 'fixed' };

export interface Quota {
  /** What it limits, as the report names it. */
  name: string;
  value: number;
  unit: string;
  scope: QuotaScope;
  raise: QuotaRaise;
  source: string;
  checked: string;
  note?: string;
  /** Its value in other Regions, where AWS sets another (`value` is us-east-1's); the first that lists one wins. */
  inRegions?: ReadonlyArray<{ value: number; regions: readonly string[] }>;
  /** Its value in a Region neither us-east-1 nor any of inRegions. */
  elsewhere?: number;
}

const CHECKED = '2026-11-24';
const APIGW_QUOTAS = 'AWS docs "Amazon API Gateway quotas" (apigateway/latest/developerguide/limits.html)';
const LAMBDA_QUOTAS = 'AWS docs "Lambda quotas" (lambda/latest/dg/gettingstarted-limits.html)';
const LAMBDA_SCALING = 'AWS docs "Understanding Lambda function scaling" (lambda/latest/dg/lambda-concurrency.html)';
const SQS_QUOTAS = 'AWS docs "Amazon SQS message quotas" (SQSDeveloperGuide/quotas-messages.html)';
const SQS_PARTITIONS =
  'AWS docs "High throughput for FIFO queues: partitions and data distribution" (high-throughput-fifo.html)';
const ESM_SQS = 'AWS docs "Configuring scaling behavior for SQS event source mappings" (services-sqs-scaling.html)';
/** The event source's scaling facts, read 2026-11-26 (docs/sources.md). */
const ESM_CHECKED = '2026-11-26';
const DYNAMO_WARM = 'AWS docs "Understanding DynamoDB warm throughput" (warm-throughput-scenarios.html)';
/** How a table's warm reads and writes are raised: the owner's setting, charged, not a Service Quotas request. */
const WARM_THROUGHPUT = {
  how: 'setting',
  setting: "the table's warm throughput (UpdateTable WarmThroughput; charged)",
} as const;

/** API Gateway's newer Regions (Cape Town, Milan, Jakarta, UAE, Hyderabad, Melbourne, Spain, Zurich, Tel Aviv,
 * Calgary, Malaysia, Thailand, Mexico): a quarter of the account throttle and burst. */
const APIGW_NEWER_REGIONS = [
  'af-south-1',
  'eu-south-1',
  'ap-southeast-3',
  'me-central-1',
  'ap-south-2',
  'ap-southeast-4',
  'eu-south-2',
  'eu-central-2',
  'il-central-1',
  'ca-west-1',
  'ap-southeast-5',
  'ap-southeast-7',
  'mx-central-1',
] as const;

/** Every limit the capacity model reads, by id. */
export const QUOTAS = {
  apiAccountRequestsPerSecond: {
    name: 'API Gateway account throttle',
    value: 10_000,
    unit: 'requests/s',
    scope: 'account and region',
    raise: { how: 'service-quotas', quotaName: 'Throttle rate', code: 'L-8A5B8E43' },
    source: APIGW_QUOTAS,
    checked: CHECKED,
    note: 'shared by every HTTP, REST and WebSocket API of the account in the Region; 2,500 in newer Regions',
    inRegions: [{ value: 2_500, regions: APIGW_NEWER_REGIONS }],
  },
  apiAccountBurst: {
    name: 'API Gateway account burst',
    value: 5_000,
    unit: 'requests',
    scope: 'account and region',
    raise: { how: 'fixed' },
    source: APIGW_QUOTAS,
    checked: CHECKED,
    note: 'AWS sets it from the rate quota; a customer cannot ask for a change',
    inRegions: [{ value: 1_250, regions: APIGW_NEWER_REGIONS }],
  },
  lambdaAccountConcurrency: {
    name: 'Lambda concurrent executions',
    value: 1_000,
    unit: 'concurrent executions',
    scope: 'account and region',
    raise: { how: 'service-quotas', quotaName: 'Concurrent executions', code: 'L-B99A9384' },
    source: LAMBDA_QUOTAS,
    checked: CHECKED,
    note: 'can be raised to tens of thousands',
  },
  lambdaNewAccountConcurrency: {
    name: 'Lambda concurrent executions, new account',
    value: 10,
    unit: 'concurrent executions',
    scope: 'account and region',
    raise: { how: 'automatic', note: 'AWS raises it with usage; a Service Quotas request speeds that up' },
    source:
      `${LAMBDA_QUOTAS} ("new AWS accounts have reduced concurrency"); the value as reported by users ` +
      '(awslabs/fhir-works-on-aws-deployment#691, 2022; aws-samples/alarm-context-tool#2, 2024)',
    checked: CHECKED,
    note: 'AWS does not publish the value',
  },
  lambdaMinUnreserved: {
    name: 'Lambda unreserved concurrency kept free',
    value: 100,
    unit: 'concurrent executions',
    scope: 'account and region',
    raise: { how: 'fixed' },
    source: 'AWS Lambda API reference "PutFunctionConcurrency"',
    checked: CHECKED,
    note: 'reserved concurrency can take only what is above it',
  },
  lambdaRequestsPerConcurrency: {
    name: 'Lambda requests a second per unit of concurrency',
    value: 10,
    unit: 'requests/s per concurrent execution',
    scope: 'function',
    raise: { how: 'fixed' },
    source: `${LAMBDA_SCALING}; "Lambda function URLs: throttling" (urls-configuration.html)`,
    checked: CHECKED,
    note: 'for the account (10 x its concurrency) and for a function with reserved concurrency',
  },
  lambdaScalingPerTenSeconds: {
    name: 'Lambda scaling rate',
    value: 1_000,
    unit: 'execution environments per 10 s',
    scope: 'function',
    raise: { how: 'fixed' },
    source: 'AWS docs "Lambda scaling behavior" (lambda/latest/dg/scaling-behavior.html); AWS News Blog 2023-11-26',
    checked: CHECKED,
    note: 'each function scales on its own; callers get 429 while it catches up',
  },
  sqsFifoSendsPerQueue: {
    name: 'SQS FIFO high-throughput sends',
    value: 70_000,
    unit: 'SendMessage calls/s',
    scope: 'queue',
    raise: { how: 'service-quotas', quotaName: 'FIFO high throughput mode: transactions per second per API action' },
    source: SQS_QUOTAS,
    checked: CHECKED,
    note: 'unbatched, per API action, us-east-1, us-west-2 and eu-west-1 (2,400 to 19,000 elsewhere)',
    inRegions: [
      { value: 70_000, regions: ['us-west-2', 'eu-west-1'] },
      { value: 19_000, regions: ['us-east-2', 'eu-central-1'] },
      { value: 9_000, regions: ['ap-south-1', 'ap-southeast-1', 'ap-southeast-2', 'ap-northeast-1'] },
      { value: 4_500, regions: ['eu-west-2', 'sa-east-1'] },
    ],
    elsewhere: 2_400,
  },
  sqsFifoSendsPerGroup: {
    name: 'SQS FIFO sends per message group',
    value: 300,
    unit: 'SendMessage calls/s',
    scope: 'message group',
    raise: { how: 'fixed' },
    source: SQS_PARTITIONS,
    checked: CHECKED,
    note: 'a message group lives on one partition: 300 unbatched sends a second',
  },
  fifoBatchesInFlightPerGroup: {
    name: 'FIFO event source batches in flight per message group',
    value: 1,
    unit: 'batches',
    scope: 'message group',
    raise: { how: 'fixed' },
    source: ESM_SQS,
    checked: CHECKED,
    note: 'a group gets its next batch only when the last one is settled',
  },
  fifoEventSourceBatchSize: {
    name: 'FIFO event source batch size',
    value: 10,
    unit: 'messages',
    scope: 'event source',
    raise: { how: 'fixed' },
    source: 'AWS docs "Lambda parameters for Amazon SQS event source mappings" (services-sqs-parameters.html)',
    checked: CHECKED,
    note: 'no batching window on FIFO queues',
  },
  esmInitialConcurrency: {
    name: 'SQS event source, concurrent batches from idle',
    value: 5,
    unit: 'concurrent batches',
    scope: 'event source',
    raise: { how: 'fixed' },
    source: ESM_SQS,
    checked: ESM_CHECKED,
    note: 'when messages arrive, Lambda starts processing five batches at a time',
  },
  esmScalingPerMinute: {
    name: 'SQS event source scaling rate',
    value: 300,
    unit: 'concurrent batches a minute',
    scope: 'event source',
    raise: { how: 'setting', setting: 'provisioned mode (ProvisionedPollerConfig; charged per event poller hour)' },
    source: ESM_SQS,
    checked: ESM_CHECKED,
    note: 'while messages remain, Lambda adds up to 300 concurrent batches a minute (on-demand mode)',
  },
  esmMaxConcurrency: {
    name: 'SQS event source concurrent batches',
    value: 1_000,
    unit: 'concurrent batches',
    scope: 'event source',
    raise: { how: 'setting', setting: 'provisioned mode (ProvisionedPollerConfig; charged per event poller hour)' },
    source: ESM_SQS,
    checked: ESM_CHECKED,
    note: 'on-demand mode; a FIFO queue is further bounded by its message groups, one batch in flight each',
  },
  esmProvisionedScalingPerMinute: {
    name: 'SQS event source scaling rate, provisioned mode',
    value: 1_000,
    unit: 'concurrent invocations a minute',
    scope: 'event source',
    raise: { how: 'fixed' },
    source: `${ESM_SQS}; AWS News Blog 2025-11-14 (provisioned mode for SQS event source mappings)`,
    checked: ESM_CHECKED,
    note: '3x the on-demand rate, from the minimum pollers kept (at least 2)',
  },
  esmPollerConcurrency: {
    name: 'SQS event poller concurrent invocations',
    value: 10,
    unit: 'concurrent invocations per poller',
    scope: 'event source',
    raise: { how: 'fixed' },
    source: 'AWS docs "Lambda parameters for Amazon SQS event source mappings" (ProvisionedPollerConfig)',
    checked: ESM_CHECKED,
    note: 'each poller handles up to 1 MB/s and 10 concurrent invokes; 2 to 200 kept, up to 2,000',
  },
  dynamoItemWriteUnits: {
    name: 'DynamoDB writes per partition key',
    value: 1_000,
    unit: 'write units/s',
    scope: 'partition key',
    raise: { how: 'fixed' },
    source: `${DYNAMO_WARM}; "Key range throughput exceeded (hot partitions)"`,
    checked: CHECKED,
    note: "a partition takes 1,000 write units a second, and a key's items never span two partitions",
  },
  dynamoItemReadUnits: {
    name: 'DynamoDB reads per partition key',
    value: 3_000,
    unit: 'read units/s',
    scope: 'partition key',
    raise: { how: 'fixed' },
    source: DYNAMO_WARM,
    checked: CHECKED,
    note: 'an eventually consistent read of an item under 4 KB is half a unit: 6,000 reads a second',
  },
  dynamoNewTableWriteUnits: {
    name: 'DynamoDB new on-demand table, warm writes',
    value: 4_000,
    unit: 'write units/s',
    scope: 'table',
    raise: WARM_THROUGHPUT,
    source: `${DYNAMO_WARM}; "DynamoDB on-demand capacity mode"`,
    checked: CHECKED,
    note: 'beyond it the table doubles its previous peak as traffic grows; pre-warming is charged',
  },
  dynamoNewTableReadUnits: {
    name: 'DynamoDB new on-demand table, warm reads',
    value: 12_000,
    unit: 'read units/s',
    scope: 'table',
    raise: WARM_THROUGHPUT,
    source: `${DYNAMO_WARM}; "DynamoDB on-demand capacity mode"`,
    checked: CHECKED,
  },
  dynamoTableWriteUnits: {
    name: 'DynamoDB on-demand table writes',
    value: 40_000,
    unit: 'write units/s',
    scope: 'table',
    raise: { how: 'service-quotas', quotaName: 'Table-level write throughput limit' },
    source: 'AWS docs "DynamoDB on-demand capacity mode": throughput default quotas',
    checked: CHECKED,
  },
  cloudFrontRequestsPerSecond: {
    name: 'CloudFront requests per distribution',
    value: 250_000,
    unit: 'requests/s',
    scope: 'distribution',
    raise: { how: 'service-quotas', quotaName: 'Requests per second per distribution' },
    source: 'AWS docs "Quotas: Amazon CloudFront" (AmazonCloudFront/latest/DeveloperGuide/cloudfront-limits.html)',
    checked: CHECKED,
    note: 'does not apply to flat-rate plans',
  },
} as const satisfies Record<string, Quota>;

export type QuotaId = keyof typeof QUOTAS;
