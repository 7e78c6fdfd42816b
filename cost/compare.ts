/**
 * The other side of the question: what the same month needs on a VPS running the VPS edition,
 * at this app's measured capacity, and at what volume the serverless bill overtakes each tier.
 */
import { estimate, SECONDS_PER_MONTH, type Bill, type BillOptions, type UnitCosts } from './model';
import { derivePeak } from './peaks';
import type { TrafficProfile } from './profiles';
import type { StackConfig } from './stack-config';
import {
  PROCESSES_PER_BOX,
  processCapacity,
  VPS_MAX_UTILISATION,
  type RequestMix,
  type VpsCapacity,
  type VpsTier,
} from './vps';

export interface VpsCost {
  tier: VpsTier;
  /** What one box serves of this month's mix, per second (the measured process). */
  capacityRps: number;
  boxes: number;
  /** The design rate's share of the boxes' capacity. */
  utilisation: number;
  transferGb: number;
  overageUsd: number;
  totalUsd: number;
  /** The tier's price per million requests when it runs at the utilisation ceiling. */
  usdPerMillionAtCeiling: number;
}

/** The month's requests as the VPS edition serves them: the site and the API on one origin, so no CORS preflights. */
export function vpsMix(bill: Bill): RequestMix {
  const u = bill.usage;
  return { pages: u.pageLoads, pollReads: u.pageLoads - u.polls, votes: u.votes + u.polls, results: u.resultsRequests };
}

/** Requests per second the VPS setup must carry for this month: the profile's busiest second (cost/peaks.ts). */
export function designRps(profile: TrafficProfile): number {
  return derivePeak(profile).requestsPerSecond;
}

/** Boxes for the design rate (at the utilisation ceiling), plus transfer beyond what they include. */
export function vpsCost(tier: VpsTier, profile: TrafficProfile, bill: Bill, capacity: VpsCapacity): VpsCost {
  const mix = vpsMix(bill);
  const capacityRps = processCapacity(capacity, mix) * PROCESSES_PER_BOX;
  const rate = designRps(profile);
  const boxes = Math.max(1, Math.ceil(rate / (capacityRps * VPS_MAX_UTILISATION)));
  // The VPS sends the same bytes: the page, and each API answer.
  const transferGb =
    (mix.pages * profile.pageBytes + (mix.pollReads + mix.votes + mix.results) * profile.apiResponseBytes) / 1e9;
  const overageUsd = Math.max(0, transferGb - boxes * tier.includedTransferGb) * tier.overageUsdPerGb;
  return {
    tier,
    capacityRps,
    boxes,
    utilisation: rate / (boxes * capacityRps),
    transferGb,
    overageUsd,
    totalUsd: boxes * tier.monthlyUsd + overageUsd,
    usdPerMillionAtCeiling: tier.monthlyUsd / ((capacityRps * VPS_MAX_UTILISATION * SECONDS_PER_MONTH) / 1e6),
  };
}

/**
 * The profile at `scale` times its volume: more polls of the same kind, spread
 * over the month. The hot-poll peak stays; the average (and so designRps) grows.
 */
export function scaleProfile(profile: TrafficProfile, scale: number): TrafficProfile {
  return { ...profile, pollsPerDay: profile.pollsPerDay * scale };
}

export interface BreakEven {
  tier: VpsTier;
  /** Monthly votes at which serverless costs as much as this VPS setup; undefined if not within 1e3..1e11 votes. */
  votes?: number;
  usd?: number;
}

/**
 * Scans monthly volume on a log grid (the VPS cost is a step function, the
 * serverless one nearly linear), then bisects the first crossing.
 */
export function breakEven(
  tier: VpsTier,
  profile: TrafficProfile,
  stack: StackConfig,
  capacity: VpsCapacity,
  units?: UnitCosts,
  options?: BillOptions,
): BreakEven {
  const baseVotes = profile.pollsPerDay * 30 * profile.votesPerPoll;
  if (baseVotes === 0) return { tier };
  const gap = (votes: number) => {
    const scaled = scaleProfile(profile, votes / baseVotes);
    const bill = estimate(scaled, stack, units, options);
    return { diff: bill.totalUsd - vpsCost(tier, scaled, bill, capacity).totalUsd, usd: bill.totalUsd };
  };
  let low = 1e3;
  if (gap(low).diff >= 0) return { tier, votes: low, usd: gap(low).usd };
  for (let exponent = 3.05; exponent <= 11.0001; exponent += 0.05) {
    const high = 10 ** exponent;
    if (gap(high).diff >= 0) return bisect(gap, low, high, tier);
    low = high;
  }
  return { tier };
}

function bisect(
  gap: (votes: number) => { diff: number; usd: number },
  low: number,
  high: number,
  tier: VpsTier,
): BreakEven {
  for (let i = 0; i < 40; i++) {
    const mid = Math.sqrt(low * high);
    if (gap(mid).diff >= 0) high = mid;
    else low = mid;
  }
  return { tier, votes: high, usd: gap(high).usd };
}
