/**
 * Reads a synthesized CloudFormation template into what the local runtime
 * serves: tables, queues, functions, API routes and queue-to-function mappings.
 * The template is the only definition; nothing here repeats the stack.
 */
import { FUNCTION_METADATA } from '../config/functions';
import type { ApiKind } from '../config/stack';
import { customResourceProviders, getAttTarget, refTarget } from '../config/template-refs';

// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is JSON of any shape
type Json = any;
interface Resource {
  Type: string;
  Properties?: Json;
  Metadata?: Json;
}
export interface Template {
  Resources: Record<string, Resource>;
}

export interface TableModel {
  logicalId: string;
  keySchema: Array<{ AttributeName: string; KeyType: string }>;
  attributeDefinitions: Array<{ AttributeName: string; AttributeType: string }>;
  ttlAttribute?: string;
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
  name: string;
  /** Source file, e.g. `lambdas/cast-vote.ts`. */
  entry: string;
  handler: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** Values may still reference other resources ({Ref}, {Fn::GetAtt}): see resolveValue. */
  environment: Record<string, Json>;
  /** At most this many at once; more get 429 (and Lambda allows 10 requests a second per unit). */
  reservedConcurrency?: number;
}

/** A Lambda function URL: a public HTTPS endpoint for one function, with its own CORS settings. */
export interface FunctionUrlModel {
  logicalId: string;
  functionLogicalId: string;
  authType: string;
  cors: { allowOrigins: Json[]; allowMethods: string[]; maxAge?: number };
}

/** A CloudFront cache behavior that sends a path pattern to the API (not to the site's bucket). */
export interface ApiCacheBehaviorModel {
  pathPattern: string;
  /** Seconds, from its cache policy. */
  minTtl: number;
  defaultTtl: number;
  maxTtl: number;
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
 * other resources (the site's domain): see resolveValue.
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

export interface AppModel {
  apiKind: ApiKind;
  tables: TableModel[];
  queues: QueueModel[];
  functions: FunctionModel[];
  routes: RouteModel[];
  /** None: the API has no CORS configuration (results=cloudfront puts the API on the site's origin). */
  cors?: CorsModel;
  eventSources: EventSourceModel[];
  /** CloudFront distributions: the local runtime serves the site itself, on its own origin. */
  distributions: string[];
  functionUrls: FunctionUrlModel[];
  /** Behaviors of the distribution that cache the API (results=cloudfront). */
  apiCacheBehaviors: ApiCacheBehaviorModel[];
}

const ofType = (template: Template, type: string) =>
  Object.entries(template.Resources).filter(([, resource]) => resource.Type === type) as Array<
    [string, Resource & { Properties: Json }]
  >;

/** A REST API's methods, each with its resource's path. */
function restMethods(template: Template) {
  const resources = new Map(ofType(template, 'AWS::ApiGateway::Resource'));
  const pathOf = (resourceId: Json): string => {
    const id = refTarget(resourceId);
    const resource = id ? resources.get(id) : undefined;
    return resource ? `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}` : '';
  };
  return ofType(template, 'AWS::ApiGateway::Method').map(([, m]) => ({
    method: String(m.Properties.HttpMethod),
    path: pathOf(m.Properties.ResourceId) || '/',
    integration: m.Properties.Integration,
  }));
}

function restRoutes(template: Template): RouteModel[] {
  return restMethods(template)
    .filter((m) => m.method !== 'OPTIONS')
    .map((m) => ({ method: m.method, path: m.path, functionLogicalId: getAttTarget(m.integration?.Uri)! }));
}

const RESPONSE_HEADER = 'method.response.header.';

function corsOf(template: Template, isHttp: boolean): CorsModel | undefined {
  if (isHttp) {
    const config = ofType(template, 'AWS::ApiGatewayV2::Api')[0]?.[1].Properties.CorsConfiguration;
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
  const preflights = restMethods(template)
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

function httpRoutes(template: Template): RouteModel[] {
  const integrations = new Map(ofType(template, 'AWS::ApiGatewayV2::Integration'));
  return ofType(template, 'AWS::ApiGatewayV2::Route').map(([, route]) => {
    const [method, path] = String(route.Properties.RouteKey).split(' ');
    const integrationId = getIntegrationId(route.Properties.Target);
    const integration = integrationId ? integrations.get(integrationId) : undefined;
    return { method, path, functionLogicalId: getAttTarget(integration?.Properties.IntegrationUri)! };
  });
}

/** Route targets look like {"Fn::Join": ["", ["integrations/", {"Ref": "Integration"}]]}. */
function getIntegrationId(target: Json): string | undefined {
  const parts = target?.['Fn::Join']?.[1];
  return Array.isArray(parts) ? parts.map(refTarget).find(Boolean) : undefined;
}

/** Cache behaviors whose origin is an API Gateway domain, with their cache policy's TTLs. */
function apiCacheBehaviors(template: Template): ApiCacheBehaviorModel[] {
  const policies = new Map(ofType(template, 'AWS::CloudFront::CachePolicy'));
  return ofType(template, 'AWS::CloudFront::Distribution').flatMap(([, distribution]) => {
    const config = distribution.Properties.DistributionConfig;
    const apiOrigins = new Set<string>(
      (config.Origins ?? [])
        .filter((o: Json) => JSON.stringify(o.DomainName).includes('execute-api'))
        .map((o: Json) => o.Id),
    );
    return (config.CacheBehaviors ?? [])
      .filter((b: Json) => apiOrigins.has(b.TargetOriginId))
      .map((b: Json) => {
        const policy = policies.get(refTarget(b.CachePolicyId) ?? '')?.Properties.CachePolicyConfig ?? {};
        return {
          pathPattern: b.PathPattern,
          minTtl: policy.MinTTL ?? 0,
          defaultTtl: policy.DefaultTTL ?? 0,
          maxTtl: policy.MaxTTL ?? 0,
        };
      });
  });
}

export function readTemplate(template: Template): AppModel {
  const providers = customResourceProviders(template.Resources);
  const functions = ofType(template, 'AWS::Lambda::Function')
    .filter(([logicalId]) => !providers.has(logicalId))
    .map(([logicalId, fn]): FunctionModel => {
      const entry = fn.Metadata?.[FUNCTION_METADATA.entry];
      if (!entry)
        throw new Error(
          `Function ${logicalId} has no ${FUNCTION_METADATA.entry} metadata: ` +
            'make it with lib/functions.ts appFunction().',
        );
      const [, handler] = String(fn.Properties.Handler).split('.');
      return {
        logicalId,
        name: fn.Metadata?.[FUNCTION_METADATA.name] ?? logicalId,
        entry,
        handler,
        timeoutSeconds: fn.Properties.Timeout ?? 3,
        memoryMb: fn.Properties.MemorySize ?? 128,
        environment: fn.Properties.Environment?.Variables ?? {},
        reservedConcurrency: fn.Properties.ReservedConcurrentExecutions,
      };
    });

  const queues = ofType(template, 'AWS::SQS::Queue').map(([logicalId, queue]): QueueModel => {
    const fifo = queue.Properties.FifoQueue === true || queue.Properties.FifoQueue === 'true';
    const redrive = queue.Properties.RedrivePolicy;
    return {
      logicalId,
      name: fifo ? `${logicalId}.fifo` : logicalId,
      fifo,
      dedupePerGroup: queue.Properties.DeduplicationScope === 'messageGroup',
      visibilityTimeoutSeconds: Number(queue.Properties.VisibilityTimeout ?? 30),
      redrive: redrive
        ? {
            deadLetterLogicalId: getAttTarget(redrive.deadLetterTargetArn)!,
            maxReceiveCount: Number(redrive.maxReceiveCount),
          }
        : undefined,
    };
  });

  const tables = ofType(template, 'AWS::DynamoDB::Table').map(([logicalId, table]) => ({
    logicalId,
    keySchema: table.Properties.KeySchema,
    attributeDefinitions: table.Properties.AttributeDefinitions,
    ttlAttribute: table.Properties.TimeToLiveSpecification?.Enabled
      ? table.Properties.TimeToLiveSpecification.AttributeName
      : undefined,
  }));

  const eventSources = ofType(template, 'AWS::Lambda::EventSourceMapping').map(([, esm]) => ({
    queueLogicalId: getAttTarget(esm.Properties.EventSourceArn)!,
    functionLogicalId: refTarget(esm.Properties.FunctionName)!,
    batchSize: esm.Properties.BatchSize ?? 10,
    maxBatchingWindowSeconds: esm.Properties.MaximumBatchingWindowInSeconds ?? 0,
    reportBatchItemFailures: (esm.Properties.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures'),
  }));

  const functionUrls = ofType(template, 'AWS::Lambda::Url').map(([logicalId, url]) => ({
    logicalId,
    functionLogicalId: getAttTarget(url.Properties.TargetFunctionArn)!,
    authType: url.Properties.AuthType,
    cors: {
      allowOrigins: url.Properties.Cors?.AllowOrigins ?? [],
      allowMethods: url.Properties.Cors?.AllowMethods ?? [],
      maxAge: url.Properties.Cors?.MaxAge,
    },
  }));

  const isHttp = ofType(template, 'AWS::ApiGatewayV2::Api').length > 0;
  return {
    apiKind: isHttp ? 'http' : 'rest',
    distributions: ofType(template, 'AWS::CloudFront::Distribution').map(([logicalId]) => logicalId),
    functionUrls,
    apiCacheBehaviors: apiCacheBehaviors(template),
    tables,
    queues,
    functions,
    routes: isHttp ? httpRoutes(template) : restRoutes(template),
    cors: corsOf(template, isHttp),
    eventSources,
  };
}

export interface PhysicalIds {
  ref(logicalId: string): string;
  getAtt(logicalId: string, attribute: string): string;
}

/** Resolves {Ref}, {Fn::GetAtt} and {Fn::Join} in a template value to the emulated resources' names, URLs and ARNs. */
export function resolveValue(value: Json, physical: PhysicalIds): string {
  if (typeof value === 'string') return value;
  const ref = refTarget(value);
  if (ref) return physical.ref(ref);
  const getAtt = value?.['Fn::GetAtt'];
  if (Array.isArray(getAtt)) return physical.getAtt(getAtt[0], getAtt[1]);
  const join = value?.['Fn::Join'];
  if (Array.isArray(join) && Array.isArray(join[1]))
    return join[1].map((part: Json) => resolveValue(part, physical)).join(join[0]);
  throw new Error(`The local runtime cannot resolve ${JSON.stringify(value)}`);
}
