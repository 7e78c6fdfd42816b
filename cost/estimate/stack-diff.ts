/**
 * What changed between two synthesized templates of this app, in the stack's own terms: resources added,
 * removed or replaced as `cdk diff` says it ([+] [-] [~], "requires replacement"), the IAM it broadens, and
 * each setting the bill reads that moved (`GetResults661AABA0 MemorySize 256 → 1024`), with the bill lines it
 * drives. Pure: give it the two templates and their readings (stack-config.ts readStack).
 */
import { FUNCTION_METADATA } from '../../config/functions';
import { getAttTarget, refTarget } from '../../template/refs';
import type { PriceId } from '../../pricing/price-lines';
import type { FunctionRole } from '../usage/unit-costs';
import type { FunctionConfig, StackConfig, StackReading } from './stack-config';

// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is JSON of any shape
type Json = any;
type Resources = Record<string, Json>;

/** A property of a resource that changed, with what CloudFormation does about it. */
export interface PropertyChange {
  name: string;
  /** Changing it makes CloudFormation create a new resource and delete the old one. */
  requiresReplacement: boolean;
  from?: Json;
  to?: Json;
}

/** One resource added, removed or updated, in cdk diff's symbols and words. */
export interface ResourceChange {
  symbol: '+' | '-' | '~';
  type: string;
  logicalId: string;
  /** cdk diff's word for what happens to it: `replace` (a new one in its place), `destroy` (gone with its data). */
  impact?: 'replace' | 'destroy';
  /** It holds data (a table, a queue, a bucket, a log group): replacing or removing it loses what it holds. */
  stateful: boolean;
  properties: PropertyChange[];
  /** A stateful resource removed while one of its type is added: its logical id changed, a replacement. */
  replacedBy?: string;
}

/** Types whose resources hold data. */
const STATEFUL = new Set(['AWS::DynamoDB::Table', 'AWS::SQS::Queue', 'AWS::S3::Bucket', 'AWS::Logs::LogGroup']);

/** Properties whose change replaces the resource (CloudFormation's "Update requires: Replacement"). */
const REPLACING: Record<string, string[]> = {
  'AWS::DynamoDB::Table': ['TableName', 'KeySchema', 'LocalSecondaryIndexes'],
  'AWS::SQS::Queue': ['QueueName', 'FifoQueue'],
  'AWS::S3::Bucket': ['BucketName'],
  'AWS::Logs::LogGroup': ['LogGroupName'],
  'AWS::Lambda::Function': ['FunctionName'],
  'AWS::Lambda::Url': ['TargetFunctionArn', 'Qualifier'],
  'AWS::Lambda::EventSourceMapping': ['EventSourceArn', 'StartingPosition'],
  'AWS::IAM::Role': ['RoleName', 'Path'],
  'AWS::ApiGatewayV2::Api': ['ProtocolType'],
  'AWS::CloudFront::Function': ['Name'],
};

const same = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b);

/** What the CDK records of its own version and constructs: cdk diff leaves it out, a deploy changes nothing by it. */
const CDK_METADATA = 'AWS::CDK::Metadata';

/** The resources added, removed and updated from `base` to `head`, as cdk diff lists them. */
export function resourceChanges(base: Resources, head: Resources): ResourceChange[] {
  const changes: ResourceChange[] = [];
  for (const [id, r] of Object.entries(head)) {
    if (r.Type === CDK_METADATA) continue;
    const before = base[id];
    if (!before) {
      changes.push({ symbol: '+', type: r.Type, logicalId: id, stateful: STATEFUL.has(r.Type), properties: [] });
      continue;
    }
    if (before.Type !== r.Type) {
      changes.push({
        symbol: '~',
        type: r.Type,
        logicalId: id,
        impact: 'replace',
        stateful: STATEFUL.has(r.Type) || STATEFUL.has(before.Type),
        properties: [{ name: 'Type', requiresReplacement: true, from: before.Type, to: r.Type }],
      });
      continue;
    }
    const names = [...new Set([...Object.keys(before.Properties ?? {}), ...Object.keys(r.Properties ?? {})])];
    const properties = names
      .filter((name) => !same(before.Properties?.[name], r.Properties?.[name]))
      .map((name) => ({
        name,
        requiresReplacement: (REPLACING[r.Type] ?? []).includes(name),
        from: before.Properties?.[name],
        to: r.Properties?.[name],
      }));
    if (properties.length === 0) continue;
    changes.push({
      symbol: '~',
      type: r.Type,
      logicalId: id,
      ...(properties.some((p) => p.requiresReplacement) ? { impact: 'replace' as const } : {}),
      stateful: STATEFUL.has(r.Type),
      properties,
    });
  }
  const added = changes.filter((c) => c.symbol === '+');
  for (const [id, r] of Object.entries(base)) {
    if (head[id] || r.Type === CDK_METADATA) continue;
    const stateful = STATEFUL.has(r.Type);
    const successor = stateful ? added.find((a) => a.type === r.Type)?.logicalId : undefined;
    changes.push({
      symbol: '-',
      type: r.Type,
      logicalId: id,
      impact: 'destroy',
      stateful,
      properties: [],
      ...(successor ? { replacedBy: successor } : {}),
    });
  }
  return changes;
}

/** An IAM grant the head makes that the base did not: a policy statement, a managed policy, a public invoke. */
export interface IamBroadening {
  logicalId: string;
  type: string;
  /** `Allow dynamodb:Scan on PollTableBC1AF04C`, as a reviewer reads it. */
  grant: string;
  /** A wildcard action or resource, or any principal. */
  wildcard: boolean;
}

/** A value of a policy as a reviewer reads it: a resource by its logical id, a joined ARN with its parts. */
function shown(value: Json): string {
  if (Array.isArray(value)) return value.map(shown).join(', ');
  if (typeof value === 'string') return value;
  const id = refTarget(value) ?? getAttTarget(value);
  if (id) return id;
  const join = value?.['Fn::Join'];
  if (Array.isArray(join?.[1])) return join[1].map(shown).join(join[0]);
  return JSON.stringify(value);
}

/** A value as the diff compares it: a condition's keys sorted, so that only what it says counts. */
const canonical = (value: Json): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v,
  );

/** A list or one value, as a list. */
const listOf = (value: Json): Json[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/**
 * Each Allow a resource grants, one per action and resource (`Allow dynamodb:PutItem on PollTable if …`): so a
 * statement reordered or written as a list grants what it did, one narrowed grants nothing new, and one that
 * loses its condition or gains an action is seen; its managed policies and a permission to invoke besides.
 */
function grantsOf(r: Json): string[] {
  const p = r.Properties ?? {};
  const documents = [p.PolicyDocument, ...(p.Policies ?? []).map((policy: Json) => policy.PolicyDocument)];
  const statements = documents.flatMap((d) => listOf(d?.Statement)).filter((s: Json) => s.Effect === 'Allow');
  const grants = statements.flatMap((s: Json) => {
    const actions = s.Action === undefined ? listOf(s.NotAction).map((a) => `all but ${shown(a)}`) : listOf(s.Action);
    const resources =
      s.Resource === undefined ? listOf(s.NotResource).map((r) => `all but ${shown(r)}`) : listOf(s.Resource);
    const where = [
      ...(s.Principal === undefined ? [] : [` for ${canonical(s.Principal)}`]),
      ...(s.Condition === undefined ? [] : [` if ${canonical(s.Condition)}`]),
    ].join('');
    return actions.flatMap((action) =>
      (resources.length > 0 ? resources : ['*']).map(
        (resource) => `Allow ${shown(action)} on ${shown(resource)}${where}`,
      ),
    );
  });
  return [
    ...grants,
    ...(p.ManagedPolicyArns ?? []).map((arn: Json) => `managed policy ${shown(arn)}`),
    ...(r.Type === 'AWS::Lambda::Permission'
      ? [`Allow ${shown(p.Principal)} to ${shown(p.Action)} on ${shown(p.FunctionName)}`]
      : []),
    ...(r.Type === 'AWS::Lambda::Url' && p.AuthType === 'NONE'
      ? [`public URL (AuthType NONE) of ${shown(p.TargetFunctionArn)}`]
      : []),
  ];
}

/**
 * The grants in `head` found nowhere in `base` (moving a statement between policies broadens nothing), an
 * action each, put back together by resource and condition to be read.
 */
export function iamBroadening(base: Resources, head: Resources): IamBroadening[] {
  const before = new Set(Object.values(base).flatMap(grantsOf));
  return Object.entries(head).flatMap(([logicalId, r]) => {
    const added = grantsOf(r).filter((grant) => !before.has(grant));
    // "Allow a on X if C" and "Allow b on X if C" read as "Allow a, b on X if C".
    const byTarget = new Map<string, string[]>();
    for (const grant of added) {
      const [, action, target] = /^Allow (\S+) (on .*)$/.exec(grant) ?? [undefined, undefined, grant];
      byTarget.set(target!, [...(byTarget.get(target!) ?? []), ...(action ? [action] : [])]);
    }
    return [...byTarget].map(([target, actions]) => {
      const grant = actions.length > 0 ? `Allow ${actions.sort().join(', ')} ${target}` : target;
      return { logicalId, type: r.Type, grant, wildcard: /(^|[\s:,])\*(,|\s|$)|public URL/.test(grant) };
    });
  });
}

/** A setting the bill reads that moved, named as the template says it, with the lines it drives. */
export interface SettingChange {
  /** `GetResults661AABA0 MemorySize 256 → 1024`. */
  text: string;
  /** The function it is of, where it is one's. */
  role?: FunctionRole;
  /** The bill lines it moves (none: a ceiling, no monthly cost); undefined: it may move any (a design, the API). */
  lines?: PriceId[];
}

const GB_SECONDS: PriceId[] = ['lambdaArmGbSeconds', 'lambdaX86GbSeconds'];
const LOGS: PriceId[] = ['logsIngestion', 'logsStorage'];

/** Each function setting the bill reads: the template's property that holds it, and the lines it moves. */
const FUNCTION_SETTINGS: Record<keyof FunctionConfig, { property: string; lines: PriceId[] }> = {
  memoryMb: { property: 'MemorySize', lines: GB_SECONDS },
  architecture: { property: 'Architectures', lines: GB_SECONDS },
  logFormat: { property: 'LoggingConfig.LogFormat', lines: LOGS },
  systemLogLevel: { property: 'LoggingConfig.SystemLogLevel', lines: LOGS },
  applicationLogLevel: { property: 'LoggingConfig.ApplicationLogLevel', lines: LOGS },
  tracing: { property: 'TracingConfig.Mode Active', lines: ['xrayTraces'] },
  logRetentionDays: { property: "its log group's RetentionInDays", lines: ['logsStorage'] },
  customMetrics: { property: `${FUNCTION_METADATA.metrics} metadata (count)`, lines: ['customMetrics', ...LOGS] },
};

/** The stack's other settings the bill reads, as the template says them. */
const STACK_SETTINGS: Partial<Record<keyof StackConfig, string>> = {
  apiKind: 'the API (AWS::ApiGatewayV2::Api http, AWS::ApiGateway::RestApi rest)',
  results: 'the results design',
  corsPreflight: "the API's CORS preflight",
  corsMaxAgeSeconds: "the API's CORS MaxAge",
  resultsConcurrency: "the results function's ReservedConcurrentExecutions",
  apiThroughCloudFront: "the distribution's API behaviour",
  pollReadCacheSeconds: "the poll behaviour's cache policy MaxTTL",
  siteRouter: "the distribution's viewer-request function",
  alarms: 'AWS::CloudWatch::Alarm count',
  dashboards: 'AWS::CloudWatch::Dashboard count',
  region: 'the region the stack records',
};

const CONSUMER_SETTINGS: Record<keyof StackConfig['consumer'], { property: string; lines?: PriceId[] }> = {
  batchSize: { property: 'BatchSize' },
  maxBatchingWindowSeconds: { property: 'MaximumBatchingWindowInSeconds' },
};

const VOTE_PATH_SETTINGS: Record<keyof StackConfig['votePath'], { words: string; lines?: PriceId[] }> = {
  groupsPerPoll: { words: "the create function's message groups per poll" },
  counterShards: { words: "the create function's counter shards per poll" },
  // Ceilings: the busiest second's verdict reads them, the month's bill does not.
  stageRateLimit: { words: "the API stage's ThrottlingRateLimit", lines: [] },
  stageBurstLimit: { words: "the API stage's ThrottlingBurstLimit", lines: [] },
};

const text = (value: unknown) => (value === undefined ? '(none)' : String(value));

/** Every setting the bill reads that differs from `base` to `head`, named as the head's template names it. */
export function settingChanges(base: StackReading, head: StackReading, headResources: Resources): SettingChange[] {
  const changes: SettingChange[] = [];
  const a = base.stack;
  const b = head.stack;
  for (const role of Object.keys(b.functions) as FunctionRole[]) {
    const id = head.functionIds[role] ?? base.functionIds[role] ?? role;
    for (const [field, setting] of Object.entries(FUNCTION_SETTINGS) as Array<
      [keyof FunctionConfig, (typeof FUNCTION_SETTINGS)[keyof FunctionConfig]]
    >) {
      const from = a.functions[role][field];
      const to = b.functions[role][field];
      if (from !== to)
        changes.push({ text: `${id} ${setting.property} ${text(from)} → ${text(to)}`, role, lines: setting.lines });
    }
  }
  const mapping = Object.entries(headResources).find(([, r]) => r.Type === 'AWS::Lambda::EventSourceMapping')?.[0];
  for (const [field, setting] of Object.entries(CONSUMER_SETTINGS) as Array<
    [keyof StackConfig['consumer'], { property: string }]
  >)
    if (a.consumer[field] !== b.consumer[field])
      changes.push({
        text: `${mapping ?? 'the vote consumer'} ${setting.property} ${a.consumer[field]} → ${b.consumer[field]}`,
      });
  for (const [field, { words, lines }] of Object.entries(VOTE_PATH_SETTINGS) as Array<
    [keyof StackConfig['votePath'], (typeof VOTE_PATH_SETTINGS)[keyof StackConfig['votePath']]]
  >)
    if (a.votePath[field] !== b.votePath[field])
      changes.push({ text: `${words} ${a.votePath[field]} → ${b.votePath[field]}`, lines });
  for (const [field, words] of Object.entries(STACK_SETTINGS) as Array<[keyof StackConfig, string]>)
    if (!same(a[field], b[field]))
      changes.push({
        text: `${words} ${text(a[field])} → ${text(b[field])}`,
        // A ceiling: the busiest second's verdict reads it, the month's bill does not.
        ...(field === 'resultsConcurrency' ? { lines: [] } : {}),
      });
  return changes;
}
