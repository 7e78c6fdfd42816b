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
    const p = fn.Properties;
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
  const missing = FUNCTION_ROLES.filter((role) => !functions[role]);
  if (missing.length > 0)
    throw new Error(
      `The template has no function for ${missing.join(', ')} (looked for "${FUNCTION_METADATA.name}" metadata).`,
    );
  return { functions: functions as Record<FunctionRole, FunctionConfig>, logicalIds };
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

/** The stack as the bill sees it, from its synthesized template; throws an Error naming what the template lacks. */
export function readStackConfig(template: Json): StackConfig {
  if (!template?.Resources) throw new Error('Not a CloudFormation template: it has no Resources.');
  const resources = Object.entries(template.Resources as Record<string, Json>);
  const ofType = (type: string) => resources.filter(([, r]) => r.Type === type);
  const { functions, logicalIds } = readFunctions(ofType);
  const [, mapping] = ofType('AWS::Lambda::EventSourceMapping')[0] ?? [];
  if (!mapping) throw new Error('The template has no SQS event source for the vote consumer.');
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
  return {
    apiKind: httpApis.length > 0 ? 'http' : 'rest',
    corsPreflight: cors !== undefined || restOptions.length > 0,
    corsMaxAgeSeconds: cors?.MaxAge ?? restMaxAge(restOptions),
    functions,
    consumer: {
      batchSize: mapping.Properties.BatchSize ?? 10,
      maxBatchingWindowSeconds: mapping.Properties.MaximumBatchingWindowInSeconds ?? 0,
    },
    results: resultsOf(ofType, logicalIds.getResults, cachesPath),
    resultsConcurrency: template.Resources[logicalIds.getResults!]?.Properties?.ReservedConcurrentExecutions,
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
