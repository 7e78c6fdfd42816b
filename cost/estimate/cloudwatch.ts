/**
 * `npm run cost -- --from-cloudwatch`, its reading: the stack's resources from CloudFormation
 * (DescribeStackResources), then the metrics the table of priced metrics names (config/priced-metrics.ts)
 * over a window from CloudWatch (GetMetricData), summed into what the window measured. Pricing it is
 * cloudwatch-bill.ts. The clients are injected (`send` only): the tests give recorded answers in the SDK's
 * own shapes.
 */
import type {
  DescribeStackResourcesCommandInput,
  DescribeStackResourcesCommandOutput,
} from '@aws-sdk/client-cloudformation';
import type {
  GetMetricDataCommandInput,
  GetMetricDataCommandOutput,
  MetricDataQuery,
} from '@aws-sdk/client-cloudwatch';
import { ROUTES } from '../../config/api-contract';
import { CommandFailure } from '../../domain/errors';
import { quantity } from './format';
import {
  METERED_METRICS,
  METERED_SERVICES,
  type MeteredMetric,
  type MeteredMetricId,
  type MeteredResource,
  type MeteredService,
  PRICED_USAGE,
  type Queue,
  type TermOf,
} from '../../config/priced-metrics';
import { FUNCTION_ROLES, type FunctionRole } from '../usage/unit-costs';

/** The one permission each call needs: all the command asks of an account (read-only). */
export const CLOUDWATCH_PERMISSIONS = ['cloudwatch:GetMetricData', 'cloudformation:DescribeStackResources'] as const;

/** A client that sends one kind of command: the SDK's, or a test's recorded answers. */
export interface Sends<I, O> {
  send(command: { input: I }): Promise<O>;
}
export type StackResourcesClient = Sends<DescribeStackResourcesCommandInput, DescribeStackResourcesCommandOutput>;
export type MetricsClient = Sends<GetMetricDataCommandInput, GetMetricDataCommandOutput>;

/**
 * A REST API's metrics are named by the API's name, not its id; CDK names a RestApi after its construct
 * id, and lib/poll-api.ts's is `RestApi`.
 */
export const REST_API_NAME = 'RestApi';

/** The services the command reads, as a bill names them (config/priced-metrics.ts). */
export const MEASURED_SERVICES = Object.values(METERED_SERVICES);
export type MeasuredService = MeteredService;

/** The window the metrics are read over. */
export interface Window {
  start: Date;
  end: Date;
}

const HOUR_MS = 3_600_000;
export const windowHours = ({ start, end }: Window) => (end.getTime() - start.getTime()) / HOUR_MS;
/** "24 h from 2026-11-24T13:00Z to 2026-11-25T13:00Z" */
export function windowText(window: Window): string {
  const at = (d: Date) => d.toISOString().replace(/:\d\d\.\d+Z$/, 'Z');
  return `${quantity(windowHours(window))} h, ${at(window.start)} to ${at(window.end)}`;
}

/** A deployed function: its name, the app's role it plays (none for CDK's helpers), what it measured. */
export interface MeasuredFunction {
  name: string;
  role?: FunctionRole;
  /** Undefined: no datapoints. */
  invocations?: number;
  durationMs?: number;
}

/** What the window measured; a service or figure left undefined had no datapoints (absent: not in the stack). */
export interface Measurement {
  stackName: string;
  window: Window;
  /** Each service: in the stack but no datapoints ('no datapoints'), or not in the stack. */
  missing: Partial<Record<MeasuredService, 'no datapoints' | 'not in the stack'>>;
  api?: { kind: 'http' | 'rest'; requests?: number; routes: Record<string, number> };
  functions: MeasuredFunction[];
  sqs?: { sent?: number; received?: number; deleted?: number; emptyReceives?: number };
  dynamo?: { readUnits?: number; writeUnits?: number };
  cloudFront?: { requests?: number; bytes?: number };
}

interface Query {
  service: MeasuredService;
  /** The table's metric it reads; none for a route's count (not priced: the API's count is). */
  id?: MeteredMetricId;
  /** What the sum is for: `Invocations` of a function, `route GET /api/poll/{id}` (a `Count`) of a route. */
  metric: string;
  metricName: string;
  statistic: string;
  logicalId: string;
  resource: string;
  namespace: string;
  dimensions: Record<string, string>;
  /** CloudFront's metrics live in us-east-1 only. */
  global?: boolean;
}

type Resource = NonNullable<DescribeStackResourcesCommandOutput['StackResources']>[number];

/** The kind of each resource type the table's metrics are published for. */
const RESOURCE_KINDS: Record<string, MeteredResource> = {
  'AWS::ApiGatewayV2::Api': 'api',
  'AWS::ApiGateway::RestApi': 'api',
  'AWS::Lambda::Function': 'function',
  'AWS::SQS::Queue': 'queue',
  'AWS::DynamoDB::Table': 'table',
  'AWS::DynamoDB::GlobalTable': 'table',
  'AWS::CloudFront::Distribution': 'distribution',
};

/**
 * The queries for the stack's resources: each table metric of each resource's kind (config/priced-metrics.ts),
 * in the table's order, and the API's count per route where its stage has detailed metrics on.
 */
export function metricQueries(resources: Resource[]): Query[] {
  const queries: Query[] = [];
  for (const r of resources) {
    const id = r.PhysicalResourceId;
    const kind = RESOURCE_KINDS[r.ResourceType ?? ''];
    if (!id || !kind) continue;
    const http = r.ResourceType === 'AWS::ApiGatewayV2::Api';
    // A queue's physical id is its URL; its metrics are named by the URL's last part.
    const name = kind === 'queue' ? (id.split('/').pop() ?? id) : kind === 'api' && !http ? REST_API_NAME : id;
    const resource = kind === 'queue' ? name : id;
    for (const [metricId, m] of Object.entries(METERED_METRICS) as [MeteredMetricId, MeteredMetric][]) {
      if (m.resource !== kind) continue;
      const dimension = typeof m.dimension === 'string' ? m.dimension : m.dimension[http ? 'http' : 'rest'];
      queries.push({
        service: m.service,
        id: metricId,
        metric: m.metricName,
        metricName: m.metricName,
        statistic: m.statistic,
        resource,
        logicalId: r.LogicalResourceId ?? '',
        namespace: m.namespace,
        dimensions: { [dimension]: name, ...m.fixedDimensions },
        ...(m.region ? { global: true } : {}),
      });
    }
    if (kind === 'api') queries.push(...routeQueries(queries.at(-1)!, resources, http));
  }
  return queries;
}

/** The API's count route by route, where its stage has detailed metrics on (its name from the stage resource). */
function routeQueries(count: Query, resources: Resource[], http: boolean): Query[] {
  const stage = resources.find(
    (s) => s.ResourceType === (http ? 'AWS::ApiGatewayV2::Stage' : 'AWS::ApiGateway::Stage'),
  )?.PhysicalResourceId;
  if (!stage) return [];
  return ROUTES.map((route) => {
    const key = `${route.method} ${route.path}`;
    const dimensions = http
      ? { ...count.dimensions, Stage: stage, Route: key }
      : { ...count.dimensions, Stage: stage, Method: route.method, Resource: route.path };
    return { ...count, id: undefined, metric: `route ${key}`, dimensions };
  });
}

/**
 * One period the length of the window (only its sum is wanted), in the resolution CloudWatch still
 * keeps for its start (1-minute data for 15 days, 5-minute for 63, hourly after): a datapoint or none
 * a query, little for CloudWatch to add up (LocalStack takes about a second a query for a day of minutes).
 */
export function periodFor(window: Window, now = window.end): number {
  const ageDays = (now.getTime() - window.start.getTime()) / (24 * HOUR_MS);
  const resolution = ageDays > 63 ? 3600 : ageDays > 15 ? 300 : 60;
  return Math.max(1, Math.ceil((windowHours(window) * 3600) / resolution)) * resolution;
}

/** CloudWatch's answer per query: the sum of its values, undefined where it had no datapoints. */
async function sums(client: MetricsClient, queries: Query[], window: Window): Promise<(number | undefined)[]> {
  const out: (number | undefined)[] = queries.map(() => undefined);
  const period = periodFor(window);
  // At most 500 queries a request.
  for (let from = 0; from < queries.length; from += 500) {
    const chunk = queries.slice(from, from + 500);
    const MetricDataQueries: MetricDataQuery[] = chunk.map((q, i) => ({
      Id: `m${from + i}`,
      Label: `${q.resource} ${q.metric}`,
      MetricStat: {
        Metric: {
          Namespace: q.namespace,
          MetricName: q.metricName,
          Dimensions: Object.entries(q.dimensions).map(([Name, Value]) => ({ Name, Value })),
        },
        Period: period,
        Stat: q.statistic,
      },
      ReturnData: true,
    }));
    let NextToken: string | undefined;
    do {
      const answer = await client.send({
        input: { MetricDataQueries, StartTime: window.start, EndTime: window.end, NextToken },
      });
      for (const result of answer.MetricDataResults ?? []) {
        const index = Number(result.Id?.slice(1));
        const values = result.Values ?? [];
        if (!Number.isInteger(index) || values.length === 0) continue;
        out[index] = (out[index] ?? 0) + values.reduce((a, b) => a + b, 0);
      }
      NextToken = answer.NextToken;
    } while (NextToken);
  }
  return out;
}

/** The role a function plays, from its logical id (`CreatePollABC123` -> createPoll); none for CDK's helpers. */
export function roleOf(logicalId: string): FunctionRole | undefined {
  const id = logicalId.toLowerCase();
  return FUNCTION_ROLES.find((role) => id.includes(role.toLowerCase()));
}

export const total = (values: (number | undefined)[]): number | undefined =>
  values.some((v) => v !== undefined) ? values.reduce<number>((a, b) => a + (b ?? 0), 0) : undefined;

/** Which of the stack's resources the table reads each metric of: a term's, or a fallback's. */
const READ_OF = new Map<MeteredMetricId, TermOf>(
  PRICED_USAGE.flatMap((line) =>
    line.terms.flatMap((t) => [
      [t.metric, t.of] as const,
      ...(t.orElse?.metrics.map((metric) => [metric, t.orElse!.of] as const) ?? []),
    ]),
  ),
);
/** A queue's part, from its logical id (lib/vote-pipeline.ts names them). */
const queueOf = (logicalId: string): Queue => (/DeadLetterQueue/.test(logicalId) ? 'deadLetterQueue' : 'voteQueue');
/** Whether a metric of a resource counts: any resource's, but a queue's where the table reads one queue's. */
function readsQueue(id: MeteredMetricId, logicalId: string): boolean {
  const of = READ_OF.get(id);
  return METERED_METRICS[id].resource !== 'queue' || of === 'eachQueue' || of === queueOf(logicalId);
}

/**
 * Reads the stack's resources, then their metrics over the window. The clients' errors pass through
 * (the command says which they are: cloudWatchFailure).
 */
export async function measureStack(
  clients: { stacks: StackResourcesClient; metrics: MetricsClient; globalMetrics: MetricsClient },
  stackName: string,
  window: Window,
): Promise<Measurement> {
  const { StackResources: resources = [] } = await clients.stacks.send({ input: { StackName: stackName } });
  const queries = metricQueries(resources);
  const regional = queries.filter((q) => !q.global);
  const global = queries.filter((q) => q.global);
  const [regionalSums, globalSums] = await Promise.all([
    sums(clients.metrics, regional, window),
    global.length > 0 ? sums(clients.globalMetrics, global, window) : Promise.resolve([]),
  ]);
  const value = new Map<Query, number | undefined>();
  for (const [i, q] of regional.entries()) value.set(q, regionalSums[i]);
  for (const [i, q] of global.entries()) value.set(q, globalSums[i]);
  // A metric summed over the resources the table reads it of (a queue's: each queue, or one of them).
  const of = (id: MeteredMetricId) =>
    total(queries.filter((q) => q.id === id && readsQueue(id, q.logicalId)).map((q) => value.get(q)));

  const m: Measurement = { stackName, window, missing: {}, functions: [] };
  const has = (service: MeasuredService) => queries.some((q) => q.service === service);
  if (has('API Gateway')) {
    const routes: Record<string, number> = {};
    for (const q of queries.filter((q) => q.metric.startsWith('route '))) {
      const v = value.get(q);
      if (v !== undefined) routes[q.metric.slice('route '.length)] = v;
    }
    const kind = resources.some((r) => r.ResourceType === 'AWS::ApiGatewayV2::Api') ? 'http' : 'rest';
    m.api = { kind, requests: of('apiRequests'), routes };
  }
  const logicalIds = new Map(resources.map((r) => [r.PhysicalResourceId, r.LogicalResourceId ?? '']));
  for (const q of queries.filter((q) => q.id === 'invocations')) {
    const duration = queries.find((d) => d.resource === q.resource && d.id === 'durationMs');
    m.functions.push({
      name: q.resource,
      role: roleOf(logicalIds.get(q.resource) ?? ''),
      invocations: value.get(q),
      durationMs: duration && value.get(duration),
    });
  }
  if (has('SQS'))
    m.sqs = {
      sent: of('messagesSent'),
      received: of('messagesReceived'),
      deleted: of('messagesDeleted'),
      emptyReceives: of('emptyReceives'),
    };
  if (has('DynamoDB'))
    m.dynamo = {
      readUnits: of('readUnits'),
      writeUnits: of('writeUnits'),
    };
  if (has('CloudFront')) m.cloudFront = { requests: of('edgeRequests'), bytes: of('edgeBytes') };
  for (const service of MEASURED_SERVICES) {
    if (!has(service)) m.missing[service] = 'not in the stack';
    else if (queries.every((q) => q.service !== service || value.get(q) === undefined))
      m.missing[service] = 'no datapoints';
  }
  if (MEASURED_SERVICES.every((s) => m.missing[s]))
    throw new CommandFailure(
      `No datapoints for stack ${stackName}'s resources over ${windowText(window)}: ` +
        'widen the window (--hours, --since) or send it traffic first (npm run load -- smoke --target <target>).',
    );
  return m;
}
