/**
 * A synthesized template of this app, read once for the local runtime that serves it (local/template-model.ts)
 * and the estimator that prices it (cost/estimate/stack-config.ts). Any template of the app, changed as it may be
 * (other settings, resources added or stripped of their properties), reads without throwing: an absent property
 * as CloudFormation's default, a resource of a type read nowhere here listed in `unread`, never dropped.
 */
import { FUNCTION_METADATA } from '../config/functions';
import { type ApiKind, PRICING_REGION_METADATA } from '../config/stack';
import { customResourceProviders, getAttTarget, refTarget } from './refs';

// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is JSON of any shape
type Json = any;
export interface Template {
  Resources: Record<string, { Type: string; Properties?: Json; Metadata?: Json }>;
  Metadata?: Json;
}

export interface TableModel {
  logicalId: string;
  keySchema: Array<{ AttributeName: string; KeyType: string }>;
  attributeDefinitions: Array<{ AttributeName: string; AttributeType: string }>;
  ttlAttribute?: string;
  /** Its global secondary indexes, by name. */
  indexes: string[];
}

export interface QueueModel {
  logicalId: string;
  /** The queue name the emulator uses: the logical id, with `.fifo` for FIFO queues. */
  name: string;
  fifo: boolean;
  /** A FIFO queue that deduplicates per message group (DeduplicationScope messageGroup), not per queue. */
  dedupePerGroup: boolean;
  visibilityTimeoutSeconds: number;
  redrive?: { deadLetterLogicalId: string; maxReceiveCount: number };
}

export interface FunctionModel {
  logicalId: string;
  /** Its name in the app (`CastVote`), where its metadata has one (lib/functions.ts appFunction() writes it). */
  name?: string;
  /** Source file, e.g. `lambdas/entries/cast-vote-function.ts`, where its metadata has one. */
  entry?: string;
  /** The export Lambda calls: Handler's part after the dot. */
  handler: string;
  timeoutSeconds: number;
  memoryMb: number;
  architecture: 'arm64' | 'x86_64';
  /** JSON with a system log level of WARN or above drops Lambda's START/END/REPORT lines. */
  logFormat: 'JSON' | 'Text';
  systemLogLevel: string;
  applicationLogLevel: string;
  tracing: boolean;
  /** Its log group's retention (LoggingConfig.LogGroup); none: kept for ever, or no log group of its own. */
  logRetentionDays?: number;
  /** CloudWatch custom metrics it publishes (embedded metric format, one line per invocation). */
  customMetrics: number;
  /** Values may still reference other resources ({Ref}, {Fn::GetAtt}). */
  environment: Record<string, Json>;
  /** At most this many at once; more get 429 (and Lambda allows 10 requests a second per unit). */
  reservedConcurrency?: number;
}

/** A Lambda function URL: a public HTTPS endpoint for one function, with its own CORS settings. */
export interface FunctionUrlModel {
  logicalId: string;
  functionLogicalId: string;
  cors: { allowOrigins: Json[]; allowMethods: string[]; maxAge?: number };
}

export interface RouteModel {
  method: string;
  /** API Gateway syntax, e.g. `/api/poll/{id}/vote`. */
  path: string;
  functionLogicalId: string;
}

/**
 * How the API answers CORS preflights, as the template configures it: an HTTP API's
 * CorsConfiguration (it answers every preflight itself), or a REST API's OPTIONS methods (mock
 * integrations with fixed headers, on the resources that have one). Values may still reference
 * other resources (the site's domain).
 */
export type CorsModel<Value = Json> =
  | {
      kind: 'http';
      allowOrigins: Value[];
      allowMethods: string[];
      allowHeaders: string[];
      exposeHeaders: string[];
      maxAge?: number;
    }
  | { kind: 'rest'; preflights: Array<{ path: string; status: number; headers: Record<string, Value> }> };

export interface EventSourceModel {
  queueLogicalId: string;
  functionLogicalId: string;
  batchSize: number;
  maxBatchingWindowSeconds: number;
  reportBatchItemFailures: boolean;
}

/** A CloudFront cache behavior: a path pattern, where it goes, and its cache policy's TTLs (seconds). */
export interface CacheBehaviorModel {
  pathPattern: string;
  /** Its origin is an API Gateway domain, not the site's bucket. */
  toApi: boolean;
  minTtl: number;
  defaultTtl: number;
  maxTtl: number;
}

export interface DistributionModel {
  logicalId: string;
  /** What its origins take their domain from by {Fn::GetAtt} (the site's bucket; an API's domain is joined). */
  origins: string[];
  behaviors: CacheBehaviorModel[];
  /** A CloudFront Function on the default behaviour's viewer requests: the site's router. */
  siteRouter: boolean;
}

export interface StackTemplate {
  /** `http` where the template has an HTTP API (a WebSocket one aside), else `rest`. */
  apiKind: ApiKind;
  /** A WebSocket API: results pushed, a design the estimator prices but the app does not build. */
  websocketApi: boolean;
  routes: RouteModel[];
  /** None: the API has no CORS configuration (results=cloudfront puts the API on the site's origin). */
  cors?: CorsModel;
  /** The API stage's throttle (an HTTP API's default route settings, a REST API's method settings). */
  throttle: { rateLimit?: number; burstLimit?: number };
  tables: TableModel[];
  queues: QueueModel[];
  /** The app's functions: those that only serve CloudFormation custom resources (deploy machinery) left out. */
  functions: FunctionModel[];
  eventSources: EventSourceModel[];
  functionUrls: FunctionUrlModel[];
  distributions: DistributionModel[];
  alarms: number;
  dashboards: number;
  /** The AWS Region the template was synthesized for, where it records one (its Metadata). */
  region?: string;
  /** Every resource, in the template's order. */
  resources: Array<{ type: string; logicalId: string }>;
  /** The resources of a type read nowhere here (IAM, custom resources, a KMS key added), in the template's order. */
  unread: StackTemplate['resources'];
}

/** A resource of the type asked for: its logical id, its properties and its metadata ({} where it has none). */
type Read = { id: string; p: Json; metadata: Json };
type OfType = (type: string) => Read[];

/** A REST API's methods, each with its resource's path. */
function restMethods(ofType: OfType) {
  const resources = new Map(ofType('AWS::ApiGateway::Resource').map((r) => [r.id, r.p]));
  const pathOf = (resourceId: Json): string => {
    const id = refTarget(resourceId);
    const resource = id ? resources.get(id) : undefined;
    return resource ? `${pathOf(resource.ParentId)}/${resource.PathPart}` : '';
  };
  return ofType('AWS::ApiGateway::Method').map(({ p }) => ({
    method: String(p.HttpMethod),
    path: pathOf(p.ResourceId) || '/',
    integration: p.Integration,
  }));
}
type RestMethod = ReturnType<typeof restMethods>[number];

/** Route targets look like {"Fn::Join": ["", ["integrations/", {"Ref": "Integration"}]]}. */
function integrationOf(target: Json): string | undefined {
  const parts = target?.['Fn::Join']?.[1];
  return Array.isArray(parts) ? parts.map(refTarget).find(Boolean) : undefined;
}

function routesOf(ofType: OfType, methods: RestMethod[], isHttp: boolean): RouteModel[] {
  const integrations = new Map(ofType('AWS::ApiGatewayV2::Integration').map((i) => [i.id, i.p]));
  const httpRoutes = ofType('AWS::ApiGatewayV2::Route').map(({ p }) => {
    const [method, path] = String(p.RouteKey).split(' ');
    const integration = integrations.get(integrationOf(p.Target) ?? '');
    return { method, path, functionLogicalId: getAttTarget(integration?.IntegrationUri) ?? '' };
  });
  const restRoutes = methods
    .filter((m) => m.method !== 'OPTIONS')
    .map((m) => ({ method: m.method, path: m.path, functionLogicalId: getAttTarget(m.integration?.Uri) ?? '' }));
  return isHttp ? httpRoutes : restRoutes;
}

const RESPONSE_HEADER = 'method.response.header.';

function corsOf(methods: RestMethod[], httpApis: Read[]): CorsModel | undefined {
  if (httpApis.length > 0) {
    const config = httpApis[0].p.CorsConfiguration;
    return config
      ? {
          kind: 'http',
          allowOrigins: config.AllowOrigins ?? [],
          allowMethods: config.AllowMethods ?? [],
          allowHeaders: config.AllowHeaders ?? [],
          exposeHeaders: config.ExposeHeaders ?? [],
          maxAge: config.MaxAge,
        }
      : undefined;
  }
  // A mock integration's first response: its status and its headers (static values, in single quotes).
  const preflights = methods
    .filter((m) => m.method === 'OPTIONS' && m.integration?.Type === 'MOCK')
    .map((m) => {
      const response = m.integration.IntegrationResponses?.[0] ?? {};
      const headers = Object.entries<Json>(response.ResponseParameters ?? {})
        .filter(([name]) => name.startsWith(RESPONSE_HEADER))
        .map(([name, value]) => [name.slice(RESPONSE_HEADER.length).toLowerCase(), value]);
      return { path: m.path, status: Number(response.StatusCode ?? 200), headers: Object.fromEntries(headers) };
    });
  return preflights.length > 0 ? { kind: 'rest', preflights } : undefined;
}

function throttleOf(ofType: OfType): StackTemplate['throttle'] {
  const stage = [...ofType('AWS::ApiGatewayV2::Stage'), ...ofType('AWS::ApiGateway::Stage')].find(
    ({ p }) => p.DefaultRouteSettings || p.MethodSettings,
  );
  const settings = stage?.p.DefaultRouteSettings ?? stage?.p.MethodSettings?.[0] ?? {};
  return { rateLimit: settings.ThrottlingRateLimit, burstLimit: settings.ThrottlingBurstLimit };
}

function distributionsOf(ofType: OfType): DistributionModel[] {
  const policies = new Map(ofType('AWS::CloudFront::CachePolicy').map((c) => [c.id, c.p.CachePolicyConfig ?? {}]));
  return ofType('AWS::CloudFront::Distribution').map(({ id, p }) => {
    const config = p.DistributionConfig ?? {};
    const origins: Json[] = config.Origins ?? [];
    return {
      logicalId: id,
      origins: origins.flatMap((o) => getAttTarget(o.DomainName) ?? []),
      behaviors: (config.CacheBehaviors ?? []).map((b: Json) => {
        const policy = policies.get(refTarget(b.CachePolicyId) ?? '') ?? {};
        const origin = origins.find((o) => o.Id === b.TargetOriginId);
        return {
          pathPattern: b.PathPattern,
          toApi: JSON.stringify(origin?.DomainName ?? '').includes('execute-api'),
          minTtl: policy.MinTTL ?? 0,
          defaultTtl: policy.DefaultTTL ?? 0,
          maxTtl: policy.MaxTTL ?? 0,
        };
      }),
      siteRouter: (config.DefaultCacheBehavior?.FunctionAssociations ?? []).some(
        (f: Json) => f.EventType === 'viewer-request',
      ),
    };
  });
}

function functionsOf(ofType: OfType, providers: Set<string>): FunctionModel[] {
  const retention = new Map(ofType('AWS::Logs::LogGroup').map((g) => [g.id, g.p.RetentionInDays]));
  return ofType('AWS::Lambda::Function')
    .filter(({ id }) => !providers.has(id))
    .map(({ id, p, metadata }) => {
      const logging = p.LoggingConfig ?? {};
      const logGroup = refTarget(logging.LogGroup);
      return {
        logicalId: id,
        name: metadata[FUNCTION_METADATA.name],
        entry: metadata[FUNCTION_METADATA.entry],
        handler: String(p.Handler).split('.')[1],
        timeoutSeconds: p.Timeout ?? 3,
        memoryMb: p.MemorySize ?? 128,
        architecture: p.Architectures?.[0] === 'arm64' ? 'arm64' : 'x86_64',
        logFormat: logging.LogFormat === 'JSON' ? 'JSON' : 'Text',
        systemLogLevel: logging.SystemLogLevel ?? 'INFO',
        applicationLogLevel: logging.ApplicationLogLevel ?? 'INFO',
        tracing: p.TracingConfig?.Mode === 'Active',
        logRetentionDays: logGroup ? retention.get(logGroup) : undefined,
        customMetrics: (metadata[FUNCTION_METADATA.metrics] ?? []).length,
        environment: p.Environment?.Variables ?? {},
        reservedConcurrency: p.ReservedConcurrentExecutions,
      };
    });
}

function queueOf({ id, p }: Read): QueueModel {
  const fifo = p.FifoQueue === true || p.FifoQueue === 'true';
  const redrive = p.RedrivePolicy;
  return {
    logicalId: id,
    name: fifo ? `${id}.fifo` : id,
    fifo,
    dedupePerGroup: p.DeduplicationScope === 'messageGroup',
    visibilityTimeoutSeconds: Number(p.VisibilityTimeout ?? 30),
    redrive: redrive
      ? {
          deadLetterLogicalId: getAttTarget(redrive.deadLetterTargetArn) ?? '',
          maxReceiveCount: Number(redrive.maxReceiveCount),
        }
      : undefined,
  };
}

/** The app's stack as its template says it. */
export function readStackTemplate(template: Template): StackTemplate {
  const entries = Object.entries(template.Resources);
  // The types asked for: a resource of any other is unread.
  const asked = new Set<string>();
  const ofType: OfType = (type) => {
    asked.add(type);
    return entries
      .filter(([, r]) => r?.Type === type)
      .map(([id, r]) => ({ id, p: r.Properties ?? {}, metadata: r.Metadata ?? {} }));
  };
  const v2Apis = ofType('AWS::ApiGatewayV2::Api');
  const httpApis = v2Apis.filter(({ p }) => p.ProtocolType !== 'WEBSOCKET');
  const methods = restMethods(ofType);
  const region = template.Metadata?.[PRICING_REGION_METADATA];
  const model: Omit<StackTemplate, 'resources' | 'unread'> = {
    apiKind: httpApis.length > 0 ? 'http' : 'rest',
    websocketApi: httpApis.length < v2Apis.length,
    routes: routesOf(ofType, methods, httpApis.length > 0),
    cors: corsOf(methods, httpApis),
    throttle: throttleOf(ofType),
    tables: ofType('AWS::DynamoDB::Table').map(({ id, p }) => ({
      logicalId: id,
      keySchema: p.KeySchema ?? [],
      attributeDefinitions: p.AttributeDefinitions ?? [],
      ttlAttribute: p.TimeToLiveSpecification?.Enabled ? p.TimeToLiveSpecification.AttributeName : undefined,
      indexes: (p.GlobalSecondaryIndexes ?? []).map((index: Json) => String(index.IndexName)),
    })),
    queues: ofType('AWS::SQS::Queue').map(queueOf),
    functions: functionsOf(ofType, customResourceProviders(template.Resources)),
    eventSources: ofType('AWS::Lambda::EventSourceMapping').map(({ p }) => ({
      queueLogicalId: getAttTarget(p.EventSourceArn) ?? '',
      functionLogicalId: refTarget(p.FunctionName) ?? '',
      batchSize: p.BatchSize ?? 10,
      maxBatchingWindowSeconds: p.MaximumBatchingWindowInSeconds ?? 0,
      reportBatchItemFailures: (p.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures'),
    })),
    functionUrls: ofType('AWS::Lambda::Url').map(({ id, p }) => ({
      logicalId: id,
      functionLogicalId: getAttTarget(p.TargetFunctionArn) ?? '',
      cors: {
        allowOrigins: p.Cors?.AllowOrigins ?? [],
        allowMethods: p.Cors?.AllowMethods ?? [],
        maxAge: p.Cors?.MaxAge,
      },
    })),
    distributions: distributionsOf(ofType),
    alarms: ofType('AWS::CloudWatch::Alarm').length,
    dashboards: ofType('AWS::CloudWatch::Dashboard').length,
    ...(typeof region === 'string' ? { region } : {}),
  };
  const resources = entries.map(([logicalId, r]) => ({ type: String(r?.Type), logicalId }));
  return { ...model, resources, unread: resources.filter((r) => !asked.has(r.type)) };
}
