/**
 * The other side of the question: what the same month needs on a VPS running the VPS edition,
 * at this app's measured capacity, and at what volume the serverless bill overtakes each tier.
 */
import { POLL_READ_CACHE_SECONDS, RESULTS_CACHE_SECONDS } from '../../config/caching';
import { CDN_PLANS, type CdnPlan } from './cdn';
import { cachedAtOrigin, cachePeriodsOfWatch, pollReadsPastCache } from './shares';
import { estimate } from './model';
import type { Bill, BillOptions } from './bill';
import { DAYS_PER_MONTH, SECONDS_PER_MONTH, type TrafficProfile } from '../usage/traffic-profile';
import type { UnitCosts } from '../usage/unit-costs';
import { derivePeak, type RouteRates } from '../usage/peaks';
import type { StackConfig } from './stack-config';
import {
  boxCapacity,
  requestsOf,
  VPS_MAX_UTILISATION,
  type BoxCapacity,
  type RequestMix,
  type VpsCapacity,
} from './vps';
import { BASELINE_VPS, ownTier, type VpsTier } from './vps-tiers';

/**
 * One VPS option for the month: one box of a tier, alone or behind a CDN, and whether its vCPUs carry
 * the profile's peak. One box: polls are not sharded across boxes.
 */
export interface VpsCost {
  tier: VpsTier;
  /** The CDN in front, and its bill for the month. */
  cdn?: { plan: CdnPlan; gb: number; usd: number };
  /** The tier, and the CDN's name after a +. */
  name: string;
  /** Requests a second that reach the box at the peak, route by route (past the CDN, if any). */
  origin: RequestMix;
  /** All of them. */
  loadRps: number;
  /** What the box serves of that mix, and what bounds it (cost/estimate/vps.ts boxCapacity). */
  box: BoxCapacity;
  /** The box carries the peak at VPS_MAX_UTILISATION at most. */
  carries: boolean;
  /** Its vCPUs would: what stops it, if anything, is this edition's writer, not the box. */
  coresCarry: boolean;
  /** The box's load at the peak over what it carries (above 1: it does not carry). */
  needs: number;
  /** Why it does not carry the peak; null when it does. */
  why: string | null;
  /** The load's share of the box's capacity. */
  utilisation: number;
  /** What the box sends in the month. */
  transferGb: number;
  overageUsd: number;
  /** The box, its overage and the CDN. */
  totalUsd: number;
  /** The tier's price per million requests when it runs at the utilisation ceiling. */
  usdPerMillionAtCeiling: number;
}

/** The month's requests as the VPS edition serves them: the site and the API on one origin, so no CORS preflights. */
export function vpsMix(bill: Bill): RequestMix {
  const u = bill.usage;
  return { pages: u.pageLoads, pollReads: u.pageLoads - u.polls, votes: u.votes + u.polls, results: u.resultsRequests };
}

/** Requests per second the VPS setup must carry for this month: the profile's busiest second (cost/usage/peaks.ts). */
export function designRps(profile: TrafficProfile): number {
  return derivePeak(profile).requestsPerSecond;
}

/** A second's routes as the VPS edition serves them: a create costs about a vote. */
const mixOf = (r: RouteRates): RequestMix => ({
  pages: r.pages,
  pollReads: r.pollReads,
  votes: r.votes + r.creates,
  results: r.results,
});

/**
 * The peak second past a CDN: each of a poll's caches asks for its page once (a year's s-maxage:
 * counted as all in this second, a bound), for the poll once per poll max-age and for its results once
 * per results max-age, for the polls open at once, the hottest at least; votes and creates pass through.
 */
export function originAtPeak(profile: TrafficProfile): RequestMix {
  const { routes, pollsOpenAtOnce } = derivePeak(profile);
  const polls = Math.max(1, pollsOpenAtOnce);
  return {
    ...mixOf(routes),
    pages: cachedAtOrigin(routes.pages, polls, 1),
    pollReads: cachedAtOrigin(routes.pollReads, polls, 1 / POLL_READ_CACHE_SECONDS),
    results: cachedAtOrigin(routes.results, polls, 1 / RESULTS_CACHE_SECONDS),
  };
}

/** A month's poll reads, and those a cache in front passes on: once per cache per poll max-age while a poll is open. */
export function pollReadsOfMonth(profile: TrafficProfile, bill: Bill): { all: number; pastCache: number } {
  const all = vpsMix(bill).pollReads;
  return { all, pastCache: pollReadsPastCache(all, bill.usage.polls, profile.votingMinutes, POLL_READ_CACHE_SECONDS) };
}

/** The month's requests past a CDN, the same way: the bytes the box still sends. */
function originOfMonth(profile: TrafficProfile, bill: Bill): RequestMix {
  const month = vpsMix(bill);
  const { polls, resultsRequests } = bill.usage;
  return {
    ...month,
    pages: cachedAtOrigin(month.pages, polls, 1),
    pollReads: pollReadsOfMonth(profile, bill).pastCache,
    results: cachedAtOrigin(resultsRequests, polls, cachePeriodsOfWatch(profile)),
  };
}

/** The bytes of a month's mix: the page, and each API answer. */
const gbOf = (mix: RequestMix, profile: TrafficProfile) =>
  (mix.pages * profile.pageBytes + (mix.pollReads + mix.votes + mix.results) * profile.apiResponseBytes) / 1e9;

/**
 * Whether one box of `tier` carries this load at the peak, and by how much it falls short if not: on
 * its vCPUs (the box's limit) or on this edition's writer (the edition's limit, whatever the box).
 */
function sizeFor(tier: VpsTier, origin: RequestMix, capacity: VpsCapacity) {
  const box = boxCapacity(tier, capacity, origin);
  const loadRps = requestsOf(origin);
  const needs = loadRps / (box.requestsPerSecond * VPS_MAX_UTILISATION);
  const carries = needs <= 1;
  const coresNeed = loadRps / (box.coresRequestsPerSecond * VPS_MAX_UTILISATION);
  const vcpus = `${tier.vcpu} ${tier.vcpuShare.kind}${tier.vcpu > 1 ? 's' : ''}`;
  // One process on a box of more vCPUs serves on one of them (--workers auto runs it there: sizing/vps-workers.ts).
  const serving =
    !box.workers && tier.vcpu > 1 ? `what one process serves of the box's ${vcpus}` : `the box's ${vcpus}`;
  const writer = box.writerRequestsPerSecond ?? Number.POSITIVE_INFINITY;
  const editionLimit =
    loadRps > writer * VPS_MAX_UTILISATION
      ? `this edition's writer (the primary that owns the log, on its one vCPU) serves at most ` +
        `${Math.round(writer * VPS_MAX_UTILISATION).toLocaleString('en-US')} req/s of this mix: the edition's limit, ` +
        'not the box’s'
      : '';
  const why = carries
    ? null
    : coresNeed > 1
      ? `needs ${coresNeed.toFixed(1)}x ${serving}${editionLimit ? `; and ${editionLimit}` : ''}`
      : `its ${vcpus} would carry it (${Math.round(coresNeed * 100)}% loaded), but ${editionLimit}`;
  return {
    origin,
    loadRps,
    box,
    carries,
    coresCarry: coresNeed <= 1,
    needs,
    why,
    utilisation: loadRps / box.requestsPerSecond,
  };
}

/**
 * One box of a tier for the profile's peak, alone or behind `cdn`: whether it carries what reaches
 * it, and its month: the box, transfer beyond what it includes, and the CDN's month.
 */
export function vpsCost(
  tier: VpsTier,
  profile: TrafficProfile,
  bill: Bill,
  capacity: VpsCapacity,
  cdn?: CdnPlan,
): VpsCost {
  const size = sizeFor(tier, cdn ? originAtPeak(profile) : mixOf(derivePeak(profile).routes), capacity);
  const transferGb = gbOf(cdn ? originOfMonth(profile, bill) : vpsMix(bill), profile);
  const overageUsd = Math.max(0, transferGb - tier.includedTransferGb) * tier.overageUsdPerGb;
  const cdnBill = cdn && cdnMonth(cdn, gbOf(vpsMix(bill), profile), requestsOf(vpsMix(bill)));
  return {
    tier,
    ...(cdnBill && { cdn: cdnBill }),
    name: cdn ? `${tier.name} + ${cdn.name}` : tier.name,
    ...size,
    transferGb,
    overageUsd,
    totalUsd: tier.monthlyUsd + overageUsd + (cdnBill?.usd ?? 0),
    usdPerMillionAtCeiling:
      tier.monthlyUsd / ((size.box.requestsPerSecond * VPS_MAX_UTILISATION * SECONDS_PER_MONTH) / 1e6),
  };
}

/** A CDN's month: every byte and request of the site passes through it. */
function cdnMonth(plan: CdnPlan, gb: number, requests: number) {
  const usd = plan.monthlyUsd + gb * plan.usdPerGb + (requests / 1e6) * plan.usdPerMillionRequests;
  return { plan, gb, usd: Math.max(plan.minimumMonthlyUsd, usd) };
}

/**
 * The tiers put behind each CDN plan for a profile: of the market's `tiers` (cheapest first), the cheapest,
 * the seed's $15 box, and the cheapest whose vCPUs carry what reaches it behind a CDN (mostly votes, whose
 * CPU its cores share), or the largest if none does.
 */
export function cdnFrontedTiers(profile: TrafficProfile, capacity: VpsCapacity, tiers: VpsTier[]): VpsTier[] {
  const origin = originAtPeak(profile);
  const sized = tiers.find((tier) => sizeFor(tier, origin, capacity).coresCarry);
  const largest = tiers.reduce((most, tier) =>
    tier.vcpu * tier.vcpuShare.factor > most.vcpu * most.vcpuShare.factor ? tier : most,
  );
  return [...new Set([tiers[0], BASELINE_VPS, sized ?? largest])];
}

/**
 * Every VPS option the report prices: the user's own box alone (the profile's vps), each of the market's `tiers`
 * alone (cost/estimate/vps-tiers.ts offersFor), then the fronted tiers behind each CDN plan.
 */
export function vpsOptions(profile: TrafficProfile, bill: Bill, capacity: VpsCapacity, tiers: VpsTier[]): VpsCost[] {
  return [
    ...(profile.vps ? [ownTier(profile.vps)] : []).map((tier) => vpsCost(tier, profile, bill, capacity)),
    ...tiers.map((tier) => vpsCost(tier, profile, bill, capacity)),
    ...cdnFrontedTiers(profile, capacity, tiers).flatMap((tier) =>
      CDN_PLANS.map((plan) => vpsCost(tier, profile, bill, capacity, plan)),
    ),
  ];
}

/**
 * The profile at `scale` times its volume: more polls of the same kind, spread
 * over the month: more polls open at once, so the derived peak (designRps) grows too.
 */
export function scaleProfile(profile: TrafficProfile, scale: number): TrafficProfile {
  return { ...profile, pollsPerDay: profile.pollsPerDay * scale };
}

/**
 * The scale that takes a month of `votes` to `target` votes; 0 when no scale does (no votes, or so few that
 * the ratio is past any number).
 */
export function volumeScale(target: number, votes: number): number {
  const scale = target / votes;
  return votes > 0 && Number.isFinite(scale) ? scale : 0;
}

export interface BreakEven {
  tier: VpsTier;
  /** The CDN in front of the box, when the break-even is with a fronted box. */
  cdn?: CdnPlan;
  /** Monthly votes at which serverless costs as much as this VPS setup; undefined if not within 1e3..1e11 votes. */
  votes?: number;
  usd?: number;
  /** There is a crossing, but the VPS setup does not carry that month's peak: no break-even to quote. */
  notCarried?: boolean;
}

/** Monthly volumes the break-even search spans, as powers of ten. */
const SEARCH_DECADES = { from: 3, to: 11 };
/** Its scan's step, in decades (a test in test/unit/cost/estimate/compare.test.ts puts an edge within one). */
const SCAN_STEP = 0.25;
/** Where a search stops: the two volumes bracketing its answer this close (the report shows 3 to 6 digits). */
const PRECISION = 1e-7;

/**
 * The first monthly volume at which serverless costs at least this VPS setup, quoted as a break-even
 * when the VPS carries that volume's peak. Each route of a derived peak grows with volume, so a box
 * that stops carrying does not carry again; while it carries, it costs its box and any transfer over
 * its allowance, and serverless gains on it with every vote (it pays for transfer too, and requests):
 * they cross there at most once, and a coarse scan finds the step it is in. Where the box stops
 * carrying within a step, the bills may have crossed just before: the edge is found, and the crossing.
 * (A peak pinned by peakRequestsPerSecond shifts between routes as volume grows; a test checks these
 * answers against a fine scan for pinned presets too.)
 */
export function breakEven(
  tier: VpsTier,
  profile: TrafficProfile,
  stack: StackConfig,
  capacity: VpsCapacity,
  units: UnitCosts,
  options: BillOptions,
  cdn?: CdnPlan,
): BreakEven {
  const box = cdn ? { tier, cdn } : { tier };
  const baseVotes = profile.pollsPerDay * DAYS_PER_MONTH * profile.votesPerPoll;
  if (volumeScale(1, baseVotes) === 0) return box;
  const at = (votes: number): Point => {
    const scaled = scaleProfile(profile, volumeScale(votes, baseVotes));
    const bill = estimate(scaled, stack, units, options);
    const vps = vpsCost(tier, scaled, bill, capacity, cdn);
    return { votes, diff: bill.totalUsd - vps.totalUsd, usd: bill.totalUsd, carries: vps.carries };
  };
  const volumes = Array.from(
    { length: (SEARCH_DECADES.to - SEARCH_DECADES.from) / SCAN_STEP + 1 },
    (_, i) => 10 ** (SEARCH_DECADES.from + i * SCAN_STEP),
  );
  /** The last volume scanned where the VPS carries and serverless still costs less. */
  let low: Point | undefined;
  for (const [i, volume] of volumes.entries()) {
    const high = at(volume);
    if (!high.carries) return pastCarrying(box, at, low, high, volumes.slice(i + 1));
    if (high.diff >= 0) return found(box, low ? solve(at, low, high) : high);
    low = high;
  }
  return box;
}

/**
 * The break-even where the box stops carrying between `low` (carried, serverless cheaper) and `high`:
 * the crossing before the edge, if the bills cross there; else whether they cross at all.
 */
function pastCarrying(
  box: Pick<BreakEven, 'tier' | 'cdn'>,
  at: (votes: number) => Point,
  low: Point | undefined,
  high: Point,
  later: number[],
): BreakEven {
  if (low) {
    const edge = lastCarried(at, low, high);
    if (edge.diff >= 0) return found(box, solve(at, low, edge));
  }
  const crosses = high.diff >= 0 || later.some((votes) => at(votes).diff >= 0);
  return crosses ? { ...box, notCarried: true } : box;
}

const found = (box: Pick<BreakEven, 'tier' | 'cdn'>, at: Point): BreakEven => ({
  ...box,
  votes: at.votes,
  usd: at.usd,
});

/** The two bills at a monthly volume: serverless's less the VPS's, and whether the VPS carries its peak. */
type Point = { votes: number; diff: number; usd: number; carries: boolean };

/**
 * The least volume (within PRECISION) where serverless costs at least the VPS, between `low` (less)
 * and `high` (at least): regula falsi with the Illinois step. Both bills are nearly straight lines in
 * volume, so it takes a few model runs where halving the bracket takes twenty; the Illinois step keeps
 * it shrinking from both ends, and a guess outside the bracket (a VPS step within it) falls back to halving.
 */
function solve(at: (votes: number) => Point, low: Point, high: Point): Point {
  let [lowDiff, highDiff] = [low.diff, high.diff];
  let kept: 'low' | 'high' | undefined;
  // Bounded all the same: at the bound, `high` is still a volume where serverless costs at least the VPS.
  for (let step = 0; step < 100 && high.votes / low.votes > 1 + PRECISION; step++) {
    const secant = high.votes - (highDiff * (high.votes - low.votes)) / (highDiff - lowDiff);
    const inside = secant > low.votes && secant < high.votes;
    const mid = at(inside ? secant : Math.sqrt(low.votes * high.votes));
    if (mid.diff >= 0) {
      [high, highDiff] = [mid, mid.diff];
      if (kept === 'low') lowDiff /= 2;
      kept = 'low';
    } else {
      [low, lowDiff] = [mid, mid.diff];
      if (kept === 'high') highDiff /= 2;
      kept = 'high';
    }
  }
  return high;
}

/** The last volume (within PRECISION) at which the VPS still carries, between one it carries and one it does not. */
function lastCarried(at: (votes: number) => Point, low: Point, high: Point): Point {
  for (let step = 0; step < 100 && high.votes / low.votes > 1 + PRECISION; step++) {
    const mid = at(Math.sqrt(low.votes * high.votes));
    if (mid.carries) low = mid;
    else high = mid;
  }
  return low;
}
