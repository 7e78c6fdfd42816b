/**
 * Does a design carry the profile's busiest second? Each stage a request passes (the API's stage
 * and account throttle, the functions and the account's concurrency, the queue and each message
 * group, the consumer, the hot items and the table, the distribution) gets its limit, from the
 * template (what the stack sets) or the quota sheet (cost/quotas.ts), and its load at the peak
 * (cost/peaks.ts). A design carries the peak when no stage is over its limit and Lambda reaches it
 * within MAX_RAMP_SECONDS; if not, the stack's flags and named quota raises may make it carry. Pure.
 */
import { POLL_CACHE, RESULTS_CACHE_SECONDS, RESULTS_URL } from '../config/app-config';
import { CACHE_ORIGINS_PER_POLL, type UnitCosts } from './model';
import type { Peak } from './peaks';
import { QUOTAS, quota, raiseText, type QuotaId } from './quotas';
import type { FunctionRole, StackConfig } from './stack-config';
import { API_REQUESTS_PER_VOTE, HOT_POLL_FLAG, MAX_HOT_POLL_VOTES_PER_SECOND, votePathFor } from './vote-path';

/** A design carries a peak that Lambda scales to within this: the busiest minute is the unit of a peak. */
export const MAX_RAMP_SECONDS = 60;

/** The account a design is deployed on: an established one, or one in its first months (--new-account). */
export type Account = 'established' | 'new';

/** What lifts a stage's limit: a flag of the stack, a quota raise, or nothing. */
type Fix = { flag: typeof HOT_POLL_FLAG | 'resultsConcurrency' } | { quota: QuotaId } | 'none';

/** One stage a request passes, at the peak. */
export interface Stage {
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

/** A quota raise a design needs: the quota's name, from its value to what the peak needs. */
export interface QuotaRaiseNeeded {
  quota: string;
  from: number;
  to: number;
}

/** What report.json says of a design's capacity: exactly these names (issue 22). */
export interface CapacityVerdict {
  /** For the design as deployed with its defaults. */
  carries: boolean;
  /** The stage that binds first: the highest load against its limit, when it is over. */
  bottleneck: string | null;
  /** What makes it carry; null when no flag and no quota raise does. */
  carriesWith: {
    flags: Record<string, string>;
    quotaRaises: QuotaRaiseNeeded[];
    rampSeconds: number;
  } | null;
}

export interface Capacity extends CapacityVerdict {
  stages: Stage[];
  /** The same stages deployed with carriesWith's flags (their quotas as they are: carriesWith says what to raise). */
  sizedStages: Stage[];
  /** With the flags applied, the stage still over a limit no quota raise lifts: why carriesWith is null. */
  blockedBy: Stage | null;
  /** Seconds Lambda takes to scale to the peak as deployed (callers get 429s meanwhile). */
  rampSeconds: number;
  /** The stage with the least headroom, over its limit or not. */
  tightest: Stage;
}

/** Requests a second each function serves at the peak. */
export function functionLoads(stack: StackConfig, peak: Peak): Record<FunctionRole, number> {
  const { routes } = peak;
  const results = stack.results === 'cloudfront' ? cachedResultsOrigin(peak) : routes.results;
  return {
    createPoll: routes.creates,
    getPoll: routes.pollReads,
    castVote: routes.votes,
    getResults: stack.results === 'websocket' ? 0 : results,
    countVotes: routes.votes / quota('fifoEventSourceBatchSize'),
  };
}

/** Results that reach the API behind CloudFront: each regional cache asks once per cache period per open poll. */
const cachedResultsOrigin = (peak: Peak) =>
  Math.min(peak.routes.results, (Math.max(1, peak.pollsOpenAtOnce) * CACHE_ORIGINS_PER_POLL) / RESULTS_CACHE_SECONDS);

/** Requests a second API Gateway takes at the peak: what it fronts, and a CORS preflight per POST if it needs one. */
function apiLoad(stack: StackConfig, peak: Peak): number {
  const { routes } = peak;
  const preflights = stack.corsPreflight ? routes.votes + routes.creates : 0;
  const results = { api: routes.results, cloudfront: cachedResultsOrigin(peak), 'function-url': 0, websocket: 0 };
  return routes.pollReads + routes.votes + routes.creates + preflights + results[stack.results];
}

/** The API: the stage's throttle (the template) and the account's (a quota). */
function apiStages(stack: StackConfig, peak: Peak): Stage[] {
  const load = apiLoad(stack, peak);
  return [
    stage(
      'API stage throttle',
      `template (-c ${HOT_POLL_FLAG} sizes it)`,
      stack.votePath.stageRateLimit,
      load,
      'requests/s',
      {
        flag: HOT_POLL_FLAG,
      },
    ),
    quotaStage('apiAccountRequestsPerSecond', load),
  ];
}

/** Concurrent executions a function needs, and the environments Lambda must scale to (10 requests a second each). */
function lambdaNeeds(stack: StackConfig, peak: Peak, units: UnitCosts) {
  const loads = functionLoads(stack, peak);
  const perUnit = quota('lambdaRequestsPerConcurrency');
  const roles = Object.keys(loads) as FunctionRole[];
  const concurrency = roles.map((role) => (loads[role] * units.billedMs[role]) / 1000);
  const environments = roles.map((role, i) => Math.max(concurrency[i], loads[role] / perUnit));
  return { loads, roles, environments, invocations: roles.reduce((sum, role) => sum + loads[role], 0) };
}

/** Lambda: the account's concurrency and requests a second, and the results function's reserved concurrency. */
function lambdaStages(stack: StackConfig, peak: Peak, units: UnitCosts, account: Account): Stage[] {
  const { loads, environments, invocations } = lambdaNeeds(stack, peak, units);
  const accountQuota: QuotaId = account === 'new' ? 'lambdaNewAccountConcurrency' : 'lambdaAccountConcurrency';
  const fix = { quota: accountQuota };
  const concurrency = quota(accountQuota);
  const perUnit = quota('lambdaRequestsPerConcurrency');
  const stages = [
    quotaStage(
      accountQuota,
      environments.reduce((a, b) => a + b, 0),
    ),
    {
      ...stage(
        `Lambda requests a second (${perUnit} x account concurrency)`,
        `AWS: ${raiseText(accountQuota)}`,
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
      'results function URL: reserved concurrency',
      `template: ${reserved} x ${RESULTS_URL.requestsPerSecondPerConcurrency} requests/s`,
      reserved * RESULTS_URL.requestsPerSecondPerConcurrency,
      loads.getResults,
      'requests/s',
      { flag: 'resultsConcurrency' },
    ),
    {
      ...stage(
        'reserved concurrency the account can give',
        `AWS: ${raiseText(accountQuota)}`,
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
function queueStages(stack: StackConfig, peak: Peak, units: UnitCosts): Stage[] {
  const { groupsPerPoll } = stack.votePath;
  const hot = peak.hottestPoll.votesPerSecond;
  const batch = Math.min(stack.consumer.batchSize, quota('fifoEventSourceBatchSize'));
  const drainPerGroup = (batch * quota('fifoBatchesInFlightPerGroup') * 1000) / units.billedMs.countVotes;
  return [
    quotaStage('sqsFifoSendsPerQueue', peak.routes.votes),
    stage(
      'message groups of the hottest poll',
      `template: ${groupsPerPoll} groups x AWS's ${quota('sqsFifoSendsPerGroup')} a group`,
      groupsPerPoll * quota('sqsFifoSendsPerGroup'),
      hot,
      'votes/s',
      { flag: HOT_POLL_FLAG },
    ),
    stage(
      'consumer, one batch in flight per group',
      `template: ${groupsPerPoll} groups x ${batch} votes / ${units.billedMs.countVotes} ms a batch`,
      groupsPerPoll * drainPerGroup,
      hot,
      'votes/s',
      { flag: HOT_POLL_FLAG },
    ),
  ];
}

/**
 * DynamoDB at the peak: the hottest poll's counter items (a write per full batch, spread over the
 * shards), its poll item (read by the functions that cache it, once per container per period), and
 * the table's warm throughput (writes of every poll: counters, voter claims, creates).
 */
function tableStages(stack: StackConfig, peak: Peak, units: UnitCosts, oneVotePerVoter: boolean): Stage[] {
  const { routes } = peak;
  const batch = Math.min(stack.consumer.batchSize, quota('fifoEventSourceBatchSize'));
  const counterWrites = peak.hottestPoll.votesPerSecond / batch / stack.votePath.counterShards;
  const { loads, roles, environments } = lambdaNeeds(stack, peak, units);
  const readers = environments.filter((_, i) => roles[i] === 'castVote' || roles[i] === 'getPoll');
  const pollItemReads = (readers.reduce((a, b) => a + b, 0) / POLL_CACHE.maxAgeSeconds) * units.readUnitsPerRead;
  const writes =
    routes.votes / batch +
    (oneVotePerVoter ? routes.votes * units.writeUnitsPerVoterClaim : 0) +
    routes.creates * units.writeUnitsPerCreate;
  const reads = pollItemReads + loads.getResults * units.readUnitsPerResultsRequest;
  return [
    stage(
      'counter item of the hottest poll',
      `template: ${stack.votePath.counterShards} counter item(s); AWS: fixed`,
      quota('dynamoItemWriteUnits'),
      counterWrites,
      'writes/s per item',
      { flag: HOT_POLL_FLAG },
    ),
    quotaStage('dynamoItemReadUnits', pollItemReads, 'poll item of the hottest poll'),
    quotaStage('dynamoNewTableWriteUnits', writes),
    quotaStage('dynamoTableWriteUnits', writes),
    quotaStage('dynamoNewTableReadUnits', reads),
  ];
}

/** CloudFront: the site's pages, and with results=cloudfront every API request and results request too. */
function distributionStage(stack: StackConfig, peak: Peak): Stage[] {
  const { routes } = peak;
  const throughIt = stack.apiThroughCloudFront ? routes.pollReads + routes.votes + routes.creates + routes.results : 0;
  return [quotaStage('cloudFrontRequestsPerSecond', routes.pages + throughIt)];
}

const stage = (name: string, limitFrom: string, limit: number, load: number, unit: string, fix: Fix): Stage => ({
  name,
  limitFrom,
  limit,
  load,
  unit,
  fix,
});

/** A stage whose limit is a quota, raised by asking for more of it (unless AWS fixes it). */
function quotaStage(id: QuotaId, load: number, name: string = QUOTAS[id].name): Stage {
  const q = QUOTAS[id];
  return stage(name, `AWS: ${raiseText(id)}`, q.value, load, q.unit, q.raise.how === 'fixed' ? 'none' : { quota: id });
}

/** Every stage of a design at the peak. */
export function stagesOf(
  stack: StackConfig,
  peak: Peak,
  units: UnitCosts,
  context: { account: Account; oneVotePerVoter: boolean },
): Stage[] {
  return [
    ...distributionStage(stack, peak),
    ...apiStages(stack, peak),
    ...lambdaStages(stack, peak, units, context.account),
    ...queueStages(stack, peak, units),
    ...tableStages(stack, peak, units, context.oneVotePerVoter),
  ].filter((s) => s.load > 0);
}

/** Seconds Lambda takes to scale each function to the peak: 1,000 environments at once, then 1,000 per 10 s. */
export function rampSeconds(stack: StackConfig, peak: Peak, units: UnitCosts): number {
  const step = quota('lambdaScalingPerTenSeconds');
  const { environments } = lambdaNeeds(stack, peak, units);
  return Math.max(0, ...environments.map((envs) => 10 * Math.max(0, Math.ceil(envs / step) - 1)));
}

/** Over its limit; a millionth either way is the float sums' noise (a rate of creates a second), not a load. */
const over = (s: Stage) => s.load > s.limit * (1 + 1e-6);
const ratio = (s: Stage) => (s.limit > 0 ? s.load / s.limit : Infinity);
/** Up to two significant digits, rounded up: what a flag or a quota request asks for. */
export const roundUp = (n: number) => {
  // Six digits first: a rate of creates a second (0.0000046) must not lift 280,000 to 290,000.
  const value = Number(n.toPrecision(6));
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(value, 1))) - 1);
  return Math.ceil(value / magnitude) * magnitude;
};

/**
 * What is asked for beyond the peak's own load (a quota raise, a reserved concurrency): a quarter
 * more, as the vote path keeps half of each limit free (cost/vote-path.ts VOTE_PATH_HEADROOM).
 */
export const RAISE_HEADROOM = 1.25;

const fixedBy = (s: Stage, flag: string) => typeof s.fix === 'object' && 'flag' in s.fix && s.fix.flag === flag;

/** The flags that size the stack for the peak, and the stack they deploy. */
function flagged(
  stack: StackConfig,
  peak: Peak,
  failing: Stage[],
  account: Account,
): { flags: Record<string, string>; stack: StackConfig } {
  const flags: Record<string, string> = {};
  let sized = stack;
  if (failing.some((s) => fixedBy(s, HOT_POLL_FLAG))) {
    const wanted = Math.max(peak.hottestPoll.votesPerSecond, apiLoad(stack, peak) / API_REQUESTS_PER_VOTE);
    const n = Math.min(MAX_HOT_POLL_VOTES_PER_SECOND, roundUp(RAISE_HEADROOM * wanted));
    const { hotPollVotesPerSecond: _n, ...votePath } = votePathFor(n);
    flags[HOT_POLL_FLAG] = String(n);
    sized = { ...sized, votePath };
  }
  const reservedTooSmall = failing.some((s) => fixedBy(s, 'resultsConcurrency'));
  // A new account has no concurrency to reserve: the results function runs uncapped on what it has.
  if (reservedTooSmall || (account === 'new' && sized.resultsConcurrency !== undefined)) {
    const needed = roundUp((RAISE_HEADROOM * peak.routes.results) / RESULTS_URL.requestsPerSecondPerConcurrency);
    // The flag takes up to 10,000 (lib/app.ts); beyond, the function runs uncapped too.
    const value = account === 'established' && needed <= 10_000 ? needed : undefined;
    flags.resultsConcurrency = value === undefined ? 'off' : String(value);
    sized = { ...sized, resultsConcurrency: value };
  }
  return { flags, stack: sized };
}

/** The quota raises that lift every stage still over its limit, or null if one cannot be lifted. */
function raisesFor(stages: Stage[]): QuotaRaiseNeeded[] | null {
  const raises = new Map<QuotaId, number>();
  for (const s of stages.filter(over)) {
    if (typeof s.fix !== 'object' || !('quota' in s.fix)) return null;
    raises.set(s.fix.quota, Math.max(raises.get(s.fix.quota) ?? 0, s.raiseTo ?? s.load));
  }
  return [...raises].map(([id, to]) => ({ quota: QUOTAS[id].name, from: quota(id), to: roundUp(RAISE_HEADROOM * to) }));
}

/** A design's capacity for the peak: as deployed, and what makes it carry. */
export function capacityOf(
  stack: StackConfig,
  peak: Peak,
  units: UnitCosts,
  context: { account: Account; oneVotePerVoter: boolean },
): Capacity {
  const stages = stagesOf(stack, peak, units, context);
  const ramp = rampSeconds(stack, peak, units);
  const failing = stages.filter(over);
  const tightest = [...stages].sort((a, b) => ratio(b) - ratio(a))[0];
  const carries = failing.length === 0 && ramp <= MAX_RAMP_SECONDS;
  const sized = flagged(stack, peak, failing, context.account);
  const sizedStages = stagesOf(sized.stack, peak, units, context);
  const raises = raisesFor(sizedStages);
  return {
    carries,
    bottleneck: failing.length > 0 ? tightest.name : ramp > MAX_RAMP_SECONDS ? 'Lambda scaling rate' : null,
    carriesWith: raises && {
      flags: sized.flags,
      quotaRaises: raises,
      rampSeconds: rampSeconds(sized.stack, peak, units),
    },
    stages,
    sizedStages,
    blockedBy: raises
      ? null
      : (sizedStages.find((s) => over(s) && !(typeof s.fix === 'object' && 'quota' in s.fix)) ?? null),
    rampSeconds: ramp,
    tightest,
  };
}

/** The carriesWith reaches the peak in time: what a recommendation needs. */
export const carriesInTime = (c: CapacityVerdict) =>
  c.carriesWith !== null && c.carriesWith.rampSeconds <= MAX_RAMP_SECONDS;

/** What a load sends with each vote to one poll: its poll reads, a CORS preflight or not, the results beside it. */
export interface PollTraffic {
  pollReadsPerVote: number;
  resultsPerVote: number;
  preflights: boolean;
}

/** The most votes a second one poll carries, the stage that binds first, and every stage at that rate. */
export interface PollCeiling {
  votesPerSecond: number;
  bottleneck: string;
  stages: Stage[];
}

/**
 * The most votes a second one poll carries on `stack`, with AWS's limits at `scale` (the local
 * runtime's --aws-limits), and the stage that binds first: each stage's load grows in step with
 * the votes, so the ceiling is where the tightest reaches its limit. Limits `scale` times smaller
 * are loads 1/scale times larger, except the consumer's: a batch takes as long at any scale, so
 * its time is scaled with them (its share of Lambda's concurrency, a batch's milliseconds, is
 * then understated by 1/scale: it never binds a hot poll).
 */
export function pollCeiling(stack: StackConfig, units: UnitCosts, traffic: PollTraffic, scale = 1): PollCeiling {
  const votes = 1 / scale;
  const routes = {
    pages: 0,
    pollReads: votes * traffic.pollReadsPerVote,
    votes,
    results: votes * traffic.resultsPerVote,
    creates: 0,
  };
  const requests = routes.pollReads + routes.votes + routes.results;
  const peak: Peak = {
    requestsPerSecond: requests,
    derivedRequestsPerSecond: requests,
    routes,
    pollsOpenAtOnce: 1,
    hottestPoll: {
      votesPerSecond: votes,
      resultsRequestsPerSecond: routes.results,
      pageLoadsPerSecond: 0,
      viewersAtOnce: 0,
      refreshSeconds: 0,
    },
  };
  const billedMs = { ...units.billedMs, countVotes: units.billedMs.countVotes * scale };
  const context = { account: 'established' as const, oneVotePerVoter: false };
  const stages = stagesOf({ ...stack, corsPreflight: traffic.preflights }, peak, { ...units, billedMs }, context);
  const tightest = stages.reduce((a, b) => (ratio(b) > ratio(a) ? b : a));
  const votesPerSecond = 1 / ratio(tightest);
  return {
    votesPerSecond,
    bottleneck: tightest.name,
    stages: stages.map((s) => ({ ...s, limit: s.limit * scale, load: s.load * scale * votesPerSecond })),
  };
}
