/**
 * The ways AWS can serve this app, each one you can deploy with the flags it names, priced from
 * its own template (cost/estimate/designs.json, kept equal to the stack by the tests; cdk.out/ for the
 * one you synthesized), plus WebSocket push as an estimate only: it is not built.
 */
import { DEFAULT_API_KIND } from '../../config/stack';
import { DEFAULT_RESULTS_DELIVERY, RESULTS_URL } from '../../config/results-delivery';
import { capacityOf, carriesInTime, type Capacity, type CapacityVerdict, type QuotaRaiseNeeded } from './capacity';
import { type CapacityContext, stageName } from './stages';
import { estimate } from './model';
import type { Bill, BillOptions } from './bill';
import type { UnitCosts } from '../usage/unit-costs';
import type { Peak } from '../usage/peaks';
import type { PriceBook } from '../../pricing/price-book';
import { bytesToUnits, type PriceId } from '../../pricing/price-lines';
import { listRate } from '../../pricing/tiers';
import type { TrafficProfile } from '../usage/traffic-profile';
import { QUOTAS } from '../../config/aws-quotas';
import type { StackConfig } from './stack-config';

export interface DesignSpec {
  id: string;
  name: string;
  /** The CDK context that deploys it (`-c key=value`); none for the default. */
  context: Record<string, string>;
}

/** Every deployable design, cheapest first for the seed profile. */
export const DEPLOYABLE_DESIGNS: readonly DesignSpec[] = [
  { id: 'function-url', name: 'results from a function URL', context: { results: 'function-url' } },
  { id: 'cloudfront', name: 'results cached at CloudFront', context: { results: 'cloudfront' } },
  { id: 'api', name: 'results via the HTTP API (textbook)', context: {} },
  { id: 'api-rest', name: 'all through a REST API', context: { apiKind: 'rest' } },
];

/** The design a template is, by the two flags that tell them apart. */
export function designOf(stack: Pick<StackConfig, 'results' | 'apiKind'>): DesignSpec | undefined {
  return DEPLOYABLE_DESIGNS.find(
    (d) =>
      (d.context.results ?? DEFAULT_RESULTS_DELIVERY) === stack.results &&
      (d.context.apiKind ?? DEFAULT_API_KIND) === stack.apiKind,
  );
}

/**
 * `npm run deploy` rather than `npx cdk deploy`: it also writes cdk-outputs.json, which `npm run load`
 * and `npm run dlq` read.
 */
export const DEPLOY_SCRIPT = 'npm run deploy';

/** Where the stack billed comes from when no template was synthesized (nor given): the default design's own. */
export const DEFAULT_STACK_SOURCE =
  'cost/estimate/designs.json: the default design; npx cdk synth -c results=<design> to price the one you deploy';
/** The command that deploys a design: npm run deploy with its -c flags. */
export const deployCommand = (design: DesignSpec): string => {
  const flags = Object.entries(design.context)
    .map(([key, value]) => `-c ${key}=${value}`)
    .join(' ');
  return flags ? `${DEPLOY_SCRIPT} -- ${flags}` : DEPLOY_SCRIPT;
};

export interface PricedDesign {
  id: string;
  name: string;
  /** How to deploy it; undefined for an estimate of something not built. */
  deploy?: string;
  stack: StackConfig;
  bill: Bill;
}

/**
 * Prices every design for a profile. `stacks` holds each deployable design's template, read;
 * the WebSocket estimate is the HTTP API design with results pushed instead of polled.
 */
export function priceDesigns(
  profile: TrafficProfile,
  stacks: Record<string, StackConfig>,
  units: UnitCosts,
  options: BillOptions,
): PricedDesign[] {
  const deployable = DEPLOYABLE_DESIGNS.filter((d) => stacks[d.id]).map((d) => ({
    id: d.id,
    name: d.name,
    deploy: deployCommand(d),
    stack: stacks[d.id],
    bill: estimate(profile, stacks[d.id], units, options),
  }));
  const webSocket = stacks.api && { ...stacks.api, results: 'websocket' as const };
  const estimates = webSocket
    ? [
        {
          id: 'websocket',
          name: 'results pushed over WebSocket (estimate)',
          stack: webSocket,
          bill: estimate(profile, webSocket, units, options),
        },
      ]
    : [];
  return [...deployable, ...estimates].sort((a, b) => a.bill.totalUsd - b.bill.totalUsd);
}

/** An estimate of a design that is not built has no stages to check: it carries nothing. */
const NOT_BUILT: Omit<Capacity, 'sizedStack'> = {
  carries: false,
  bottleneck: 'notBuilt',
  carriesWith: null,
  stages: [],
  sizedStages: [],
  blockedBy: null,
  rampSeconds: 0,
  tightest: { id: 'notBuilt', name: stageName('notBuilt'), limitFrom: '', limit: 0, load: 0, unit: '', fix: 'none' },
};

/**
 * A design's verdict on a peak, for the design as deployed with its defaults (`deployed`: its own
 * template, whatever flags cdk.out/ was synthesized with). The report and its chart both ask here.
 */
export function designCapacity(
  design: PricedDesign,
  deployed: StackConfig | undefined,
  peak: Peak,
  units: UnitCosts,
  context: CapacityContext,
): Capacity {
  // A flat-rate plan, where it is what the bill prices, lifts CloudFront's per-distribution quota.
  const flatRatePlan = design.bill.cloudFront?.plan !== undefined;
  return design.deploy
    ? capacityOf(deployed ?? design.stack, peak, units, { ...context, flatRatePlan })
    : { ...NOT_BUILT, sizedStack: design.stack };
}

/** A priced design with its verdict on the peak (cost/estimate/capacity.ts). */
export type DesignWithCapacity = PricedDesign & { capacity: CapacityVerdict };

/** A table warmed up is the owner's setting (charged), not a quota AWS must grant. */
export const isWarmUp = (r: QuotaRaiseNeeded) => QUOTAS[r.quota].raise.how === 'setting';

/** A design cheaper than the recommendation after quota raises, which AWS may take days to grant (or refuse). */
export interface CheaperWithQuotaRaises {
  id: string;
  monthlyUsd: number;
  savingUsd: number;
  quotaRaises: QuotaRaiseNeeded[];
}

/**
 * The recommendation: the cheapest deployable design that carries the peak in time without a quota
 * raise (its flags allowed, in its deploy command); when every design that carries needs one, the
 * cheapest of those; when none carries, the cheapest deployable one, `carries: false`. Beside it,
 * the cheapest design that carries only after quota raises, when that one is cheaper. Designs come
 * cheapest first.
 */
export function recommend<T extends DesignWithCapacity>(
  designs: T[],
): { recommended: T & { carries: boolean }; cheaperWithQuotaRaises: CheaperWithQuotaRaises | null } {
  const deployable = designs.filter((d) => d.deploy);
  const carrying = deployable.filter((d) => carriesInTime(d.capacity));
  const raisesOf = (d: T) => d.capacity.carriesWith!.quotaRaises.filter((r) => !isWarmUp(r));
  const chosen = carrying.find((d) => raisesOf(d).length === 0) ?? carrying[0];
  if (!chosen) return { recommended: { ...deployable[0], carries: false }, cheaperWithQuotaRaises: null };
  const spec = DEPLOYABLE_DESIGNS.find((d) => d.id === chosen.id)!;
  const flags = chosen.capacity.carriesWith!.flags;
  const deploy = deployCommand({ ...spec, context: { ...spec.context, ...flags } });
  const recommended = { ...chosen, carries: true, deploy };
  const cheaper = carrying[0] !== chosen ? carrying[0] : undefined;
  return {
    recommended,
    cheaperWithQuotaRaises: cheaper
      ? {
          id: cheaper.id,
          monthlyUsd: cheaper.bill.totalUsd,
          savingUsd: chosen.bill.totalUsd - cheaper.bill.totalUsd,
          quotaRaises: raisesOf(cheaper),
        }
      : null,
  };
}

/**
 * The AWS floor: every request a browser sends billed at the cheapest price AWS answers an HTTP
 * request for (a Lambda request, as through a function URL), with no free tier and nothing else.
 * How close a design comes to it says how much is left to save.
 */
export function awsFloor(bill: Bill, book: PriceBook): { requests: number; usd: number; pricePerMillion: number } {
  const pricePerMillion = listRate(book.prices.lambdaRequests) * 1e6;
  return {
    requests: bill.usage.clientRequests,
    usd: (bill.usage.clientRequests / 1e6) * pricePerMillion,
    pricePerMillion,
  };
}

/** The most a flood of the results function URL can run up, with its concurrency capped. */
export interface FloodCeiling {
  concurrency: number;
  requestsPerSecond: number;
  usdPerHour: number;
}

/**
 * A function URL has no API Gateway throttling: its cap is the function's reserved concurrency,
 * and Lambda serves about RESULTS_URL.requestsPerSecondPerConcurrency requests a second per
 * instance; beyond that callers get 429. Priced at the highest tier of each price, every request
 * missing the function's cache (one read each) and answered with a full results body: an upper bound.
 */
export function floodCeiling(
  stack: StackConfig,
  profile: TrafficProfile,
  units: UnitCosts,
  book: PriceBook,
): FloodCeiling | undefined {
  if (stack.results !== 'function-url' || stack.resultsConcurrency === undefined) return undefined;
  const perUnit = (id: PriceId) => listRate(book.prices[id]);
  const fn = stack.functions.getResults;
  const gbSeconds = (units.billedMs.getResults / 1000) * (fn.memoryMb / 1024);
  const usdPerRequest =
    perUnit('lambdaRequests') +
    gbSeconds * perUnit(fn.architecture === 'arm64' ? 'lambdaArmGbSeconds' : 'lambdaX86GbSeconds') +
    units.readUnitsPerRead * perUnit('dynamoReadUnits') +
    bytesToUnits(profile.apiResponseBytes, 'dataTransferOut') * perUnit('dataTransferOut');
  const requestsPerSecond = stack.resultsConcurrency * RESULTS_URL.requestsPerSecondPerConcurrency;
  return {
    concurrency: stack.resultsConcurrency,
    requestsPerSecond,
    usdPerHour: requestsPerSecond * 3600 * usdPerRequest,
  };
}
