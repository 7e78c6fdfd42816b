/**
 * What each line of an AWS bill is, wherever it is priced: its service, its unit, how many raw units one priced
 * unit holds, its GB where it is priced by the byte, and the always-free tier AWS gives an account (the same in
 * every region). What a line costs is a region's price book's (pricing/books/<region>.json, read by
 * pricing/price-book.ts); how the Price List names it, pricing/price-list-selectors.ts.
 */
import { CLOUDFRONT_FLAT_RATE_PLANS } from './plans-and-credits';

export interface FreeTier {
  /** Units free each month. */
  units: number;
  /** A pool shared by several prices (e.g. Lambda GB-seconds for arm64 and x86). */
  pool?: string;
}

export interface PriceLine {
  service: string;
  item: string;
  /** What one priced unit is, for the table ("1M requests", "GB-s"). */
  unit: string;
  /** How many raw units one priced unit holds (1e6 for "per million"). */
  per: number;
  /**
   * For a price per GB (or GB-month): the bytes in one, as AWS defines it for that line (bytesToUnits turns
   * bytes into it), and where that definition comes from.
   */
  bytes?: { perUnit: number; source: string };
  free?: FreeTier;
}

const M = 1e6;

/**
 * AWS's GB of data transfer: 2^30 bytes. Its API Gateway pricing example turns 3 KB answers into GB by dividing
 * by 1,024 x 1,024 (KB to GB); CloudFront and EC2 meter the same DataTransfer-Out-Bytes usage types.
 */
const TRANSFER_GB = {
  perUnit: 2 ** 30,
  source:
    'aws.amazon.com/api-gateway/pricing (pricing example: 3 KB x 5 M answers / (1,024 x 1,024) KB a GB), 2026-11-26',
};
/** The other byte lines (logs, storage): AWS gives no example there; the same binary GB is assumed. */
const STORED_GB = { perUnit: 2 ** 30, source: "assumed: AWS's data transfer GB (2^30 bytes), 2026-11-26" };

const sizeText = (gb: number) => (gb >= 1024 ? `${gb / 1024} TB` : `${gb} GB`);

/** Each flat-rate plan as a line: a month's fee, with its allowance in its name. */
const flatRatePlanLines = () =>
  Object.fromEntries(
    CLOUDFRONT_FLAT_RATE_PLANS.map((plan) => [
      plan.id,
      {
        service: 'CloudFront',
        item: `flat-rate plan ${plan.name} (${plan.requests / 1e6} M requests, ${sizeText(plan.transferGb)})`,
        unit: 'plan-month',
        per: 1,
      } satisfies PriceLine,
    ]),
  ) as Record<(typeof CLOUDFRONT_FLAT_RATE_PLANS)[number]['id'], PriceLine>;

/** Every line the bill uses, by id. */
export const PRICE_LINES = {
  httpApiRequests: { service: 'API Gateway', item: 'HTTP API requests', unit: '1M requests', per: M },
  restApiRequests: { service: 'API Gateway', item: 'REST API requests', unit: '1M requests', per: M },
  webSocketMessages: { service: 'API Gateway', item: 'WebSocket messages (32 KB each)', unit: '1M messages', per: M },
  webSocketConnectionMinutes: {
    service: 'API Gateway',
    item: 'WebSocket connection minutes',
    unit: '1M minutes',
    per: M,
  },
  lambdaRequests: { service: 'Lambda', item: 'requests', unit: '1M requests', per: M, free: { units: 1 * M } },
  lambdaArmGbSeconds: {
    service: 'Lambda',
    item: 'duration arm64',
    unit: 'GB-s',
    per: 1,
    free: { units: 400_000, pool: 'lambda-gb-s' },
  },
  lambdaX86GbSeconds: {
    service: 'Lambda',
    item: 'duration x86_64',
    unit: 'GB-s',
    per: 1,
    free: { units: 400_000, pool: 'lambda-gb-s' },
  },
  sqsFifoRequests: {
    service: 'SQS',
    item: 'FIFO requests (64 KB each)',
    unit: '1M requests',
    per: M,
    free: { units: 1 * M, pool: 'sqs-requests' },
  },
  dynamoWriteUnits: { service: 'DynamoDB', item: 'on-demand write request units', unit: '1M WRU', per: M },
  dynamoReadUnits: { service: 'DynamoDB', item: 'on-demand read request units', unit: '1M RRU', per: M },
  dynamoStorage: {
    service: 'DynamoDB',
    item: 'storage',
    unit: 'GB-month',
    per: 1,
    bytes: STORED_GB,
    free: { units: 25 },
  },
  logsIngestion: {
    service: 'CloudWatch',
    item: 'Logs ingestion',
    unit: 'GB',
    per: 1,
    bytes: STORED_GB,
    free: { units: 5, pool: 'cloudwatch-logs' },
  },
  logsStorage: { service: 'CloudWatch', item: 'Logs storage', unit: 'GB-month', per: 1, bytes: STORED_GB },
  alarms: { service: 'CloudWatch', item: 'standard alarms', unit: 'alarm-month', per: 1, free: { units: 10 } },
  dashboards: { service: 'CloudWatch', item: 'dashboards', unit: 'dashboard-month', per: 1, free: { units: 3 } },
  customMetrics: { service: 'CloudWatch', item: 'custom metrics', unit: 'metric-month', per: 1, free: { units: 10 } },
  managedInstanceHours: {
    service: 'Lambda',
    item: 'Managed Instances m7g.xlarge (4 vCPU, 16 GB) instance hours',
    unit: 'instance-hour',
    per: 1,
  },
  managedInstanceFee: {
    service: 'Lambda',
    item: 'Managed Instances management fee (15% of the instance price)',
    unit: 'instance-hour',
    per: 1,
  },
  eventPollerHours: { service: 'Lambda', item: 'SQS event poller hours (provisioned mode)', unit: 'EPU-hour', per: 1 },
  xrayTraces: { service: 'X-Ray', item: 'traces recorded', unit: '1M traces', per: M, free: { units: 100_000 } },
  cloudFrontRequests: {
    service: 'CloudFront',
    item: 'HTTPS requests',
    unit: '10k requests',
    per: 10_000,
    free: { units: 10 * M },
  },
  ...flatRatePlanLines(),
  cloudFrontFunctions: {
    service: 'CloudFront',
    item: 'Functions invocations',
    unit: '1M invocations',
    per: M,
    free: { units: 2 * M },
  },
  cloudFrontTransfer: {
    service: 'CloudFront',
    item: 'data transfer out (US)',
    unit: 'GB',
    per: 1,
    bytes: TRANSFER_GB,
    free: { units: 1024 },
  },
  cloudFrontOriginTransfer: {
    service: 'CloudFront',
    item: 'data transfer to origins (US)',
    unit: 'GB',
    per: 1,
    bytes: TRANSFER_GB,
  },
  s3Storage: { service: 'S3', item: 'Standard storage', unit: 'GB-month', per: 1 },
  s3Gets: { service: 'S3', item: 'GET requests', unit: '1k requests', per: 1000 },
  route53HostedZone: { service: 'Route 53', item: 'hosted zone (your domain)', unit: 'zone-month', per: 1 },
  route53Queries: { service: 'Route 53', item: 'standard queries', unit: '1M queries', per: M },
  dataTransferOut: {
    service: 'Data transfer',
    item: 'out (API answers)',
    unit: 'GB',
    per: 1,
    bytes: TRANSFER_GB,
    free: { units: 100 },
  },
} satisfies Record<string, PriceLine>;

export type PriceId = keyof typeof PRICE_LINES;
export const PRICE_IDS = Object.keys(PRICE_LINES) as PriceId[];

/** The bytes in one of a price's units: AWS's GB for that line (`bytes.perUnit`). */
export function bytesPerUnit(id: PriceId): number {
  const { bytes }: PriceLine = PRICE_LINES[id];
  if (!bytes) throw new Error(`The price ${id} is not a price per GB.`);
  return bytes.perUnit;
}

/** Bytes as the units a price per GB bills. */
export const bytesToUnits = (bytes: number, id: PriceId): number => bytes / bytesPerUnit(id);
