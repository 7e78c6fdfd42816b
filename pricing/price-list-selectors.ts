/**
 * How AWS's Price List (pricing/price-list.ts reads it) names each line of the bill (pricing/price-lines.ts): the
 * offer file, the attributes that pick its product and the usage type's name, matched as an anchored suffix
 * because the region prefix before it differs by service and region (none for Lambda in us-east-1, `USE1-` for
 * API Gateway there, `EU-` in eu-west-1): a prefix is never glued on. The lines the Price List cannot give are
 * declared here too, with why: `npm run prices` keeps them from the book it replaces.
 *
 * Conversion: the Price List prices one raw unit (a request, a GB, a GB-second, an alarm's month) and its
 * beginRange/endRange count raw units, so a book tier's price is the Price List's x the line's `per` (x 1e6 for
 * "per 1M requests", x 1e4 for CloudFront's "per 10k requests", x 1 for a GB) and its upTo the endRange as it is.
 *
 * Spellings: `seen` says where a usage type and its attributes were seen; a selector without it is a guess until
 * a real download, and a failure to find it says so.
 */
import { CLOUDFRONT_FLAT_RATE_PLANS } from './plans-and-credits';
import type { PriceId } from './price-lines';
import type { Region } from './regions';

/** An attribute's wanted value: fixed, or the region's (its location name, or its viewers' edge group). */
export type Wanted = string | ((region: Region) => string);

/** The region's `location` as the Price List spells it ("EU (Frankfurt)"). */
const REGION = (region: Region) => region.location;
/** The CloudFront edge group the region's viewers are billed in ("Europe"). */
const VIEWERS = (region: Region) => region.viewers;

export interface ListedLine {
  /** The offer code: its file is the region's own (regional) or all regions' in one (global). */
  offer: string;
  file: 'regional' | 'global';
  productFamily: string;
  /** Further product attributes, each matched exactly (the product's servicecode must be the offer's too). */
  attributes: Record<string, Wanted>;
  /** The usage type after any region prefix: a regular expression's source, anchored by usageTypePattern. */
  usageType: string;
  /**
   * Prefixes shaped like a region's that mark another class of the same usage (DynamoDB's Standard-IA
   * `IA-TimedStorage-ByteHrs` in us-east-1, where the standard class has no prefix at all).
   */
  notPrefixes?: string[];
  /** What one Price List unit is: one raw unit of the line. */
  listUnit: string;
  /** Where the spelling was seen; absent: a guess until a real download. */
  seen?: string;
}

export interface UnlistedLine {
  /** Why the Price List cannot give it. */
  unlisted: string;
  /** The same price in every region: a region with no book of its own may take us-east-1's. */
  global: boolean;
  /**
   * A price that differs by region but only matters to a what-if: a region's first book takes us-east-1's, with
   * this said as the line's assumption (printed beside it), rather than no book at all.
   */
  firstBookAssumes?: string;
}

export type LineSelector = ListedLine | UnlistedLine;

export const isListed = (selector: LineSelector): selector is ListedLine => 'offer' in selector;

/** The lines priced where the viewers are (CloudFront's requests and transfer): picked by VIEWERS. */
export const viewerLines = (): PriceId[] =>
  (Object.entries(SELECTORS) as [PriceId, LineSelector][])
    .filter(([, selector]) => isListed(selector) && Object.values(selector.attributes).includes(VIEWERS))
    .map(([id]) => id);

/** `^([A-Z0-9]+-)?NAME$`: a region prefix or none, never one of notPrefixes. */
export function usageTypePattern({ usageType, notPrefixes = [] }: ListedLine): RegExp {
  const not = notPrefixes.map((prefix) => `(?!${prefix}-)`).join('');
  return new RegExp(`^(${not}[A-Z0-9]+-)?(${usageType})$`);
}

/** The attributes a line's product must have in a region: the offer's servicecode, its family, the rest. */
export const wantedAttributes = (line: ListedLine, region: Region): Record<string, string> => ({
  servicecode: line.offer,
  productFamily: line.productFamily,
  ...Object.fromEntries(
    Object.entries(line.attributes).map(([name, want]) => [name, typeof want === 'string' ? want : want(region)]),
  ),
});

type Declared = Omit<ListedLine, 'file'>;

/** A product of the region's own file, at the region's location. */
const inRegion = (line: Declared): ListedLine => ({
  ...line,
  file: 'regional',
  attributes: { location: REGION, ...line.attributes },
});

/** A product of the offer's one file for all regions. */
const inGlobalFile = (line: Declared): ListedLine => ({ ...line, file: 'global' });

const REAL_2016 = 'the real 2016 AWSLambda file (concurrencylabs/aws-pricing-tools)';
const INFRACOST = 'infracost internal/resources/aws';
const WRITE_UPS = 'unattributed 2025 write-ups';

const EC2_PRICE = 'the EC2 instance price is in the AmazonEC2 file (hundreds of MB a region), never fetched';
/** What a region's first book says of the Managed Instances lines it takes from us-east-1's. */
const US_EAST_1_EC2 =
  "us-east-1's instance price (this region's is in AWS's EC2 price list, not read here: set it by hand from " +
  'aws.amazon.com/ec2/pricing for the Managed Instances what-if)';

const flatRatePlans = Object.fromEntries(
  CLOUDFRONT_FLAT_RATE_PLANS.map((plan) => [
    plan.id,
    {
      unlisted: 'flat-rate plans are not in the Price List (one price worldwide, on the CloudFront pages)',
      global: true,
    } satisfies UnlistedLine,
  ]),
) as Record<(typeof CLOUDFRONT_FLAT_RATE_PLANS)[number]['id'], UnlistedLine>;

/** Every line of the bill: how the Price List names it, or why it cannot. */
export const SELECTORS: Record<PriceId, LineSelector> = {
  httpApiRequests: inRegion({
    offer: 'AmazonApiGateway',
    productFamily: 'API Calls',
    attributes: { operation: 'ApiGatewayHttpApi' },
    usageType: 'ApiGatewayHttpRequest',
    listUnit: 'request',
    seen: INFRACOST,
  }),
  restApiRequests: inRegion({
    offer: 'AmazonApiGateway',
    productFamily: 'API Calls',
    attributes: { operation: 'ApiGatewayRequest' },
    usageType: 'ApiGatewayRequest',
    listUnit: 'request',
    seen: INFRACOST,
  }),
  webSocketMessages: inRegion({
    offer: 'AmazonApiGateway',
    productFamily: 'WebSocket',
    attributes: {},
    usageType: 'ApiGatewayMessage',
    listUnit: 'message',
    seen: WRITE_UPS,
  }),
  webSocketConnectionMinutes: inRegion({
    offer: 'AmazonApiGateway',
    productFamily: 'WebSocket',
    attributes: {},
    usageType: 'ApiGatewayMinute',
    listUnit: 'connection-minute',
    seen: WRITE_UPS,
  }),
  lambdaRequests: inRegion({
    offer: 'AWSLambda',
    productFamily: 'Serverless',
    attributes: { group: 'AWS-Lambda-Requests' },
    usageType: 'Request',
    listUnit: 'request',
    seen: REAL_2016,
  }),
  lambdaArmGbSeconds: inRegion({
    offer: 'AWSLambda',
    productFamily: 'Serverless',
    attributes: { group: 'AWS-Lambda-Duration-ARM' },
    usageType: 'Lambda-GB-Second-ARM',
    listUnit: 'GB-second',
    seen: WRITE_UPS,
  }),
  lambdaX86GbSeconds: inRegion({
    offer: 'AWSLambda',
    productFamily: 'Serverless',
    attributes: { group: 'AWS-Lambda-Duration' },
    usageType: 'Lambda-GB-Second',
    listUnit: 'GB-second',
    seen: REAL_2016,
  }),
  sqsFifoRequests: inRegion({
    offer: 'AWSQueueService',
    productFamily: 'API Request',
    attributes: { queueType: 'FIFO (first-in, first-out)' },
    // us-east-1 spells it Requests-FIFO-RBP, other regions <prefix>-Requests-FIFO-Tier1.
    usageType: 'Requests-FIFO-(RBP|Tier1)',
    listUnit: 'request',
    seen: `${INFRACOST} (queueType); ${WRITE_UPS} (usage types)`,
  }),
  dynamoWriteUnits: inRegion({
    offer: 'AmazonDynamoDB',
    productFamily: 'Amazon DynamoDB PayPerRequest Throughput',
    attributes: { group: 'DDB-WriteUnits' },
    usageType: 'WriteRequestUnits',
    listUnit: 'write request unit',
    seen: INFRACOST,
  }),
  dynamoReadUnits: inRegion({
    offer: 'AmazonDynamoDB',
    productFamily: 'Amazon DynamoDB PayPerRequest Throughput',
    attributes: { group: 'DDB-ReadUnits' },
    usageType: 'ReadRequestUnits',
    listUnit: 'read request unit',
    seen: INFRACOST,
  }),
  dynamoStorage: inRegion({
    offer: 'AmazonDynamoDB',
    productFamily: 'Database Storage',
    attributes: {},
    usageType: 'TimedStorage-ByteHrs',
    notPrefixes: ['IA'],
    listUnit: 'GB-month',
    seen: INFRACOST,
  }),
  // Lambda's logs are billed as vended logs (tiered) since 2025-05-01; the family is DataProcessing-Bytes's.
  logsIngestion: inRegion({
    offer: 'AmazonCloudWatch',
    productFamily: 'Data Payload',
    attributes: {},
    usageType: 'VendedLog-Bytes',
    listUnit: 'GB',
  }),
  logsStorage: inRegion({
    offer: 'AmazonCloudWatch',
    productFamily: 'Storage Snapshot',
    attributes: {},
    usageType: 'TimedStorage-ByteHrs',
    listUnit: 'GB-month',
    seen: INFRACOST,
  }),
  alarms: inRegion({
    offer: 'AmazonCloudWatch',
    productFamily: 'Alarm',
    attributes: { alarmType: 'Standard' },
    usageType: 'CW:AlarmMonitorUsage',
    listUnit: 'alarm-month',
    seen: `${INFRACOST} (family, alarmType); ${WRITE_UPS} (usage type)`,
  }),
  dashboards: inRegion({
    offer: 'AmazonCloudWatch',
    productFamily: 'Dashboard',
    attributes: {},
    usageType: 'DashboardsUsageHour',
    listUnit: 'dashboard-month',
    seen: INFRACOST,
  }),
  customMetrics: inRegion({
    offer: 'AmazonCloudWatch',
    productFamily: 'Metric',
    attributes: { group: 'Metric' },
    usageType: 'CW:MetricMonitorUsage',
    listUnit: 'metric-month',
    seen: `${INFRACOST} (family, group); ${WRITE_UPS} (usage type)`,
  }),
  managedInstanceHours: { unlisted: EC2_PRICE, global: false, firstBookAssumes: US_EAST_1_EC2 },
  managedInstanceFee: {
    unlisted: `15% of the instance price: ${EC2_PRICE}`,
    global: false,
    firstBookAssumes: US_EAST_1_EC2,
  },
  eventPollerHours: inRegion({
    offer: 'AWSLambda',
    productFamily: 'Serverless',
    attributes: { group: 'AWS-Lambda-Event-Poller' },
    usageType: 'Lambda-Provisioned-EventPoller-Hours',
    listUnit: 'EPU-hour',
  }),
  xrayTraces: inRegion({
    offer: 'AWSXRay',
    productFamily: 'AWS X-Ray',
    attributes: {},
    usageType: 'XRay-TracesStored',
    listUnit: 'trace',
  }),
  cloudFrontRequests: inGlobalFile({
    offer: 'AmazonCloudFront',
    productFamily: 'Request',
    attributes: { location: VIEWERS, requestType: 'CloudFront-Request-HTTPS-Proxy' },
    usageType: 'Requests-Tier2-HTTPS',
    listUnit: 'request',
    seen: `${INFRACOST} (requestType); ${WRITE_UPS} (usage type)`,
  }),
  ...flatRatePlans,
  cloudFrontFunctions: inGlobalFile({
    offer: 'AmazonCloudFront',
    productFamily: 'Request',
    attributes: {},
    usageType: 'Executions-CloudFrontFunctions',
    listUnit: 'invocation',
    seen: INFRACOST,
  }),
  cloudFrontTransfer: inGlobalFile({
    offer: 'AmazonCloudFront',
    productFamily: 'Data Transfer',
    attributes: { fromLocation: VIEWERS, transferType: 'CloudFront Outbound' },
    usageType: 'DataTransfer-Out-Bytes',
    listUnit: 'GB',
    seen: `${INFRACOST} (transferType); ${WRITE_UPS} (usage type)`,
  }),
  cloudFrontOriginTransfer: inGlobalFile({
    offer: 'AmazonCloudFront',
    productFamily: 'Data Transfer',
    attributes: { fromLocation: VIEWERS, transferType: 'CloudFront to Origin' },
    usageType: 'DataTransfer-Out-OBytes',
    listUnit: 'GB',
  }),
  s3Storage: inRegion({
    offer: 'AmazonS3',
    productFamily: 'Storage',
    attributes: { volumeType: 'Standard' },
    usageType: 'TimedStorage-ByteHrs',
    listUnit: 'GB-month',
  }),
  s3Gets: inRegion({
    offer: 'AmazonS3',
    productFamily: 'API Request',
    attributes: {},
    usageType: 'Requests-Tier2',
    listUnit: 'request',
    seen: 'S3 User Guide "Understanding your AWS billing and usage reports for Amazon S3"',
  }),
  route53HostedZone: inGlobalFile({
    offer: 'AmazonRoute53',
    productFamily: 'DNS Zone',
    attributes: {},
    usageType: 'HostedZone',
    listUnit: 'zone-month',
    seen: INFRACOST,
  }),
  route53Queries: inGlobalFile({
    offer: 'AmazonRoute53',
    productFamily: 'DNS Query',
    attributes: {},
    usageType: 'DNS-Queries',
    listUnit: 'query',
    seen: INFRACOST,
  }),
  dataTransferOut: {
    offer: 'AWSDataTransfer',
    file: 'regional',
    productFamily: 'Data Transfer',
    // A transfer's region is where it comes from: it has no `location` of its own.
    attributes: { fromLocation: REGION, toLocation: 'External', transferType: 'AWS Outbound' },
    usageType: 'DataTransfer-Out-Bytes',
    listUnit: 'GB',
    seen: REAL_2016,
  },
};
