/**
 * `npm run cost -- --from-cloudwatch`: the bill a deployed stack actually ran. Its resources come
 * from CloudFormation (DescribeStackResources), their standard metrics over a window from CloudWatch
 * (GetMetricData); the window's usage is projected to a month and priced with the price sheet the
 * model uses (config/aws-prices.ts). Beside it, the profile that best fits the measured mix, and its estimate.
 * The clients are injected (`send` only): the tests give recorded answers in the SDK's own shapes.
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
import { ROUTES } from '../../config/app-config';
import { CommandFailure } from '../../config/errors';
import { quantity } from './format';
import { type Bill, type MonthlyUsage, priceUsage } from './model';
import {
  DAYS_PER_MONTH,
  resultsRequestsPerViewer,
  SECONDS_PER_MONTH,
  type TrafficProfile,
} from '../usage/traffic-profile';
import { PRICES, type PriceId } from '../../config/aws-prices';
import {
  bytesPerUnit,
  MB_PER_GB,
  METERED_METRICS,
  METERED_SERVICES,
  type MeteredMetric,
  type MeteredMetricId,
  type MeteredResource,
  type MeteredService,
  MS_PER_SECOND,
  PRICED_USAGE,
  priceFor,
  pricesOf,
  type Queue,
  type TermOf,
} from '../../config/priced-metrics';
import { PROFILE_FIELDS, PROFILES, validateProfile } from '../usage/profiles';
import type { StackConfig } from './stack-config';
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

/** Each bill line the metrics price, and the service whose metrics give it: the table's lines. */
export const MEASURED_LINES: Partial<Record<PriceId, MeasuredService>> = Object.fromEntries(
  PRICED_USAGE.flatMap((line) => pricesOf(line.price).map((id) => [id, line.service])),
);

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

const total = (values: (number | undefined)[]): number | undefined =>
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
const queueOf = (logicalId: string): Queue =>
  /DeadLetterQueue/.test(logicalId) ? 'the dead-letter queue' : 'the vote queue';
/** Whether a metric of a resource counts: any resource's, but a queue's where the table reads one queue's. */
function readsQueue(id: MeteredMetricId, logicalId: string): boolean {
  const of = READ_OF.get(id);
  return METERED_METRICS[id].resource !== 'queue' || of === 'each queue' || of === queueOf(logicalId);
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

/** The memory and architecture a function runs at: as the stack configures its role. */
function configOf(fn: MeasuredFunction, stack: StackConfig): { memoryMb: number; architecture: 'arm64' | 'x86_64' } {
  // CDK's helper functions (custom resources, the site's edge router) run at Lambda's default 128 MB.
  return fn.role ? stack.functions[fn.role] : { memoryMb: 128, architecture: 'x86_64' };
}

/** Lambda's consumer batches: a receive and a batch delete each, where its invocations were measured. */
const consumerInvocations = (m: Measurement) =>
  total(m.functions.filter((f) => f.role === 'countVotes').map((f) => f.invocations));

/** A function's figure of each function metric. */
const FUNCTION_FIGURES: Partial<Record<MeteredMetricId, (f: MeasuredFunction) => number | undefined>> = {
  invocations: (f) => f.invocations,
  durationMs: (f) => f.durationMs,
};
/** The window's figure of each other metric, as the measurement sums it over the resources the table names. */
const FIGURES: Partial<Record<MeteredMetricId, (m: Measurement) => number | undefined>> = {
  apiRequests: (m) => m.api?.requests,
  messagesSent: (m) => m.sqs?.sent,
  messagesReceived: (m) => m.sqs?.received,
  messagesDeleted: (m) => m.sqs?.deleted,
  emptyReceives: (m) => m.sqs?.emptyReceives,
  readUnits: (m) => m.dynamo?.readUnits,
  writeUnits: (m) => m.dynamo?.writeUnits,
  edgeRequests: (m) => m.cloudFront?.requests,
  edgeBytes: (m) => m.cloudFront?.bytes,
};
const figure = (metric: MeteredMetricId, m: Measurement): number | undefined => {
  const read = FIGURES[metric];
  if (!read) throw new Error(`The measurement holds no ${metric} but each function's`);
  return read(m);
};

/** Whether a term's metric measured anything to count: else its fallback counts (an upper bound). */
const counted = (n: number | undefined) => n !== undefined && n > 0;

/**
 * The window's usage of each priced line, made from the table of priced metrics (config/priced-metrics.ts)
 * as the stack's cost dashboard is, each resource's part times `scale` as it is added (a month's factor):
 * GB-seconds at the memory and architecture the stack gives each function's role. Unmeasured is 0.
 */
export function meteredUsage(m: Measurement, stack: StackConfig, scale = 1): Map<PriceId, number> {
  const usage = new Map<PriceId, number>();
  const add = (id: PriceId, n: number) => usage.set(id, (usage.get(id) ?? 0) + n);
  const apiKind = m.api?.kind ?? stack.apiKind;
  for (const line of PRICED_USAGE) {
    for (const term of line.terms) {
      if (term.of === 'each function') {
        const read = FUNCTION_FIGURES[term.metric]!;
        for (const fn of m.functions) {
          const n = read(fn) ?? 0;
          const config = configOf(fn, stack);
          if (term.atMemory)
            add(priceFor(line.price, config.architecture), (n / MS_PER_SECOND) * (config.memoryMb / MB_PER_GB) * scale);
          else add(priceFor(line.price, apiKind), n * scale);
        }
        continue;
      }
      const id = priceFor(line.price, apiKind);
      const n = term.of === 'the consumer' ? consumerInvocations(m) : figure(term.metric, m);
      if (term.orElse && !counted(n)) {
        for (const other of term.orElse.metrics) add(id, (figure(other, m) ?? 0) * scale);
        continue;
      }
      const units = (n ?? 0) * scale * (term.times ?? 1);
      add(id, term.inBytes ? units / bytesPerUnit(id) : units);
    }
  }
  return usage;
}

/** How the window's queue requests were counted. */
export function sqsCounted(m: Measurement): string {
  const { sent, received, deleted, emptyReceives } = m.sqs ?? {};
  if ([sent, received, deleted, emptyReceives].every((v) => v === undefined)) return 'no datapoints';
  return counted(consumerInvocations(m))
    ? 'a send per message, a receive and a delete per consumer batch, and the empty receives'
    : 'a request per message sent, received and deleted, and the empty receives (an upper bound: batches make fewer)';
}

/** The window's usage projected to a month, with zeros where nothing was measured, and the factor. */
export function measuredMonth(m: Measurement, stack: StackConfig): { usage: MonthlyUsage; factor: number } {
  const factor = SECONDS_PER_MONTH / (windowHours(m.window) * 3600);
  const metered = meteredUsage(m, stack, factor);
  const priced = (id: PriceId) => metered.get(id) ?? 0;
  // Lambda's requests, function by function (the profile is fitted to them), as the table counts them.
  const requests = FUNCTION_FIGURES[PRICED_USAGE.find((l) => l.price === 'lambdaRequests')!.terms[0].metric]!;
  const invocations = Object.fromEntries(FUNCTION_ROLES.map((r) => [r, 0])) as Record<FunctionRole, number>;
  let otherInvocations = 0;
  for (const fn of m.functions) {
    if (fn.role) invocations[fn.role] += (requests(fn) ?? 0) * factor;
    else otherInvocations += (requests(fn) ?? 0) * factor;
  }
  // CDK's helpers are billed as Lambda requests too: counted with the consumer's (the bill sums them all).
  invocations.countVotes += otherInvocations;
  const role = (r: FunctionRole) => invocations[r];
  const zero = 0;
  return {
    factor,
    usage: {
      polls: role('createPoll'),
      votes: role('castVote'),
      pageLoads: role('getPoll') + role('createPoll'),
      resultsRequests: role('getResults'),
      preflights: zero,
      apiRequests: priced((m.api?.kind ?? stack.apiKind) === 'http' ? 'httpApiRequests' : 'restApiRequests'),
      functionUrlRequests: zero,
      clientRequests: zero,
      invocations,
      // Not read: the Duration metric is what the window ran.
      coldStartShares: Object.fromEntries(FUNCTION_ROLES.map((r) => [r, 0])) as Record<FunctionRole, number>,
      gbSeconds: { arm64: priced('lambdaArmGbSeconds'), x86_64: priced('lambdaX86GbSeconds') },
      sqsRequests: priced('sqsFifoRequests'),
      writeUnits: priced('dynamoWriteUnits'),
      readUnits: priced('dynamoReadUnits'),
      storageGb: zero,
      logsGb: zero,
      logsStoredGb: zero,
      xrayTraces: zero,
      cloudFrontRequests: priced('cloudFrontRequests'),
      cloudFrontFunctionInvocations: zero,
      cloudFrontGb: priced('cloudFrontTransfer'),
      cloudFrontOriginGb: zero,
      s3Gets: zero,
      apiTransferGb: zero,
      webSocketMessages: zero,
      webSocketConnectionMinutes: zero,
      alarms: zero,
      dashboards: zero,
      customMetrics: zero,
      managedInstanceHours: zero,
    },
  };
}

/** Why a measured line is not measured, or undefined when it is. */
function notMeasured(priceId: PriceId, m: Measurement): string | undefined {
  const service = MEASURED_LINES[priceId];
  if (!service) return 'not measured (not read from CloudWatch)';
  const missing = m.missing[service];
  if (missing) return `not measured (${missing})`;
  const lambdaDuration = m.functions.some((f) => f.durationMs !== undefined);
  if ((priceId === 'lambdaArmGbSeconds' || priceId === 'lambdaX86GbSeconds') && !lambdaDuration)
    return 'not measured (no Duration datapoints)';
  const field = {
    dynamoReadUnits: m.dynamo?.readUnits,
    dynamoWriteUnits: m.dynamo?.writeUnits,
    cloudFrontRequests: m.cloudFront?.requests,
    cloudFrontTransfer: m.cloudFront?.bytes,
    httpApiRequests: m.api?.requests,
    restApiRequests: m.api?.requests,
  } as Partial<Record<PriceId, number | undefined>>;
  if (priceId in field && field[priceId] === undefined) return 'not measured (no datapoints)';
  return undefined;
}

/** One line of the measured bill beside the fitted estimate's. */
export interface MeasuredLine {
  priceId: PriceId;
  service: string;
  item: string;
  unit: string;
  unitPrice: string;
  /** Absent: not measured, and why. */
  measured?: { windowUsage: number; monthUsage: number; usd: number };
  notMeasured?: string;
  estimate: { usage: number; usd: number };
  /** Measured minus estimated, where measured. */
  differenceUsd?: number;
}

/** The measured month beside the fitted estimate, as the report carries it (report.json's `cloudWatch`). */
export interface CloudWatchBill {
  label: string;
  stackName: string;
  target: string;
  window: { start: string; end: string; hours: number };
  measurement: Measurement;
  sqsCounted: string;
  lines: MeasuredLine[];
  /** The measured lines' total, and the estimate's of the same lines (like for like). */
  measuredUsd: number;
  estimatedUsdOfMeasuredLines: number;
  profile: TrafficProfile;
  profileFile?: string;
  /** The command that prints the fitted profile's estimate again. */
  reproduce?: string;
}

/** The measured bill, line by line beside the estimate's bill (its lines in the price sheet's order). */
export function measuredLines(m: Measurement, stack: StackConfig, estimate: Bill): MeasuredLine[] {
  const { usage, factor } = measuredMonth(m, stack);
  const priced = priceUsage(usage, { ...stack, apiKind: m.api?.kind ?? stack.apiKind });
  const apiLine: PriceId = (m.api?.kind ?? stack.apiKind) === 'http' ? 'httpApiRequests' : 'restApiRequests';
  const ids = (Object.keys(PRICES) as PriceId[]).filter(
    (id) =>
      estimate.lines.some((l) => l.priceId === id) ||
      (MEASURED_LINES[id] && id !== (apiLine === 'httpApiRequests' ? 'restApiRequests' : 'httpApiRequests')),
  );
  return ids.map((priceId) => {
    const price = PRICES[priceId];
    const est = estimate.lines.find((l) => l.priceId === priceId);
    const line = priced.lines.find((l) => l.priceId === priceId);
    const why = notMeasured(priceId, m);
    const monthUsage = line?.usage ?? 0;
    const usd = line?.usd ?? 0;
    const estimateUsd = est?.usd ?? 0;
    return {
      priceId,
      service: price.service,
      item: price.item,
      unit: price.unit.replace(/^[\d.]+[kM]? /, ''),
      unitPrice: `$${price.tiers[0].price.toPrecision(3).replace(/\.?0+$/, '')} per ${price.unit}`,
      ...(why
        ? { notMeasured: why }
        : { measured: { windowUsage: monthUsage / factor, monthUsage, usd }, differenceUsd: usd - estimateUsd }),
      estimate: { usage: est?.usage ?? 0, usd: estimateUsd },
    };
  });
}

const clamp = (field: keyof typeof PROFILE_FIELDS, value: number) =>
  Math.min(PROFILE_FIELDS[field].max, Math.max(PROFILE_FIELDS[field].min, value));

/**
 * The profile whose month best fits the measured mix: polls from creates, votes from votes cast,
 * results viewers from results requests (at the seed's watch and refresh), visits from poll reads,
 * the page's bytes from CloudFront's; timing (windows, busiest hour and minute) stays the seed's.
 */
export function fitProfile(m: Measurement, stack: StackConfig, name = 'measured'): TrafficProfile {
  const { usage, factor } = measuredMonth(m, stack);
  const seed = PROFILES.seed;
  const creates = usage.invocations.createPoll;
  const votes = usage.invocations.castVote || (m.sqs?.sent ?? 0) * factor;
  const reads = usage.invocations.getPoll;
  const results = usage.invocations.getResults;
  // Votes or reads with no create in the window: at least one poll they went to.
  const polls = creates > 0 ? creates : votes + reads + results > 0 ? factor : 0;
  const perPoll = (n: number) => (polls > 0 ? n / polls : 0);
  const votesPerPoll = clamp('votesPerPoll', perPoll(votes));
  const viewers = clamp('resultsViewersPerPoll', perPoll(results) / resultsRequestsPerViewer(seed));
  const watchersWhoDoNotVote = Math.max(0, viewers - votesPerPoll) * polls;
  const pageLoadsPerVoter =
    votes > 0 ? clamp('pageLoadsPerVoter', (reads - watchersWhoDoNotVote) / votes) : seed.pageLoadsPerVoter;
  const pageLoads = votes * pageLoadsPerVoter + watchersWhoDoNotVote + polls;
  const cloudFrontBytes = (m.cloudFront?.bytes ?? 0) * factor;
  const pageBytes =
    cloudFrontBytes > 0 && pageLoads > 0 && stack.results !== 'cloudfront'
      ? clamp('pageBytes', cloudFrontBytes / pageLoads)
      : seed.pageBytes;
  return validateProfile({
    name,
    description:
      `Fitted to what CloudWatch measured for stack ${m.stackName} over ${windowText(m.window)}, ` +
      "projected to a month; its timing (windows, busiest hour and minute, refresh) is the seed's.",
    pollsPerDay: clamp('pollsPerDay', polls / DAYS_PER_MONTH),
    votesPerPoll,
    resultsViewersPerPoll: viewers,
    pageLoadsPerVoter,
    pageBytes,
  });
}
