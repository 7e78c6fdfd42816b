/**
 * The price sheet: every unit price and free tier the bill uses, as data, each
 * with its source and the date it was checked. us-east-1, USD, list prices.
 * Gathered in docs/sources.md; an `assumption` is a figure
 * that source did not confirm, and the report prints it as such.
 */

/** The region the prices are for, and the day the sheet was last checked. */
export const PRICE_SHEET_REGION = 'us-east-1';
export const PRICE_SHEET_CHECKED = '2026-11-22';

/**
 * A tier: `price` per `per` units for usage up to `upTo` units in the month (cumulative); the last
 * tier has no upTo.
 */
export interface Tier {
  upTo?: number;
  price: number;
}

export interface FreeTier {
  /** Units free each month. */
  units: number;
  /** A pool shared by several prices (e.g. Lambda GB-seconds for arm64 and x86). */
  pool?: string;
}

export interface Price {
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
  tiers: Tier[];
  free?: FreeTier;
  source: string;
  checked: string;
  /** Set when the research did not confirm the figure: printed beside the line. */
  assumption?: string;
}

const M = 1e6;
const CHECKED = '2026-11';
const RESEARCH = 'docs/sources.md';
/** A terabyte in a tier's bounds, in the sheet's GB: AWS's tiers count 1,024 GB a TB (its 10 TB = 10,240 GB). */
const TB = 1024;

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
const STORED_GB_ASSUMPTION = 'a GB of 2^30 bytes, as AWS defines it for data transfer (no example for this line)';

/**
 * What AWS gives an account opened since 2025-07-15 instead of the 12-month free tiers it gave before
 * (which every account opened earlier has used up by now): credits, once, for its first months; the
 * always-free tiers above stay. `--new-account` counts the credits given at sign-up, not those to earn.
 */
export const NEW_ACCOUNT_CREDITS = {
  usd: 100,
  /** More, for activities in the console (launching an instance, setting a budget...): not counted. */
  toEarnUsd: 100,
  since: '2025-07-15',
  source: 'aws.amazon.com/free ("AWS Free Tier": $100 at sign-up, up to $100 more; Free plan up to 6 months)',
  checked: '2026-11-25',
} as const;

/** CloudFront's flat-rate plans (2025-11-18): where they are read, and when. */
const FLAT_RATE_SOURCE =
  'AWS CloudFront Developer Guide "CloudFront flat-rate pricing plans"; AWS Networking & Content Delivery Blog ' +
  '2025-11-18; CloudFront "Quotas"';

/**
 * CloudFront's flat-rate plans: a month's fee for an allowance of requests and transfer, with WAF, DDoS
 * protection, a Route 53 hosted zone, CloudFront Functions and logs included (cost/estimate/flat-rate.ts prices
 * the cheaper of a plan and pay as you go).
 */
export const CLOUDFRONT_FLAT_RATE_PLANS = [
  { id: 'cloudFrontPlanFree', name: 'Free', usd: 0, requests: 1e6, transferGb: 100 },
  { id: 'cloudFrontPlanPro', name: 'Pro', usd: 15, requests: 10e6, transferGb: 50 * TB },
  { id: 'cloudFrontPlanBusiness', name: 'Business', usd: 200, requests: 125e6, transferGb: 50 * TB },
  { id: 'cloudFrontPlanPremium', name: 'Premium', usd: 1000, requests: 500e6, transferGb: 50 * TB },
] as const;

/** The rules a plan comes with, as the report's working says them. */
export const CLOUDFRONT_FLAT_RATE_RULES = {
  counts: 'every request that passes WAF counts against the allowance, cached or not',
  overage:
    'no overage charge: a month up to 3x the allowance has no effect; sustained excess, judged over 2-3 months, ' +
    'and AWS "may adjust how we deliver your traffic"',
  quota: 'the 250,000 requests/s and 150 Gbps per-distribution quotas do not apply',
  eligible: 'not for accounts on the AWS Free Tier (Free plan): with --new-account no plan is priced',
  source: FLAT_RATE_SOURCE,
  checked: '2026-11-26',
} as const;

const sizeText = (gb: number) => (gb >= TB ? `${gb / TB} TB` : `${gb} GB`);

/** Each plan as a price of the sheet: a month's fee, with its allowance in its name. */
function flatRatePlanPrices() {
  return Object.fromEntries(
    CLOUDFRONT_FLAT_RATE_PLANS.map((plan) => [
      plan.id,
      {
        service: 'CloudFront',
        item: `flat-rate plan ${plan.name} (${plan.requests / 1e6} M requests, ${sizeText(plan.transferGb)})`,
        unit: 'plan-month',
        per: 1,
        tiers: [{ price: plan.usd }],
        source: FLAT_RATE_SOURCE,
        checked: '2026-11-26',
      } satisfies Price,
    ]),
  ) as Record<(typeof CLOUDFRONT_FLAT_RATE_PLANS)[number]['id'], Price>;
}

/** Every price the bill uses, by id: its tiers, its free tier, its source and when it was checked. */
export const PRICES = {
  httpApiRequests: {
    service: 'API Gateway',
    item: 'HTTP API requests',
    unit: '1M requests',
    per: M,
    tiers: [{ upTo: 300 * M, price: 1.0 }, { price: 0.9 }],
    source: 'AWS Compute Blog "Announcing HTTP APIs"; aws.amazon.com/api-gateway/pricing (metered per 512 KB)',
    checked: CHECKED,
  },
  restApiRequests: {
    service: 'API Gateway',
    item: 'REST API requests',
    unit: '1M requests',
    per: M,
    tiers: [
      { upTo: 333 * M, price: 3.5 },
      { upTo: 1000 * M, price: 2.8 },
      { upTo: 20_000 * M, price: 2.38 },
      { price: 1.51 },
    ],
    source: 'API Gateway whitepaper cost table; aws.amazon.com/api-gateway/pricing',
    checked: CHECKED,
  },
  webSocketMessages: {
    service: 'API Gateway',
    item: 'WebSocket messages (32 KB each)',
    unit: '1M messages',
    per: M,
    tiers: [{ upTo: 1000 * M, price: 1.0 }, { price: 0.8 }],
    source: 'aws.amazon.com/api-gateway/pricing',
    checked: CHECKED,
    assumption: 'the $0.80 rate above 1 B messages is not confirmed by the research',
  },
  webSocketConnectionMinutes: {
    service: 'API Gateway',
    item: 'WebSocket connection minutes',
    unit: '1M minutes',
    per: M,
    tiers: [{ price: 0.25 }],
    source: 'aws.amazon.com/api-gateway/pricing',
    checked: CHECKED,
  },
  lambdaRequests: {
    service: 'Lambda',
    item: 'requests',
    unit: '1M requests',
    per: M,
    tiers: [{ price: 0.2 }],
    free: { units: 1 * M },
    source: 'AWS Price List (usage types Request, Request-ARM)',
    checked: CHECKED,
  },
  lambdaArmGbSeconds: {
    service: 'Lambda',
    item: 'duration arm64',
    unit: 'GB-s',
    per: 1,
    tiers: [{ upTo: 7.5e9, price: 0.0000133334 }, { upTo: 18.75e9, price: 0.0000120001 }, { price: 0.0000106667 }],
    free: { units: 400_000, pool: 'lambda-gb-s' },
    source: 'AWS Price List (Lambda-GB-Second-ARM); AWS blog "tiered pricing for Lambda"',
    checked: CHECKED,
    assumption:
      'arm64 tier boundaries (7.5 B, 18.75 B GB-s) scale the x86 ones by the arm64 discount; ' +
      'the research lists only the first',
  },
  lambdaX86GbSeconds: {
    service: 'Lambda',
    item: 'duration x86_64',
    unit: 'GB-s',
    per: 1,
    tiers: [{ upTo: 6e9, price: 0.0000166667 }, { upTo: 15e9, price: 0.000015 }, { price: 0.0000133334 }],
    free: { units: 400_000, pool: 'lambda-gb-s' },
    source: 'AWS Price List (Lambda-GB-Second); AWS blog "tiered pricing for Lambda"',
    checked: CHECKED,
  },
  sqsFifoRequests: {
    service: 'SQS',
    item: 'FIFO requests (64 KB each)',
    unit: '1M requests',
    per: M,
    tiers: [{ price: 0.5 }],
    free: { units: 1 * M, pool: 'sqs-requests' },
    source: 'aws.amazon.com/sqs/pricing',
    checked: CHECKED,
  },
  dynamoWriteUnits: {
    service: 'DynamoDB',
    item: 'on-demand write request units',
    unit: '1M WRU',
    per: M,
    tiers: [{ price: 0.625 }],
    source: 'aws.amazon.com/dynamodb/pricing/on-demand (halved 2024-11-01)',
    checked: CHECKED,
  },
  dynamoReadUnits: {
    service: 'DynamoDB',
    item: 'on-demand read request units',
    unit: '1M RRU',
    per: M,
    tiers: [{ price: 0.125 }],
    source: 'aws.amazon.com/dynamodb/pricing/on-demand',
    checked: CHECKED,
  },
  dynamoStorage: {
    service: 'DynamoDB',
    item: 'storage',
    unit: 'GB-month',
    per: 1,
    tiers: [{ price: 0.25 }],
    free: { units: 25 },
    bytes: STORED_GB,
    source: 'aws.amazon.com/dynamodb/pricing/on-demand',
    checked: CHECKED,
    assumption: STORED_GB_ASSUMPTION,
  },
  logsIngestion: {
    service: 'CloudWatch',
    item: 'Logs ingestion',
    unit: 'GB',
    per: 1,
    // Lambda's logs are vended logs since 2025-05-01: tiered by the month's GB across the account's functions.
    tiers: [
      { upTo: 10 * TB, price: 0.5 },
      { upTo: 30 * TB, price: 0.25 },
      { upTo: 50 * TB, price: 0.1 },
      { price: 0.05 },
    ],
    free: { units: 5, pool: 'cloudwatch-logs' },
    bytes: STORED_GB,
    source:
      'aws.amazon.com/cloudwatch/pricing (Vended Logs, Lambda logs from 2025-05-01: $0.50 first 10 TB, $0.25 next ' +
      '20 TB, $0.10 next 20 TB, $0.05 over 50 TB); Duckbill Group 2025 (60 TB a month: $30,000 -> $12,500, ' +
      'the same tiers)',
    checked: '2026-11-26',
    assumption: `the tier rates from a third-party summary whose worked example they match; ${STORED_GB_ASSUMPTION}`,
  },
  logsStorage: {
    service: 'CloudWatch',
    item: 'Logs storage',
    unit: 'GB-month',
    per: 1,
    tiers: [{ price: 0.03 }],
    bytes: STORED_GB,
    source: 'aws.amazon.com/cloudwatch/pricing',
    checked: CHECKED,
    assumption: STORED_GB_ASSUMPTION,
  },
  alarms: {
    service: 'CloudWatch',
    item: 'standard alarms',
    unit: 'alarm-month',
    per: 1,
    tiers: [{ price: 0.1 }],
    free: { units: 10 },
    source: 'aws.amazon.com/cloudwatch/pricing',
    checked: CHECKED,
    assumption: 'alarm price and its 10 free alarms are not in the research notes',
  },
  dashboards: {
    service: 'CloudWatch',
    item: 'dashboards',
    unit: 'dashboard-month',
    per: 1,
    tiers: [{ price: 3.0 }],
    free: { units: 3 },
    source: 'aws.amazon.com/cloudwatch/pricing (Dashboards: $3.00 a dashboard a month; 3 free, up to 50 metrics each)',
    checked: '2026-11-25',
    assumption:
      'the dashboard price and its 3 free dashboards are not in the research notes (third-party 2026 guides agree); ' +
      'the GetMetricData calls it makes while someone watches it are not billed here',
  },
  customMetrics: {
    service: 'CloudWatch',
    item: 'custom metrics',
    unit: 'metric-month',
    per: 1,
    tiers: [{ upTo: 10_000, price: 0.3 }, { upTo: 250_000, price: 0.1 }, { price: 0.05 }],
    free: { units: 10 },
    source: 'aws.amazon.com/cloudwatch/pricing (metrics; prorated by the hour a metric is published)',
    checked: CHECKED,
    assumption: 'custom metric prices and their 10 free metrics are not in the research notes',
  },
  managedInstanceHours: {
    service: 'Lambda',
    item: 'Managed Instances m7g.xlarge (4 vCPU, 16 GB) instance hours',
    unit: 'instance-hour',
    per: 1,
    tiers: [{ price: 0.1632 }],
    source:
      "aws.amazon.com/lambda/pricing (Lambda Managed Instances: the EC2 On-Demand price of the instances; AWS's " +
      'own example: m7g.xlarge at $0.1632 an hour)',
    checked: '2026-11-26',
  },
  managedInstanceFee: {
    service: 'Lambda',
    item: 'Managed Instances management fee (15% of the instance price)',
    unit: 'instance-hour',
    per: 1,
    tiers: [{ price: 0.1632 * 0.15 }],
    source: 'aws.amazon.com/lambda/pricing (a compute management fee of 15% of the On-Demand instance price)',
    checked: '2026-11-26',
  },
  eventPollerHours: {
    service: 'Lambda',
    item: 'SQS event poller hours (provisioned mode)',
    unit: 'EPU-hour',
    per: 1,
    tiers: [{ price: 0.00925 }],
    source:
      'aws.amazon.com/lambda/pricing (provisioned mode for event source mappings: per Event Poller Unit hour, per ' +
      'second, 1-minute minimum; at least 2 pollers); AWS News Blog 2025-11-14',
    checked: '2026-11-26',
  },
  xrayTraces: {
    service: 'X-Ray',
    item: 'traces recorded',
    unit: '1M traces',
    per: M,
    tiers: [{ price: 5.0 }],
    free: { units: 100_000 },
    source: 'aws.amazon.com/xray/pricing',
    checked: CHECKED,
  },
  cloudFrontRequests: {
    service: 'CloudFront',
    item: 'HTTPS requests',
    unit: '10k requests',
    per: 10_000,
    tiers: [{ price: 0.01 }],
    free: { units: 10 * M },
    source: 'aws.amazon.com/cloudfront/pricing (pay as you go; always-free tier)',
    checked: CHECKED,
  },
  ...flatRatePlanPrices(),
  cloudFrontFunctions: {
    service: 'CloudFront',
    item: 'Functions invocations',
    unit: '1M invocations',
    per: M,
    tiers: [{ price: 0.1 }],
    free: { units: 2 * M },
    source: 'aws.amazon.com/cloudfront/pricing (CloudFront Functions; always-free tier)',
    checked: CHECKED,
    assumption: 'the CloudFront Functions price and its 2 M free invocations are not in the research notes',
  },
  cloudFrontTransfer: {
    service: 'CloudFront',
    item: 'data transfer out (US)',
    unit: 'GB',
    per: 1,
    tiers: [
      { upTo: 10 * TB, price: 0.085 },
      { upTo: 50 * TB, price: 0.08 },
      { upTo: 150 * TB, price: 0.06 },
      { upTo: 500 * TB, price: 0.04 },
      { upTo: 1024 * TB, price: 0.03 },
      { upTo: 5 * 1024 * TB, price: 0.025 },
      { price: 0.02 },
    ],
    free: { units: 1024 },
    bytes: TRANSFER_GB,
    source:
      'aws.amazon.com/cloudfront/pricing ("Regional Data Transfer Out to Internet", United States: first 10 TB ' +
      '$0.085, next 40 TB $0.080, next 100 TB $0.060, next 350 TB $0.040, next 524 TB $0.030, next 4 PB $0.025, ' +
      'over 5 PB $0.020)',
    checked: '2026-11-26',
  },
  cloudFrontOriginTransfer: {
    service: 'CloudFront',
    item: 'data transfer to origins (US)',
    unit: 'GB',
    per: 1,
    tiers: [{ price: 0.02 }],
    bytes: TRANSFER_GB,
    source: 'aws.amazon.com/cloudfront/pricing ("Regional Data Transfer Out to Origin")',
    checked: CHECKED,
    assumption: 'the $0.020 per GB to origins is not in the research notes',
  },
  s3Storage: {
    service: 'S3',
    item: 'Standard storage',
    unit: 'GB-month',
    per: 1,
    tiers: [{ price: 0.023 }],
    source: 'aws.amazon.com/s3/pricing',
    checked: CHECKED,
  },
  s3Gets: {
    service: 'S3',
    item: 'GET requests',
    unit: '1k requests',
    per: 1000,
    tiers: [{ price: 0.0004 }],
    source: 'aws.amazon.com/s3/pricing',
    checked: CHECKED,
  },
  route53HostedZone: {
    service: 'Route 53',
    item: 'hosted zone (your domain)',
    unit: 'zone-month',
    per: 1,
    tiers: [{ upTo: 25, price: 0.5 }, { price: 0.1 }],
    source: 'aws.amazon.com/route53/pricing ($0.50 a hosted zone a month for the first 25)',
    checked: '2026-11-26',
  },
  route53Queries: {
    service: 'Route 53',
    item: 'standard queries',
    unit: '1M queries',
    per: M,
    tiers: [{ upTo: 1000 * M, price: 0.4 }, { price: 0.2 }],
    source:
      'aws.amazon.com/route53/pricing ($0.40 per million, $0.20 above 1 billion); Route 53 Developer Guide ' +
      '"Choosing between alias and non-alias records" (no charge for alias queries to AWS resources)',
    checked: '2026-11-26',
  },
  dataTransferOut: {
    service: 'Data transfer',
    item: 'out (API answers)',
    unit: 'GB',
    per: 1,
    tiers: [{ upTo: 10 * TB, price: 0.09 }, { price: 0.085 }],
    free: { units: 100 },
    bytes: TRANSFER_GB,
    source: 'aws.amazon.com/ec2/pricing/on-demand (data transfer); 100 GB/month free, aggregated',
    checked: CHECKED,
    assumption: 'the rate above 10 TB ($0.085) is not in the research notes',
  },
} satisfies Record<string, Price>;

export type PriceId = keyof typeof PRICES;

/** Bytes as the units a price per GB bills: AWS's GB for that line (`bytes.perUnit`). */
export function bytesToUnits(bytes: number, id: PriceId): number {
  const price: Price = PRICES[id];
  if (!price.bytes) throw new Error(`The price ${id} is not a price per GB.`);
  return bytes / price.bytes.perUnit;
}

/** Where the sheet itself came from, for the report's footer. */
export const PRICE_SHEET_SOURCE = RESEARCH;
