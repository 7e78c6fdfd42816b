/**
 * Each stage a request passes at the profile's busiest second (the API's stage and account throttle, the
 * functions and the account's concurrency, the queue and each message group, the consumer, the hot items
 * and the table, the distribution): its limit, from the template (what the stack sets) or the quota sheet
 * (config/aws-quotas.ts), its load at the peak (cost/usage/peaks.ts), and what lifts it; and the seconds
 * Lambda takes to scale to the peak. The verdict is capacity.ts's. Pure.
 */
import { POLL_CACHE, RESULTS_CACHE_SECONDS } from '../../config/caching';
import { RESULTS_URL } from '../../config/results-delivery';
import { averagePollVotesPerSecond, CACHE_ORIGINS_PER_POLL } from './shares';
import { pollKeyReadUnits, resultsReadUnits } from './results-shares';
import { batchCycleMs, type UnitCosts, type FunctionRole } from '../usage/unit-costs';
import type { Peak } from '../usage/peaks';
import type { TrafficProfile } from '../usage/traffic-profile';
import { QUOTAS, type QuotaId, type QuotaRaise } from '../../config/aws-quotas';
import { quota } from '../../sizing/quotas';
import { preflightsPerVote } from './rates';
import type { StackConfig } from './stack-config';
import { API_RATE_FLAG, HOT_POLL_FLAG } from '../../config/vote-path';
import { voteRates } from '../../sizing/vote-rates';

/** The account a design is deployed on: an established one, or one in its first months (--new-account). */
export type Account = 'established' | 'new';

/** How to ask for more of a quota, in a line: the Service Quotas name and code, or why it cannot be asked for. */
export function howToRaise(id: QuotaId): string {
  const raise: QuotaRaise = QUOTAS[id].raise;
  if (raise.how === 'service-quotas')
    return `Service Quotas: "${raise.quotaName}"${raise.code ? ` (${raise.code})` : ''}`;
  if (raise.how === 'setting') return raise.setting;
  return raise.how === 'automatic' ? raise.note : 'fixed by AWS';
}

/** What lifts a stage's limit: a flag of the stack, a quota raise, or nothing. */
export type Fix =
  | { flag: typeof HOT_POLL_FLAG | typeof API_RATE_FLAG | 'resultsConcurrency' }
  | { quota: QuotaId }
  | 'none';

/** What the verdicts read of the profile beyond its busiest second: its visits, its polls, its voter claims. */
export type CapacityProfile = Pick<
  TrafficProfile,
  'oneVotePerVoter' | 'pageLoadsPerVoter' | 'votingMinutes' | 'votesPerPoll'
>;

/** Where a design is deployed, and the profile it is asked to carry. */
export interface CapacityContext {
  account: Account;
  profile: CapacityProfile;
  /** The design's CloudFront is priced on a flat-rate plan, which has no per-distribution request quota. */
  flatRatePlan?: boolean;
  /** The AWS Region it is deployed to: a few quotas differ there (config/aws-quotas.ts inRegions). */
  region?: string;
}

/** A stage a request passes: a quota's own, or one the template sets (or that builds on a quota). */
export type StageId =
  | QuotaId
  | 'apiStageThrottle'
  | 'lambdaRequestsPerSecond'
  | 'resultsReservedConcurrency'
  | 'reservableConcurrency'
  | 'hotPollGroups'
  | 'consumerDrain'
  | 'counterKeyWrites'
  /** A design that is only an estimate has none: this stands for them. */
  | 'notBuilt';

const PER_CONCURRENCY = QUOTAS.lambdaRequestsPerConcurrency.value;

/** Each stage in words, where not its quota's name (QUOTAS[id].name). */
const STAGE_NAMES: Partial<Record<StageId, string>> = {
  apiStageThrottle: 'API stage throttle',
  lambdaAccountConcurrency: `${QUOTAS.lambdaAccountConcurrency.name} (requests × billed time)`,
  lambdaNewAccountConcurrency: `${QUOTAS.lambdaNewAccountConcurrency.name} (requests × billed time)`,
  lambdaRequestsPerSecond: `Lambda requests a second (${PER_CONCURRENCY} x account concurrency)`,
  resultsReservedConcurrency: 'results function URL: reserved concurrency',
  reservableConcurrency: 'reserved concurrency the account can give',
  hotPollGroups: 'message groups of the hottest poll',
  consumerDrain: 'consumer, one batch in flight per group',
  counterKeyWrites: 'each counter key of the hottest poll: writes',
  dynamoItemReadUnits: "the hottest poll's own key: reads",
  notBuilt: 'not built (an estimate)',
};

/** A stage in words. */
export const stageName = (id: StageId): string => STAGE_NAMES[id] ?? QUOTAS[id as QuotaId].name;

/** One stage a request passes, at the peak. */
export interface Stage {
  id: StageId;
  /** Its words (stageName). */
  name: string;
  /** What the limit is and where it comes from ("template", or the quota sheet's name). */
  limitFrom: string;
  limit: number;
  load: number;
  unit: string;
  fix: Fix;
  /** What the quota must be raised to for this load, when that is not the load itself. */
  raiseTo?: number;
}

/**
 * The consumer at the peak: its batches and counter writes a second, the hottest poll at its rate
 * and the other polls open at their average (cost/estimate/rates.ts: the same rates the bill uses).
 */
function consumerAtPeak(stack: StackConfig, peak: Peak, units: UnitCosts, profile: CapacityProfile) {
  const hot = peak.hottestPoll.votesPerSecond;
  const others = Math.max(0, peak.routes.votes - hot);
  const cycle = batchCycleMs(units);
  const hotRates = voteRates(hot, stack, cycle, units);
  const averageRates = voteRates(averagePollVotesPerSecond(profile), stack, cycle, units);
  return {
    hotRates,
    batches: hot / hotRates.votesPerBatch + others / averageRates.votesPerBatch,
    counterWrites: hot * hotRates.counterWriteUnitsPerVote + others * averageRates.counterWriteUnitsPerVote,
  };
}

/** Requests a second each function serves at the peak. */
function functionLoads(
  stack: StackConfig,
  peak: Peak,
  units: UnitCosts,
  profile: CapacityProfile,
): Record<FunctionRole, number> {
  const { routes } = peak;
  const results = stack.results === 'cloudfront' ? cachedResultsOrigin(peak) : routes.results;
  return {
    createPoll: routes.creates,
    getPoll: pollReadsAtOrigin(stack, peak),
    castVote: routes.votes,
    getResults: stack.results === 'websocket' ? 0 : results,
    countVotes: consumerAtPeak(stack, peak, units, profile).batches,
  };
}

/** Results that reach the API behind CloudFront: each regional cache asks once per cache period per open poll. */
const cachedResultsOrigin = (peak: Peak) =>
  Math.min(peak.routes.results, (Math.max(1, peak.pollsOpenAtOnce) * CACHE_ORIGINS_PER_POLL) / RESULTS_CACHE_SECONDS);

/** Poll reads that reach the API: all, or behind CloudFront's poll cache each cache's once per its period. */
const pollReadsAtOrigin = (stack: StackConfig, peak: Peak) =>
  stack.pollReadCacheSeconds > 0
    ? Math.min(
        peak.routes.pollReads,
        (Math.max(1, peak.pollsOpenAtOnce) * CACHE_ORIGINS_PER_POLL) / stack.pollReadCacheSeconds,
      )
    : peak.routes.pollReads;

/** Requests a second API Gateway takes at the peak: what it fronts, and the CORS preflights its POSTs bring. */
export function apiLoad(stack: StackConfig, peak: Peak, profile: CapacityProfile): number {
  const { routes } = peak;
  const preflights = stack.corsPreflight ? routes.votes * preflightsPerVote(profile, stack) + routes.creates : 0;
  const results = { api: routes.results, cloudfront: cachedResultsOrigin(peak), 'function-url': 0, websocket: 0 };
  return pollReadsAtOrigin(stack, peak) + routes.votes + routes.creates + preflights + results[stack.results];
}

/** The API: the stage's throttle (the template) and the account's (a quota). */
function apiStages(stack: StackConfig, peak: Peak, { profile, region }: CapacityContext): Stage[] {
  const load = apiLoad(stack, peak, profile);
  const limitFrom = `template (-c ${API_RATE_FLAG} sets it)`;
  return [
    stage('apiStageThrottle', limitFrom, stack.votePath.stageRateLimit, load, 'requests/s', { flag: API_RATE_FLAG }),
    quotaStage('apiAccountRequestsPerSecond', load, { region }),
  ];
}

/**
 * Concurrent executions each function needs (requests × billed time), and the environments Lambda
 * must scale to (at least 10 requests a second each).
 */
function lambdaNeeds(stack: StackConfig, peak: Peak, units: UnitCosts, profile: CapacityProfile) {
  const loads = functionLoads(stack, peak, units, profile);
  const perUnit = quota('lambdaRequestsPerConcurrency');
  const roles = Object.keys(loads) as FunctionRole[];
  const concurrency = roles.map((role) => (loads[role] * units.billedMs[role]) / 1000);
  const environments = roles.map((role, i) => Math.max(concurrency[i], loads[role] / perUnit));
  return { loads, roles, concurrency, environments, invocations: roles.reduce((sum, role) => sum + loads[role], 0) };
}

/** Lambda: the account's concurrency and requests a second, and the results function's reserved concurrency. */
function lambdaStages(stack: StackConfig, peak: Peak, units: UnitCosts, context: CapacityContext): Stage[] {
  const { account } = context;
  const { loads, concurrency: needed, invocations } = lambdaNeeds(stack, peak, units, context.profile);
  const accountQuota: QuotaId = account === 'new' ? 'lambdaNewAccountConcurrency' : 'lambdaAccountConcurrency';
  const fix = { quota: accountQuota };
  const concurrency = quota(accountQuota);
  const perUnit = quota('lambdaRequestsPerConcurrency');
  const stages = [
    quotaStage(
      accountQuota,
      needed.reduce((a, b) => a + b, 0),
    ),
    {
      ...stage(
        'lambdaRequestsPerSecond',
        `AWS: ${howToRaise(accountQuota)}`,
        concurrency * perUnit,
        invocations,
        'requests/s',
        fix,
      ),
      raiseTo: invocations / perUnit,
    },
  ];
  const reserved = stack.results === 'function-url' ? stack.resultsConcurrency : undefined;
  if (reserved === undefined) return stages;
  const unreserved = account === 'new' ? concurrency : quota('lambdaMinUnreserved');
  return [
    ...stages,
    stage(
      'resultsReservedConcurrency',
      `template: ${reserved} x ${RESULTS_URL.requestsPerSecondPerConcurrency} requests/s`,
      reserved * RESULTS_URL.requestsPerSecondPerConcurrency,
      loads.getResults,
      'requests/s',
      { flag: 'resultsConcurrency' },
    ),
    {
      ...stage(
        'reservableConcurrency',
        `AWS: ${howToRaise(accountQuota)}`,
        Math.max(0, concurrency - unreserved),
        reserved,
        'concurrent executions',
        fix,
      ),
      raiseTo: reserved + quota('lambdaMinUnreserved'),
    },
  ];
}

/** The queue and the hottest poll's message groups, and the consumer draining them one batch per group at a time. */
function queueStages(stack: StackConfig, peak: Peak, units: UnitCosts, region?: string): Stage[] {
  const { groupsPerPoll } = stack.votePath;
  const hot = peak.hottestPoll.votesPerSecond;
  const batch = Math.min(stack.consumer.batchSize, quota('fifoEventSourceBatchSize'));
  const drainPerGroup = (batch * quota('fifoBatchesInFlightPerGroup') * 1000) / batchCycleMs(units);
  return [
    quotaStage('sqsFifoSendsPerQueue', peak.routes.votes, { region }),
    stage(
      'hotPollGroups',
      `template: ${groupsPerPoll} groups x AWS's ${quota('sqsFifoSendsPerGroup')} a group`,
      groupsPerPoll * quota('sqsFifoSendsPerGroup'),
      hot,
      'votes/s',
      { flag: HOT_POLL_FLAG },
    ),
    stage(
      'consumerDrain',
      `template: ${groupsPerPoll} groups x ${batch} votes / ${batchCycleMs(units)} ms a batch`,
      groupsPerPoll * drainPerGroup,
      hot,
      'votes/s',
      { flag: HOT_POLL_FLAG },
    ),
  ];
}

/**
 * DynamoDB at the peak. Per partition key (AWS: 1,000 write and 3,000 read units a second each,
 * whatever its items): each counter key of the hottest poll takes its share of the poll's counter
 * writes; the poll's own key (its item and its first counter) takes the functions' poll reads (each
 * container reads it once per cache period) and the results function's reads of that counter.
 * Per table: its warm throughput, for every poll's writes and reads.
 */
function tableStages(stack: StackConfig, peak: Peak, units: UnitCosts, profile: CapacityProfile): Stage[] {
  const { routes } = peak;
  const { counterShards } = stack.votePath;
  const consumer = consumerAtPeak(stack, peak, units, profile);
  const hotWrites = peak.hottestPoll.votesPerSecond * consumer.hotRates.counterWriteUnitsPerVote;
  const { loads, roles, environments } = lambdaNeeds(stack, peak, units, profile);
  const readers = environments.filter((_, i) => roles[i] === 'castVote' || roles[i] === 'getPoll');
  const pollItemReads = (readers.reduce((a, b) => a + b, 0) / POLL_CACHE.maxAgeSeconds) * units.readUnitsPerRead;
  const traffic = {
    requestsPerSecond: loads.getResults,
    pollsOpen: Math.max(1, peak.pollsOpenAtOnce),
    billedMs: units.billedMs.getResults,
  };
  const hotResults = Math.min(loads.getResults, hottestResultsAtFunction(stack, peak));
  const writes =
    consumer.counterWrites +
    (profile.oneVotePerVoter ? routes.votes * units.writeUnitsPerVoterClaim : 0) +
    routes.creates * units.writeUnitsPerCreate;
  const reads = pollItemReads + loads.getResults * resultsReadUnits(stack, units, traffic);
  const keys = `${counterShards} counter key(s)`;
  return [
    stage(
      'counterKeyWrites',
      `AWS: 1,000 a partition key, fixed; template: ${keys}`,
      quota('dynamoItemWriteUnits'),
      // The busiest key counts a whole share of the groups, rounded up.
      (hotWrites * Math.ceil(stack.votePath.groupsPerPoll / counterShards)) / stack.votePath.groupsPerPoll,
      'write units/s per key',
      { flag: HOT_POLL_FLAG },
    ),
    quotaStage('dynamoItemReadUnits', pollItemReads + pollKeyReadUnits(stack, units, traffic, hotResults)),
    quotaStage('dynamoNewTableWriteUnits', writes),
    quotaStage('dynamoTableWriteUnits', writes),
    quotaStage('dynamoNewTableReadUnits', reads),
  ];
}

/** The hottest poll's results requests that reach the results function (behind CloudFront: each regional cache's). */
const hottestResultsAtFunction = (stack: StackConfig, peak: Peak) =>
  stack.results === 'cloudfront'
    ? Math.min(peak.hottestPoll.resultsRequestsPerSecond, CACHE_ORIGINS_PER_POLL / RESULTS_CACHE_SECONDS)
    : stack.results === 'websocket'
      ? 0
      : peak.hottestPoll.resultsRequestsPerSecond;

/**
 * CloudFront: the site's pages, and with results=cloudfront every API request and results request too; no
 * quota on a flat-rate plan (CLOUDFRONT_FLAT_RATE_RULES).
 */
function distributionStage(stack: StackConfig, peak: Peak, context: CapacityContext): Stage[] {
  if (context.flatRatePlan) return [];
  const { routes } = peak;
  const throughIt = stack.apiThroughCloudFront ? routes.pollReads + routes.votes + routes.creates + routes.results : 0;
  return [quotaStage('cloudFrontRequestsPerSecond', routes.pages + throughIt)];
}

const stage = (id: StageId, limitFrom: string, limit: number, load: number, unit: string, fix: Fix): Stage => ({
  id,
  name: stageName(id),
  limitFrom,
  limit,
  load,
  unit,
  fix,
});

/** A stage whose limit is a quota (its value in `region`), raised by asking for more of it (unless AWS fixes it). */
function quotaStage(id: QuotaId, load: number, { region }: { region?: string } = {}): Stage {
  const q = QUOTAS[id];
  const limit = quota(id, region);
  return stage(id, `AWS: ${howToRaise(id)}`, limit, load, q.unit, q.raise.how === 'fixed' ? 'none' : { quota: id });
}

/** Every stage of a design at the peak. */
export function stagesOf(stack: StackConfig, peak: Peak, units: UnitCosts, context: CapacityContext): Stage[] {
  return [
    ...distributionStage(stack, peak, context),
    ...apiStages(stack, peak, context),
    ...lambdaStages(stack, peak, units, context),
    ...queueStages(stack, peak, units, context.region),
    ...tableStages(stack, peak, units, context.profile),
  ].filter((s) => s.load > 0);
}

/** Seconds Lambda takes to scale each function to the peak: 1,000 environments at once, then 1,000 per 10 s. */
export function rampSeconds(stack: StackConfig, peak: Peak, units: UnitCosts, profile: CapacityProfile): number {
  const step = quota('lambdaScalingPerTenSeconds');
  const { environments } = lambdaNeeds(stack, peak, units, profile);
  return Math.max(0, ...environments.map((envs) => 10 * Math.max(0, Math.ceil(envs / step) - 1)));
}
