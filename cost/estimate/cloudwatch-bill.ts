/**
 * `npm run cost -- --from-cloudwatch`, its bill: what the window measured (cloudwatch.ts) becomes each
 * priced line's usage as the table of priced metrics says (config/priced-metrics.ts, which the stack's cost
 * dashboard is made from too), projected to a month and priced with the price book the model uses
 * (the region's price book); beside it, the profile that best fits the measured mix, and its estimate.
 */
import { bytesToUnits, PRICE_IDS, type PriceId } from '../../pricing/price-lines';
import {
  BILLED_USAGE,
  type BilledQuantity,
  type BilledUsage,
  MB_PER_GB,
  METERED_METRICS,
  type MeteredMetricId,
  MS_PER_SECOND,
  PRICED_USAGE,
  type UsageTerm,
} from '../../config/priced-metrics';
import {
  type Measurement,
  type MeasuredFunction,
  type MeasuredService,
  total,
  windowHours,
  windowText,
} from './cloudwatch';
import { type Bill, type BillOptions, priceText, priceUsage } from './bill';
import type { MonthlyUsage } from './monthly-usage';
import type { StackConfig } from './stack-config';
import { PROFILE_FIELDS, PROFILES, validateProfile } from '../usage/profiles';
import {
  DAYS_PER_MONTH,
  resultsRequestsPerViewer,
  SECONDS_PER_MONTH,
  type TrafficProfile,
} from '../usage/traffic-profile';
import { FUNCTION_ROLES, type FunctionRole } from '../usage/unit-costs';
import { priceFor, pricesOf, variantsOf } from '../../pricing/priced-by';

/** Each bill line the metrics price, and the service whose metrics give it: the table's lines. */
const MEASURED_LINES: Partial<Record<PriceId, MeasuredService>> = Object.fromEntries(
  PRICED_USAGE.flatMap((line) => pricesOf(line.price).map((id) => [id, line.service])),
);

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
      if (term.of === 'eachFunction') {
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
      const n = term.of === 'consumer' ? consumerInvocations(m) : figure(term.metric, m);
      if (term.orElse && !counted(n)) {
        for (const other of term.orElse.metrics) add(id, (figure(other, m) ?? 0) * scale);
        continue;
      }
      const units = (n ?? 0) * scale * (term.times ?? 1);
      add(id, term.inBytes ? bytesToUnits(units, id) : units);
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

/**
 * A billed quantity of the measured month, from its lines' usage (the usage map, config/priced-metrics.ts):
 * by variant where the map bills each variant, else the line of the stack's variant; 0 where unmeasured.
 */
function measuredQuantity(row: BilledUsage, priced: (id: PriceId) => number, apiKind: string) {
  if (!row.each) return priced(priceFor(row.price, apiKind));
  return Object.fromEntries(variantsOf(row.price).map(([variant, id]) => [variant, priced(id)]));
}

/** The window's usage projected to a month, with zeros where nothing was measured, and the factor. */
function measuredMonth(m: Measurement, stack: StackConfig): { usage: MonthlyUsage; factor: number } {
  const factor = SECONDS_PER_MONTH / (windowHours(m.window) * 3600);
  const metered = meteredUsage(m, stack, factor);
  const apiKind = m.api?.kind ?? stack.apiKind;
  const billed = Object.fromEntries(
    BILLED_USAGE.map((row) => [row.usage, measuredQuantity(row, (id) => metered.get(id) ?? 0, apiKind)]),
  ) as Pick<MonthlyUsage, BilledQuantity>;
  // Lambda's requests, function by function (the profile is fitted to them), as the table counts them.
  const requests = FUNCTION_FIGURES[PRICED_USAGE.find((l) => l.usage === 'invocations')!.terms[0].metric]!;
  const invocations = Object.fromEntries(FUNCTION_ROLES.map((r) => [r, 0])) as Record<FunctionRole, number>;
  let otherInvocations = 0;
  for (const fn of m.functions) {
    if (fn.role) invocations[fn.role] += (requests(fn) ?? 0) * factor;
    else otherInvocations += (requests(fn) ?? 0) * factor;
  }
  // CDK's helpers are billed as Lambda requests too: counted with the consumer's (the bill sums them all).
  invocations.countVotes += otherInvocations;
  const role = (r: FunctionRole) => invocations[r];
  return {
    factor,
    usage: {
      ...billed,
      polls: role('createPoll'),
      votes: role('castVote'),
      pageLoads: role('getPoll') + role('createPoll'),
      resultsRequests: role('getResults'),
      preflights: 0,
      functionUrlRequests: 0,
      clientRequests: 0,
      invocations,
      // Not read: the Duration metric is what the window ran.
      coldStartShares: Object.fromEntries(FUNCTION_ROLES.map((r) => [r, 0])) as Record<FunctionRole, number>,
    },
  };
}

/** Whether any resource gave a term's metric (or its fallback's) a datapoint. */
function termMeasured(term: UsageTerm, m: Measurement): boolean {
  const metrics = [term.metric, ...(term.orElse?.metrics ?? [])];
  return metrics.some((metric) =>
    FUNCTION_FIGURES[metric] && (term.of === 'eachFunction' || term.of === 'consumer')
      ? m.functions
          .filter((f) => term.of === 'eachFunction' || f.role === 'countVotes')
          .some((f) => FUNCTION_FIGURES[metric]!(f) !== undefined)
      : figure(metric, m) !== undefined,
  );
}

/** Why a measured line is not measured, or undefined when it is: its service's reason, or its metrics'. */
function notMeasured(priceId: PriceId, m: Measurement): string | undefined {
  const row = PRICED_USAGE.find((line) => pricesOf(line.price).includes(priceId));
  if (!row) return 'not measured (not read from CloudWatch)';
  const missing = m.missing[row.service];
  if (missing) return `not measured (${missing})`;
  if (row.terms.some((term) => termMeasured(term, m))) return undefined;
  const names = row.terms.map((term) => METERED_METRICS[term.metric].metricName).join(' or ');
  return `not measured (no ${names} datapoints)`;
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

/** The measured bill, line by line beside the estimate's bill (its lines in the price lines' order). */
export function measuredLines(
  m: Measurement,
  stack: StackConfig,
  estimate: Bill,
  options: BillOptions,
): MeasuredLine[] {
  const { usage, factor } = measuredMonth(m, stack);
  const priced = priceUsage(usage, { ...stack, apiKind: m.api?.kind ?? stack.apiKind }, options);
  const apiLine: PriceId = (m.api?.kind ?? stack.apiKind) === 'http' ? 'httpApiRequests' : 'restApiRequests';
  const ids = PRICE_IDS.filter(
    (id) =>
      estimate.lines.some((l) => l.priceId === id) ||
      (MEASURED_LINES[id] && id !== (apiLine === 'httpApiRequests' ? 'restApiRequests' : 'httpApiRequests')),
  );
  return ids.map((priceId) => {
    const price = options.book.prices[priceId];
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
      ...priceText(price),
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
