/**
 * What in the synthesized template changes the bill: API kind, each function's
 * memory, architecture, logging, tracing and custom metrics, the consumer's batching, alarms.
 * Pure: give it the template's JSON. Change the stack, and the estimate follows.
 */
import { PRICING_REGION_METADATA } from '../../config/stack';
import {
  API_PATH_PATTERN,
  POLL_PATH_PATTERN,
  RESULTS_PATH_PATTERN,
  type ResultsDelivery,
} from '../../config/results-delivery';
import { FUNCTION_METADATA } from '../../config/functions';
import { POLL_READ_CACHE_SECONDS } from '../../config/caching';
import { FUNCTION_ENV } from '../../config/function-env';
import { FUNCTION_ROLES, type FunctionRole, functionRole } from '../usage/unit-costs';
import { DEFAULT_VOTE_PATH, type VotePath } from '../../config/vote-path';
import { FUNCTION_DEFAULTS } from '../../config/functions';
import { NamedError } from '../../config/errors';
import { customResourceProviders, getAttTarget, refTarget } from '../../config/template-refs';

export interface FunctionConfig {
  memoryMb: number;
  architecture: 'arm64' | 'x86_64';
  /** JSON with a system log level of WARN or above drops Lambda's START/END/REPORT lines. */
  logFormat: 'JSON' | 'Text';
  systemLogLevel: string;
  applicationLogLevel: string;
  tracing: boolean;
  logRetentionDays?: number;
  /** CloudWatch custom metrics it publishes (embedded metric format, one line per invocation). */
  customMetrics: number;
}

export interface StackConfig {
  apiKind: 'http' | 'rest';
  /** Browsers call the API from another origin than the site's: POSTs need a CORS preflight. */
  corsPreflight: boolean;
  /** How long a browser keeps a preflight's answer (the API's Access-Control-Max-Age; 0: not at all). */
  corsMaxAgeSeconds: number;
  functions: Record<FunctionRole, FunctionConfig>;
  consumer: { batchSize: number; maxBatchingWindowSeconds: number };
  /**
   * How viewers get results: the deployable designs (`-c results=`: through the API, from the
   * results function's URL, cached at CloudFront) and `websocket` (pushed; an estimate, not built).
   */
  results: ResultsDelivery | 'websocket';
  /** The results function's reserved concurrency, when capped (no monthly cost: a ceiling). */
  resultsConcurrency?: number;
  /**
   * The site's distribution fronts the whole API (results=cloudfront): every API call is also a
   * CloudFront request.
   */
  apiThroughCloudFront: boolean;
  /**
   * Seconds the distribution keeps a poll read (results=cloudfront): its behaviour's max TTL, at most the
   * max-age the answer carries (POLL_READ_CACHE_SECONDS); 0 where poll reads are not cached.
   */
  pollReadCacheSeconds: number;
  /**
   * A CloudFront Function on the site's requests (routing and the 404 page): one invocation per site
   * request.
   */
  siteRouter: boolean;
  alarms: number;
  /** CloudWatch dashboards (the cost dashboard on AWS). */
  dashboards: number;
  /**
   * A what-if, not deployed: these functions on Lambda Managed Instances (cost/estimate/managed-instances.ts),
   * billed per instance hour instead of per GB-second.
   */
  managedInstances?: { roles: FunctionRole[]; instances: number };
  /** Message groups and counter items per poll, and the stage's throttle: what a hot poll meets. */
  votePath: Omit<VotePath, 'hotPollVotesPerSecond'>;
  /** The AWS Region the template was synthesized for, where it records one (its Metadata). */
  region?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is JSON of any shape
type Json = any;
type Resources = Array<[string, Json]>;

/** Each function the template's metadata names, as the bill sees it, and its logical id. */
function readFunctions(ofType: (type: string) => Resources) {
  const retentionByLogGroup = new Map(
    ofType('AWS::Logs::LogGroup').map(([id, r]) => [id, r.Properties?.RetentionInDays as number | undefined]),
  );
  const functions: Partial<Record<FunctionRole, FunctionConfig>> = {};
  const logicalIds: Partial<Record<FunctionRole, string>> = {};
  for (const [logicalId, fn] of ofType('AWS::Lambda::Function')) {
    const role = functionRole(fn.Metadata?.[FUNCTION_METADATA.name] ?? '');
    if (!role) continue;
    logicalIds[role] = logicalId;
    const p = fn.Properties ?? {};
    const logGroupId = p.LoggingConfig?.LogGroup?.Ref;
    functions[role] = {
      memoryMb: p.MemorySize ?? 128,
      architecture: p.Architectures?.[0] === 'arm64' ? 'arm64' : 'x86_64',
      logFormat: p.LoggingConfig?.LogFormat === 'JSON' ? 'JSON' : 'Text',
      systemLogLevel: p.LoggingConfig?.SystemLogLevel ?? 'INFO',
      applicationLogLevel: p.LoggingConfig?.ApplicationLogLevel ?? 'INFO',
      tracing: p.TracingConfig?.Mode === 'Active',
      logRetentionDays: logGroupId ? retentionByLogGroup.get(logGroupId) : undefined,
      customMetrics: (fn.Metadata?.[FUNCTION_METADATA.metrics] ?? []).length,
    };
  }
  return { functions, logicalIds, missing: FUNCTION_ROLES.filter((role) => !functions[role]) };
}

/** How viewers get results: pushed over a WebSocket API, from the results function's URL, cached, or the API. */
function resultsOf(
  ofType: (type: string) => Resources,
  resultsFunctionId: string | undefined,
  cachesPath: (pattern: string) => boolean,
): StackConfig['results'] {
  if (ofType('AWS::ApiGatewayV2::Api').some(([, api]) => api.Properties?.ProtocolType === 'WEBSOCKET'))
    return 'websocket';
  const urlOfResults = ([, url]: [string, Json]) =>
    url.Properties?.TargetFunctionArn?.['Fn::GetAtt']?.[0] === resultsFunctionId;
  if (ofType('AWS::Lambda::Url').some(urlOfResults)) return 'function-url';
  return cachesPath(RESULTS_PATH_PATTERN) ? 'cloudfront' : 'api';
}

/** A file the estimator cannot read as a template of this app: not a template, or another app's. */
export class TemplateError extends NamedError {
  override readonly name = 'TemplateError';
}

/** A part of this app a template lacks, which the stack is priced without (its settings are the defaults). */
export interface MissingPart {
  part: string;
  /** What the estimate takes in its place. */
  pricedAs: string;
}

/**
 * A function the template lacks is priced with the settings the stack gives every function by default
 * (config/functions.ts): the traffic still reaches one.
 */
const DEFAULT_FUNCTION: FunctionConfig = {
  memoryMb: FUNCTION_DEFAULTS.memoryMb,
  architecture: FUNCTION_DEFAULTS.architecture,
  logFormat: 'JSON',
  systemLogLevel: FUNCTION_DEFAULTS.systemLogLevel,
  applicationLogLevel: FUNCTION_DEFAULTS.logLevel,
  tracing: false,
  logRetentionDays: FUNCTION_DEFAULTS.logRetentionDays,
  customMetrics: 0,
};
const DEFAULT_CONSUMER = { batchSize: 10, maxBatchingWindowSeconds: 0 };

/**
 * The stack as the bill sees it, from its synthesized template; `missing` hears of each part of this app it
 * lacks (and may throw), which is then priced as the defaults are.
 */
function readConfig(
  template: Json,
  missing: (part: MissingPart) => void,
): { stack: StackConfig; functionIds: Partial<Record<FunctionRole, string>> } {
  if (!template?.Resources || typeof template.Resources !== 'object')
    throw new TemplateError('Not a CloudFormation template: it has no Resources.');
  const resources = Object.entries(template.Resources as Record<string, Json>);
  const ofType = (type: string) => resources.filter(([, r]) => r?.Type === type);
  const read = readFunctions(ofType);
  if (read.missing.length > 0)
    missing({
      part: `no function for ${read.missing.join(', ')} (looked for "${FUNCTION_METADATA.name}" metadata)`,
      pricedAs: "the stack's default function settings",
    });
  const functions = Object.fromEntries(
    FUNCTION_ROLES.map((role) => [role, read.functions[role] ?? DEFAULT_FUNCTION]),
  ) as Record<FunctionRole, FunctionConfig>;
  const { logicalIds } = read;
  const [, mapping] = ofType('AWS::Lambda::EventSourceMapping')[0] ?? [];
  if (!mapping)
    missing({ part: 'no SQS event source for the vote consumer', pricedAs: 'batches of 10 with no batching window' });
  const httpApis = ofType('AWS::ApiGatewayV2::Api').filter(([, api]) => api.Properties?.ProtocolType !== 'WEBSOCKET');
  const distributions = ofType('AWS::CloudFront::Distribution');
  const behaviors: Json[] = distributions.flatMap(([, d]) => d.Properties?.DistributionConfig?.CacheBehaviors ?? []);
  /** A distribution has a behaviour of its own for this path. */
  const cachesPath = (pattern: string) => behaviors.some((b) => b.PathPattern === pattern);
  const pollBehavior = behaviors.find((b) => b.PathPattern === POLL_PATH_PATTERN);
  const pollPolicy = template.Resources[pollBehavior?.CachePolicyId?.Ref]?.Properties?.CachePolicyConfig;
  const restOptions = ofType('AWS::ApiGateway::Method').filter(([, m]) => m.Properties?.HttpMethod === 'OPTIONS');
  const cors = httpApis.find(([, api]) => api.Properties?.CorsConfiguration)?.[1].Properties.CorsConfiguration;
  const region = template.Metadata?.[PRICING_REGION_METADATA];
  const stack: StackConfig = {
    apiKind: httpApis.length > 0 ? 'http' : 'rest',
    corsPreflight: cors !== undefined || restOptions.length > 0,
    corsMaxAgeSeconds: cors?.MaxAge ?? restMaxAge(restOptions),
    functions,
    consumer: {
      batchSize: mapping?.Properties?.BatchSize ?? DEFAULT_CONSUMER.batchSize,
      maxBatchingWindowSeconds:
        mapping?.Properties?.MaximumBatchingWindowInSeconds ?? DEFAULT_CONSUMER.maxBatchingWindowSeconds,
    },
    results: resultsOf(ofType, logicalIds.getResults, cachesPath),
    resultsConcurrency: template.Resources[logicalIds.getResults ?? '']?.Properties?.ReservedConcurrentExecutions,
    apiThroughCloudFront: cachesPath(API_PATH_PATTERN),
    pollReadCacheSeconds: Math.min(POLL_READ_CACHE_SECONDS, pollPolicy?.MaxTTL ?? 0),
    siteRouter: distributions.some(([, d]) =>
      (d.Properties?.DistributionConfig?.DefaultCacheBehavior?.FunctionAssociations ?? []).some(
        (f: Json) => f.EventType === 'viewer-request',
      ),
    ),
    alarms: ofType('AWS::CloudWatch::Alarm').length,
    dashboards: ofType('AWS::CloudWatch::Dashboard').length,
    votePath: votePathOf(template.Resources, logicalIds, ofType),
    ...(typeof region === 'string' ? { region } : {}),
  };
  return { stack, functionIds: logicalIds };
}

/** The stack as the bill sees it, from its synthesized template; throws an Error naming what the template lacks. */
export function readStackConfig(template: Json): StackConfig {
  return readConfig(template, ({ part }) => {
    throw new TemplateError(`The template has ${part}.`);
  }).stack;
}

/** A resource the bill has no line for: listed by its type and logical id, never a silent $0. */
export interface NotPriced {
  type: string;
  logicalId: string;
  why: string;
}

/** What a template of this app, changed in any way, comes to for the estimator. */
export interface StackReading {
  stack: StackConfig;
  /** Resources the estimate does not price: another app's part, or this app's beyond its traffic model. */
  notPriced: NotPriced[];
  /** Parts of this app the template lacks, priced as the defaults are. */
  missing: MissingPart[];
  /** Each of the app's functions' logical id, where the template has it. */
  functionIds: Partial<Record<FunctionRole, string>>;
}

/**
 * Types the bill prices by the traffic model, or that cost nothing of their own (permissions, routes, policies,
 * deploy-time machinery); the types with one priced resource of their own are checked one by one (notPricedOf).
 */
const ACCOUNTED_TYPES = new Set([
  'AWS::IAM::Role',
  'AWS::IAM::Policy',
  'AWS::IAM::ManagedPolicy',
  'AWS::Lambda::Permission',
  'AWS::Lambda::Url',
  'AWS::Lambda::LayerVersion',
  'AWS::Lambda::EventSourceMapping',
  'AWS::Logs::LogGroup',
  'AWS::SQS::QueuePolicy',
  'AWS::S3::BucketPolicy',
  'AWS::CloudFront::Function',
  'AWS::CloudFront::OriginAccessControl',
  'AWS::CloudFront::Distribution',
  'AWS::CloudFront::CachePolicy',
  'AWS::CloudFront::OriginRequestPolicy',
  'AWS::CloudFront::ResponseHeadersPolicy',
  'AWS::ApiGatewayV2::Api',
  'AWS::ApiGatewayV2::Route',
  'AWS::ApiGatewayV2::Integration',
  'AWS::ApiGatewayV2::Stage',
  'AWS::ApiGateway::RestApi',
  'AWS::ApiGateway::Resource',
  'AWS::ApiGateway::Method',
  'AWS::ApiGateway::Deployment',
  'AWS::ApiGateway::Stage',
  'AWS::ApiGateway::Account',
  'AWS::CloudWatch::Alarm',
  'AWS::CloudWatch::Dashboard',
  'AWS::CDK::Metadata',
  'AWS::CloudFormation::CustomResource',
]);

/** Each resource the bill has no line for, with why; the poll table, the vote queue and its dead letters are priced. */
function notPricedOf(resources: Record<string, Json>, functionIds: Partial<Record<FunctionRole, string>>): NotPriced[] {
  const entries = Object.entries(resources);
  const providers = customResourceProviders(resources);
  const appFunctions = new Set(Object.values(functionIds));
  const voteQueues = new Set(
    entries
      .filter(([, r]) => r?.Type === 'AWS::Lambda::EventSourceMapping')
      .map(([, r]) => getAttTarget(r.Properties?.EventSourceArn))
      .filter(Boolean),
  );
  const deadLetters = new Set(
    entries
      .filter(([id]) => voteQueues.has(id))
      .map(([, q]) => getAttTarget(q.Properties?.RedrivePolicy?.deadLetterTargetArn)),
  );
  const table = pollTableOf(entries, functionIds);
  const origins = JSON.stringify(
    entries.filter(([, r]) => r?.Type === 'AWS::CloudFront::Distribution').map(([, d]) => d.Properties),
  );
  const out: NotPriced[] = [];
  for (const [logicalId, r] of entries) {
    const type = String(r?.Type);
    const not = (why: string) => out.push({ type, logicalId, why });
    if (type === 'AWS::Lambda::Function') {
      if (!appFunctions.has(logicalId) && !providers.has(logicalId)) not("a function the app's traffic does not call");
    } else if (type === 'AWS::SQS::Queue') {
      if (!voteQueues.has(logicalId) && !deadLetters.has(logicalId)) not('a queue the votes do not go through');
    } else if (type === 'AWS::DynamoDB::Table') {
      if (logicalId !== table) not('a table the polls are not kept in');
      for (const index of r.Properties?.GlobalSecondaryIndexes ?? [])
        not(`its index ${index.IndexName}: the writes and storage it adds`);
    } else if (type === 'AWS::S3::Bucket') {
      if (!origins.includes(`"${logicalId}"`)) not("a bucket the site's distribution does not serve");
    } else if (!type.startsWith('Custom::') && !ACCOUNTED_TYPES.has(type)) not('a type the estimator has no price for');
  }
  return out;
}

/** The table the create function writes polls to (its environment names it), else the template's only one. */
function pollTableOf(entries: Array<[string, Json]>, functionIds: Partial<Record<FunctionRole, string>>) {
  const tables = entries.filter(([, r]) => r?.Type === 'AWS::DynamoDB::Table').map(([id]) => id);
  const create = entries.find(([id]) => id === functionIds.createPoll)?.[1];
  const named = Object.values(create?.Properties?.Environment?.Variables ?? {})
    .map(refTarget)
    .find((id) => id !== undefined && tables.includes(id));
  return named ?? tables[0];
}

/**
 * Any template of this app, changed as it may be (other settings, a design, resources added): the stack the bill
 * prices, what it does not price, and the parts it lacks. A TemplateError where it is not this app's: no table
 * for the polls, no queue for the votes.
 */
export function readStack(template: Json): StackReading {
  const missing: MissingPart[] = [];
  const { stack, functionIds } = readConfig(template, (part) => missing.push(part));
  const resources = template.Resources as Record<string, Json>;
  const types = new Set(Object.values(resources).map((r) => r?.Type));
  const lacks = [
    ...(types.has('AWS::DynamoDB::Table') ? [] : ['no DynamoDB table (the polls)']),
    ...(types.has('AWS::SQS::Queue') ? [] : ['no SQS queue (the votes)']),
  ];
  if (lacks.length > 0) throw new TemplateError(`Not a template of this app: it has ${lacks.join(' and ')}.`);
  return { stack, notPriced: notPricedOf(resources, functionIds), missing, functionIds };
}

/** The REST API's preflight answer's Access-Control-Max-Age (its OPTIONS methods' mock integration); 0 if none. */
function restMaxAge(options: Resources): number {
  const header = 'method.response.header.Access-Control-Max-Age';
  const ages = options.flatMap(([, m]) =>
    (m.Properties?.Integration?.IntegrationResponses ?? []).map((r: Json) => r.ResponseParameters?.[header]),
  );
  const value = ages.find((age) => typeof age === 'string');
  return value === undefined ? 0 : Number(String(value).replace(/'/g, '')) || 0;
}

/**
 * The vote path as deployed: groups and shards from the create function's environment (a poll takes
 * its size at creation; absent: the default size), the throttle from the API's stage (HTTP API
 * default route settings, REST method settings).
 */
function votePathOf(
  resources: Json,
  logicalIds: Partial<Record<FunctionRole, string>>,
  ofType: (type: string) => Resources,
): StackConfig['votePath'] {
  const env = (role: FunctionRole, name: string) => {
    const value = resources[logicalIds[role]!]?.Properties?.Environment?.Variables?.[name];
    return value === undefined ? undefined : Number(value);
  };
  const [, stage] = [...ofType('AWS::ApiGatewayV2::Stage'), ...ofType('AWS::ApiGateway::Stage')].find(
    ([, s]) => s.Properties?.DefaultRouteSettings || s.Properties?.MethodSettings,
  ) ?? [undefined, undefined];
  const throttle = stage?.Properties?.DefaultRouteSettings ?? stage?.Properties?.MethodSettings?.[0] ?? {};
  return {
    groupsPerPoll: env('createPoll', FUNCTION_ENV.groupsPerPoll.name) ?? DEFAULT_VOTE_PATH.groupsPerPoll,
    counterShards: env('createPoll', FUNCTION_ENV.counterShards.name) ?? DEFAULT_VOTE_PATH.counterShards,
    stageRateLimit: throttle.ThrottlingRateLimit ?? DEFAULT_VOTE_PATH.stageRateLimit,
    stageBurstLimit: throttle.ThrottlingBurstLimit ?? DEFAULT_VOTE_PATH.stageBurstLimit,
  };
}
