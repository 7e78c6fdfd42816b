/**
 * Does a design carry the profile's busiest second? Each stage a request passes has its limit and its load
 * at the peak (stages.ts). A design carries the peak when no stage is over its limit and Lambda reaches it
 * within MAX_RAMP_SECONDS; if not, the stack's flags and named quota raises may make it carry. And how
 * many votes a second one poll can take (pollCeiling). Pure.
 */
import { RESULTS_URL } from '../../config/results-delivery';
import { batchCycleMs, type UnitCosts } from '../usage/unit-costs';
import type { Peak } from '../usage/peaks';
import type { QuotaId } from '../../config/aws-quotas';
import type { StackConfig } from './stack-config';
import { API_RATE_FLAG, HOT_POLL_FLAG, MAX_HOT_POLL_VOTES_PER_SECOND } from '../../config/vote-path';
import { type CapacityContext, rampSeconds, type Stage, type StageId, stageName, stagesOf, apiLoad } from './stages';
import { quota } from '../../sizing/quotas';
import { votePathFor, withApiRateLimit } from '../../sizing/vote-path';

/** A design carries a peak that Lambda scales to within this: the busiest minute is the unit of a peak. */
export const MAX_RAMP_SECONDS = 60;

/** A quota raise a design needs: the quota (its words: QUOTAS[quota].name), from its value to what the peak needs. */
export interface QuotaRaiseNeeded {
  quota: QuotaId;
  from: number;
  to: number;
}

/** What report.json says of a design's capacity: exactly these names (issue 22). */
export interface CapacityVerdict {
  /** For the design as deployed with its defaults. */
  carries: boolean;
  /**
   * What binds first: the stage with the highest load against its limit when one is over, else Lambda's scaling
   * when it is too slow for the peak; its words: bottleneckName.
   */
  bottleneck: StageId | 'lambdaScaling' | null;
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
  /** The stack those flags deploy (the stack itself when it needs none): what its bill is for. */
  sizedStack: StackConfig;
  /** With the flags applied, the stage still over a limit no quota raise lifts: why carriesWith is null. */
  blockedBy: Stage | null;
  /** Seconds Lambda takes to scale to the peak as deployed (callers get 429s meanwhile). */
  rampSeconds: number;
  /** The stage with the least headroom, over its limit or not. */
  tightest: Stage;
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
 * more, as the vote path keeps half of each limit free (config/vote-path.ts VOTE_PATH_HEADROOM).
 */
export const RAISE_HEADROOM = 1.25;

const fixedBy = (s: Stage, flag: string) => typeof s.fix === 'object' && 'flag' in s.fix && s.fix.flag === flag;

/** The flags that size the stack for the peak, and the stack they deploy. */
function flagged(
  stack: StackConfig,
  peak: Peak,
  failing: Stage[],
  context: CapacityContext,
): { flags: Record<string, string>; stack: StackConfig } {
  const flags: Record<string, string> = {};
  let sized = stack;
  if (failing.some((s) => fixedBy(s, HOT_POLL_FLAG))) {
    const n = Math.min(MAX_HOT_POLL_VOTES_PER_SECOND, roundUp(RAISE_HEADROOM * peak.hottestPoll.votesPerSecond));
    const { groupsPerPoll, counterShards } = votePathFor(n);
    flags[HOT_POLL_FLAG] = String(n);
    sized = { ...sized, votePath: { ...sized.votePath, groupsPerPoll, counterShards } };
  }
  if (failing.some((s) => fixedBy(s, API_RATE_FLAG))) {
    const load = apiLoad(stack, peak, context.profile);
    const account = quota('apiAccountRequestsPerSecond', context.region);
    // AWS caps a stage at the account's throttle: within it, never ask for more than the account has.
    const rate = load <= account ? Math.min(account, roundUp(RAISE_HEADROOM * load)) : roundUp(RAISE_HEADROOM * load);
    const { hotPollVotesPerSecond: _n, ...votePath } = withApiRateLimit({ ...sized.votePath }, rate);
    flags[API_RATE_FLAG] = String(rate);
    sized = { ...sized, votePath };
  }
  const reservedTooSmall = failing.some((s) => fixedBy(s, 'resultsConcurrency'));
  // A new account has no concurrency to reserve: the results function runs uncapped on what it has.
  if (reservedTooSmall || (context.account === 'new' && sized.resultsConcurrency !== undefined)) {
    const needed = roundUp((RAISE_HEADROOM * peak.routes.results) / RESULTS_URL.requestsPerSecondPerConcurrency);
    // The flag takes up to 10,000 (lib/app.ts); beyond, the function runs uncapped too.
    const value = context.account === 'established' && needed <= 10_000 ? needed : undefined;
    flags.resultsConcurrency = value === undefined ? 'off' : String(value);
    sized = { ...sized, resultsConcurrency: value };
  }
  return { flags, stack: sized };
}

/** The quota raises that lift every stage still over its limit, or null if one cannot be lifted. */
function raisesFor(stages: Stage[], region?: string): QuotaRaiseNeeded[] | null {
  const raises = new Map<QuotaId, number>();
  for (const s of stages.filter(over)) {
    if (typeof s.fix !== 'object' || !('quota' in s.fix)) return null;
    raises.set(s.fix.quota, Math.max(raises.get(s.fix.quota) ?? 0, s.raiseTo ?? s.load));
  }
  // From the quota's value in the Region the design is checked in.
  return [...raises].map(([id, to]) => ({
    quota: id,
    from: quota(id, region),
    to: roundUp(RAISE_HEADROOM * to),
  }));
}

/** A design's capacity for the peak: as deployed, and what makes it carry. */
export function capacityOf(stack: StackConfig, peak: Peak, units: UnitCosts, context: CapacityContext): Capacity {
  const stages = stagesOf(stack, peak, units, context);
  const ramp = rampSeconds(stack, peak, units, context.profile);
  const failing = stages.filter(over);
  const tightest = [...stages].sort((a, b) => ratio(b) - ratio(a))[0];
  const carries = failing.length === 0 && ramp <= MAX_RAMP_SECONDS;
  const sized = flagged(stack, peak, failing, context);
  const sizedStages = stagesOf(sized.stack, peak, units, context);
  const raises = raisesFor(sizedStages, context.region);
  return {
    carries,
    bottleneck: failing.length > 0 ? tightest.id : ramp > MAX_RAMP_SECONDS ? 'lambdaScaling' : null,
    carriesWith: raises && {
      flags: sized.flags,
      quotaRaises: raises,
      rampSeconds: rampSeconds(sized.stack, peak, units, context.profile),
    },
    stages,
    sizedStages,
    sizedStack: sized.stack,
    blockedBy: raises
      ? null
      : (sizedStages.find((s) => over(s) && !(typeof s.fix === 'object' && 'quota' in s.fix)) ?? null),
    rampSeconds: ramp,
    tightest,
  };
}

/** What binds a design first, in words; undefined where nothing does. */
export function bottleneckName(c: Pick<CapacityVerdict, 'bottleneck'>): string | undefined {
  if (c.bottleneck === null) return undefined;
  return c.bottleneck === 'lambdaScaling' ? 'Lambda scaling rate' : stageName(c.bottleneck);
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
  bottleneck: StageId;
  stages: Stage[];
}

/**
 * The most votes a second one poll carries on `stack`, with AWS's limits at `scale` (the local
 * runtime's --aws-limits), and the stage that binds first: each stage's load grows with the
 * votes, so the ceiling is where the tightest reaches its limit. Limits `scale` times smaller are
 * loads 1/scale times larger, except the consumer's: a batch takes as long at any scale, so its
 * time is scaled with them, and batches fill as the runtime's do at its own rate (its share of
 * Lambda's concurrency, a batch's milliseconds, is then understated by 1/scale: it never binds a
 * hot poll).
 */
export function pollCeiling(stack: StackConfig, units: UnitCosts, traffic: PollTraffic, scale = 1): PollCeiling {
  const billedMs = { ...units.billedMs, countVotes: units.billedMs.countVotes * scale };
  const scaled = { ...units, billedMs, batchCycleMs: batchCycleMs(units) * scale };
  // Each vote a visit of its own (a preflight each, where the API needs one); no other poll open.
  const profile = { oneVotePerVoter: false, pageLoadsPerVoter: 1, votingMinutes: 1, votesPerPoll: 0 };
  const context = { account: 'established' as const, profile };
  const sized = { ...stack, corsPreflight: traffic.preflights };
  const at = (votes: number) => stagesOf(sized, onePollPeak(votes, traffic), scaled, context);
  const tightestOf = (stages: Stage[]) => stages.reduce((a, b) => (ratio(b) > ratio(a) ? b : a));
  // Loads grow with the votes, the counter writes less than in step (batches fill): a few steps find where
  // the tightest stage reaches its limit. Full-size votes a second; the runtime's are `scale` times these.
  let votes = 1 / scale;
  for (let step = 0; step < 8; step++) {
    const next = votes / ratio(tightestOf(at(votes)));
    if (Math.abs(next - votes) <= votes * 1e-9) break;
    votes = next;
  }
  const stages = at(votes);
  return {
    votesPerSecond: votes * scale,
    bottleneck: tightestOf(stages).id,
    stages: stages.map((s) => ({ ...s, limit: s.limit * scale, load: s.load * scale })),
  };
}

/** One poll's busiest second at `votes` a second, with what a load sends beside each vote. */
function onePollPeak(votes: number, traffic: PollTraffic): Peak {
  const routes = {
    pages: 0,
    pollReads: votes * traffic.pollReadsPerVote,
    votes,
    results: votes * traffic.resultsPerVote,
    creates: 0,
  };
  const requests = routes.pollReads + routes.votes + routes.results;
  return {
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
}
