/**
 * What in the synthesized template changes the bill (API kind, each function's memory, architecture, logging,
 * tracing and custom metrics, the consumer's batching, alarms), as the bill sees the template's model
 * (template/model.ts, the local runtime's too): the app's functions by role, the stack's defaults for a part it
 * lacks, and what it does not price. Pure: give it the template's JSON. Change the stack, and the estimate follows.
 */
import {
  API_PATH_PATTERN,
  POLL_PATH_PATTERN,
  RESULTS_PATH_PATTERN,
  type ResultsDelivery,
} from '../../config/results-delivery';
import { FUNCTION_DEFAULTS, FUNCTION_METADATA } from '../../config/functions';
import { POLL_READ_CACHE_SECONDS } from '../../config/caching';
import { FUNCTION_ENV } from '../../config/function-env';
import { FUNCTION_ROLES, type FunctionRole, functionRole } from '../usage/unit-costs';
import { DEFAULT_VOTE_PATH, type VotePath } from '../../config/vote-path';
import { NamedError } from '../../domain/errors';
import { type CorsModel, type FunctionModel, readStackTemplate, type StackTemplate } from '../../template/model';
import { refTarget } from '../../template/refs';

/**
 * The settings of a function the bill reads, as a function the template lacks is priced: with those the stack
 * gives every function by default (config/functions.ts), as the traffic still reaches one.
 */
const DEFAULT_FUNCTION = {
  memoryMb: FUNCTION_DEFAULTS.memoryMb,
  architecture: FUNCTION_DEFAULTS.architecture,
  logFormat: 'JSON',
  systemLogLevel: FUNCTION_DEFAULTS.systemLogLevel,
  applicationLogLevel: FUNCTION_DEFAULTS.logLevel,
  tracing: false,
  logRetentionDays: FUNCTION_DEFAULTS.logRetentionDays,
  customMetrics: 0,
} satisfies Partial<FunctionModel>;
export type FunctionConfig = Pick<FunctionModel, keyof typeof DEFAULT_FUNCTION>;

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
  /** The site's distribution fronts the whole API (results=cloudfront): every API call is a CloudFront request too. */
  apiThroughCloudFront: boolean;
  /**
   * Seconds the distribution keeps a poll read (results=cloudfront): its behaviour's max TTL, at most the
   * max-age the answer carries (POLL_READ_CACHE_SECONDS); 0 where poll reads are not cached.
   */
  pollReadCacheSeconds: number;
  /** A CloudFront Function on the site's requests (routing and the 404 page): one invocation per site request. */
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

const DEFAULT_CONSUMER = { batchSize: 10, maxBatchingWindowSeconds: 0 };

/**
 * The stack as the bill sees it, from its synthesized template; `missing` hears of each part of this app it
 * lacks (and may throw), which is then priced as the defaults are.
 */
function readConfig(
  template: Json,
  missing: (part: MissingPart) => void,
): { stack: StackConfig; functionIds: Partial<Record<FunctionRole, string>>; model: StackTemplate } {
  if (!template?.Resources || typeof template.Resources !== 'object')
    throw new TemplateError('Not a CloudFormation template: it has no Resources.');
  const model = readStackTemplate(template);
  const byRole = new Map(model.functions.map((fn) => [functionRole(fn.name ?? ''), fn]));
  const lacking = FUNCTION_ROLES.filter((role) => !byRole.has(role));
  if (lacking.length > 0)
    missing({
      part: `no function for ${lacking.join(', ')} (looked for "${FUNCTION_METADATA.name}" metadata)`,
      pricedAs: "the stack's default function settings",
    });
  const functions = Object.fromEntries(
    FUNCTION_ROLES.map((role) => {
      const fn = byRole.get(role);
      const settings = Object.keys(DEFAULT_FUNCTION) as Array<keyof FunctionConfig>;
      return [role, fn ? Object.fromEntries(settings.map((key) => [key, fn[key]])) : DEFAULT_FUNCTION];
    }),
  ) as Record<FunctionRole, FunctionConfig>;
  const [mapping] = model.eventSources;
  if (!mapping)
    missing({ part: 'no SQS event source for the vote consumer', pricedAs: 'batches of 10 with no batching window' });
  const { batchSize, maxBatchingWindowSeconds } = mapping ?? DEFAULT_CONSUMER;
  /** A distribution's behaviour of its own for this path. */
  const behaviorFor = (pattern: string) =>
    model.distributions.flatMap((d) => d.behaviors).find((b) => b.pathPattern === pattern);
  const results = byRole.get('getResults');
  const stack: StackConfig = {
    apiKind: model.apiKind,
    corsPreflight: model.cors !== undefined,
    corsMaxAgeSeconds: corsMaxAge(model.cors),
    functions,
    consumer: { batchSize, maxBatchingWindowSeconds },
    results: model.websocketApi
      ? 'websocket'
      : model.functionUrls.some((url) => url.functionLogicalId === results?.logicalId)
        ? 'function-url'
        : behaviorFor(RESULTS_PATH_PATTERN)
          ? 'cloudfront'
          : 'api',
    resultsConcurrency: results?.reservedConcurrency,
    apiThroughCloudFront: behaviorFor(API_PATH_PATTERN) !== undefined,
    pollReadCacheSeconds: Math.min(POLL_READ_CACHE_SECONDS, behaviorFor(POLL_PATH_PATTERN)?.maxTtl ?? 0),
    siteRouter: model.distributions.some((d) => d.siteRouter),
    alarms: model.alarms,
    dashboards: model.dashboards,
    votePath: votePathOf(model, byRole.get('createPoll')),
    ...(model.region !== undefined ? { region: model.region } : {}),
  };
  const functionIds = Object.fromEntries(
    [...byRole].filter(([role]) => role).map(([role, fn]) => [role, fn.logicalId]),
  );
  return { stack, functionIds, model };
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
 * Types the template's model does not read that the bill prices another way (the REST API by its requests, the
 * site's router with the distribution's) or that cost nothing of their own (permissions, policies, deploy-time
 * machinery). What the model reads the bill prices by the traffic model; the types with one priced resource of
 * their own are checked one by one (notPricedOf).
 */
const ACCOUNTED_TYPES = new Set([
  'AWS::ApiGateway::RestApi',
  'AWS::IAM::Role',
  'AWS::IAM::Policy',
  'AWS::IAM::ManagedPolicy',
  'AWS::Lambda::Permission',
  'AWS::Lambda::LayerVersion',
  'AWS::SQS::QueuePolicy',
  'AWS::S3::BucketPolicy',
  'AWS::CloudFront::Function',
  'AWS::CloudFront::OriginAccessControl',
  'AWS::CloudFront::OriginRequestPolicy',
  'AWS::CloudFront::ResponseHeadersPolicy',
  'AWS::ApiGateway::Deployment',
  'AWS::ApiGateway::Account',
  'AWS::CDK::Metadata',
  'AWS::CloudFormation::CustomResource',
]);

/** Each resource the bill has no line for, with why; the poll table, the vote queue and its dead letters are priced. */
function notPricedOf(model: StackTemplate, functionIds: Partial<Record<FunctionRole, string>>): NotPriced[] {
  const appFunctions = new Set(Object.values(functionIds));
  const otherFunctions = new Set(model.functions.map((f) => f.logicalId).filter((id) => !appFunctions.has(id)));
  const voteQueues = new Set(model.eventSources.map((e) => e.queueLogicalId));
  const deadLetters = new Set(
    model.queues.filter((q) => voteQueues.has(q.logicalId)).map((q) => q.redrive?.deadLetterLogicalId),
  );
  const table = pollTableOf(model, functionIds.createPoll);
  const served = new Set(model.distributions.flatMap((d) => d.origins));
  const unread = new Set(model.unread.map((r) => r.logicalId));
  const out: NotPriced[] = [];
  for (const { type, logicalId } of model.resources) {
    const not = (why: string) => out.push({ type, logicalId, why });
    if (type === 'AWS::Lambda::Function') {
      if (otherFunctions.has(logicalId)) not("a function the app's traffic does not call");
    } else if (type === 'AWS::SQS::Queue') {
      if (!voteQueues.has(logicalId) && !deadLetters.has(logicalId)) not('a queue the votes do not go through');
    } else if (type === 'AWS::DynamoDB::Table') {
      if (logicalId !== table) not('a table the polls are not kept in');
      for (const index of model.tables.find((t) => t.logicalId === logicalId)?.indexes ?? [])
        not(`its index ${index}: the writes and storage it adds`);
    } else if (type === 'AWS::S3::Bucket') {
      if (!served.has(logicalId)) not("a bucket the site's distribution does not serve");
    } else if (unread.has(logicalId) && !type.startsWith('Custom::') && !ACCOUNTED_TYPES.has(type))
      not('a type the estimator has no price for');
  }
  return out;
}

/** The table the create function writes polls to (its environment names it), else the template's only one. */
function pollTableOf({ tables, functions }: StackTemplate, createId: string | undefined) {
  const ids = tables.map((t) => t.logicalId);
  const environment = functions.find((fn) => fn.logicalId === createId)?.environment ?? {};
  return (
    Object.values(environment)
      .map(refTarget)
      .find((id) => id !== undefined && ids.includes(id)) ?? ids[0]
  );
}

/**
 * Any template of this app, changed as it may be (other settings, a design, resources added): the stack the bill
 * prices, what it does not price, and the parts it lacks. A TemplateError where it is not this app's: no table
 * for the polls, no queue for the votes.
 */
export function readStack(template: Json): StackReading {
  const missing: MissingPart[] = [];
  const { stack, functionIds, model } = readConfig(template, (part) => missing.push(part));
  const lacks = [
    ...(model.tables.length > 0 ? [] : ['no DynamoDB table (the polls)']),
    ...(model.queues.length > 0 ? [] : ['no SQS queue (the votes)']),
  ];
  if (lacks.length > 0) throw new TemplateError(`Not a template of this app: it has ${lacks.join(' and ')}.`);
  return { stack, notPriced: notPricedOf(model, functionIds), missing, functionIds };
}

/** How long a browser keeps a preflight's answer: the HTTP API's MaxAge, the REST API's quoted header; 0 if none. */
function corsMaxAge(cors: CorsModel | undefined): number {
  if (cors?.kind === 'http') return cors.maxAge ?? 0;
  const age = cors?.preflights.map((p) => p.headers['access-control-max-age']).find((a) => typeof a === 'string');
  return age === undefined ? 0 : Number(age.replace(/'/g, '')) || 0;
}

/**
 * The vote path as deployed: groups and shards from the create function's environment (a poll takes its size at
 * creation; absent: the default size), the throttle from the API's stage.
 */
function votePathOf({ throttle }: StackTemplate, create: FunctionModel | undefined): StackConfig['votePath'] {
  const env = (name: string, fallback: number) => Number(create?.environment[name] ?? fallback);
  return {
    groupsPerPoll: env(FUNCTION_ENV.groupsPerPoll.name, DEFAULT_VOTE_PATH.groupsPerPoll),
    counterShards: env(FUNCTION_ENV.counterShards.name, DEFAULT_VOTE_PATH.counterShards),
    stageRateLimit: throttle.rateLimit ?? DEFAULT_VOTE_PATH.stageRateLimit,
    stageBurstLimit: throttle.burstLimit ?? DEFAULT_VOTE_PATH.stageBurstLimit,
  };
}
