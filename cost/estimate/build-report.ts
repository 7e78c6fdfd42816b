import { RAISE_HEADROOM, type Capacity } from './capacity';
import type { Account } from './stages';
import {
  awsFloor,
  recommend,
  type CheaperWithQuotaRaises,
  designCapacity,
  designOf,
  floodCeiling,
  priceDesigns,
  type FloodCeiling,
  type PricedDesign,
} from './designs';
import type { CloudWatchBill } from './cloudwatch-bill';
import { CDN_ORIGIN_ASSUMPTION, CDN_PLANS } from './cdn';
import { type ConsumerRamp, consumerRamp } from './consumer-ramp';
import { breakEven, designRps, vpsOptions, type BreakEven, type VpsCost } from './compare';
import { percent, quantity } from './format';
import { averagePollVotesPerSecond } from './shares';
import { estimate } from './model';
import { perMillion, type Bill, type BillOptions } from './bill';
import { batchCycleMs, type UnitCosts } from '../usage/unit-costs';
import { derivePeak, peakWorking, type Peak } from '../usage/peaks';
import { NEW_ACCOUNT_CREDITS } from '../../pricing/plans-and-credits';
import { conversion, fromUsd } from '../../pricing/exchange-rates';
import type { TrafficProfile } from '../usage/traffic-profile';
import type { VoteRates } from '../../config/vote-rates';
import type { NotPriced, StackConfig } from './stack-config';
import { VPS_MAX_UTILISATION, type VpsCapacity } from './vps';
import { BASELINE_VPS, DEDICATED_VCPU, EURO_RATE, type Offers, offersFor, SHARED_VCPU } from './vps-tiers';
import { whatIfs, type WhatIf } from './what-ifs';
import { type ManagedInstancesWhatIf, managedInstancesWhatIfs } from './managed-instances';
import { voteRates } from '../../sizing/vote-rates';

export interface DesignRow extends PricedDesign {
  /** Undefined in a month with no requests. */
  usdPerMillionRequests?: number;
  /** The design's bill over the AWS floor. */
  /** Undefined when the floor is $0 (no requests). */
  overFloor?: number;
  breakEven: BreakEven;
  /** Whether it carries the profile's busiest second, and what would make it (cost/estimate/capacity.ts). */
  capacity: Capacity;
}

/**
 * The answer to the question the report is for, in one place (the text, the explorer and the docs say it
 * from these figures): the recommended design beside the cheapest VPS box that carries the peak, which
 * costs less, and the one break-even, between those two.
 */
export interface Answer {
  /**
   * The user's own box where the profile gives one (--vps); else the cheapest VPS row that carries the peak;
   * where none does, the nearest (`vpsCarries` false).
   */
  vps: VpsCost;
  vpsCarries: boolean;
  /** Beside the user's box: the cheapest listed row that carries the peak, where it costs less or theirs does not. */
  listed?: VpsCost;
  /** The side that costs less a month among those that carry the peak; `neither` when no side carries it. */
  cheaper: 'aws' | 'vps' | 'neither';
  /** How much less a month, where both sides carry the peak. */
  savingUsd?: number;
  /** Where the recommended design's bill crosses that box's month; none quoted where the box does not carry. */
  breakEven: BreakEven;
}

export interface CostReport {
  profile: TrafficProfile;
  /** The stack the bill is for: what cdk.out/ (or --template) holds, else the default design. */
  stack: StackConfig;
  stackSource: string;
  /** What that template holds and the bill does not price, by type and logical id (never a silent $0). */
  notPriced?: NotPriced[];
  /** Each deployable design's own template, as read (the verdicts are for these). */
  designStacks: Record<string, StackConfig>;
  /** The deployable design that stack is, when it is one. */
  design?: string;
  options: BillOptions;
  units: UnitCosts;
  bill: Bill;
  /** The same stack deployed with no traffic at all: what it costs to leave it up. */
  idle: Bill;
  /** Every design, its price per million of the requests browsers send (the same denominator for all). */
  designs: DesignRow[];
  /**
   * The cheapest design that carries the peak without a quota raise (deployed with its flags), else the
   * cheapest that carries with raises, else the cheapest; see `carries`.
   */
  recommended: DesignRow & { carries: boolean };
  /** A design cheaper than the recommendation once AWS grants quota raises; null when none is. */
  cheaperWithQuotaRaises: CheaperWithQuotaRaises | null;
  /** The busiest second the profile brings, derived from its fields (cost/usage/peaks.ts), with its working. */
  peak: Peak & { working: string[] };
  /**
   * The vote path's rates on this stack (cost/estimate/rates.ts) for the average poll over its window (the month's
   * bill) and the hottest at its busiest minute (the capacity verdict).
   */
  voteRates: Record<'average' | 'hottest', VoteRates & { votesPerSecond: number }>;
  /** The account the verdicts are for: --new-account means a new account's quotas too. */
  account: Account;
  /**
   * The recommended deployment's vote consumer from idle to the peak (cost/estimate/consumer-ramp.ts); none where
   * the event source's first batches carry it.
   */
  consumerRamp?: ConsumerRamp;
  floor: ReturnType<typeof awsFloor>;
  /** The function-URL design's worst case: a flood at its concurrency cap. */
  flood?: FloodCeiling;
  vpsCapacity: VpsCapacity;
  /** The VPS offers weighed: those of the market of the Region priced, and the seed's reference. */
  offers: Offers;
  vps: VpsCost[];
  designRps: number;
  answer: Answer;
  /**
   * The answer's months in the profile's currency (report.json keeps every figure in dollars and adds these), with
   * the rate they were converted at; none in dollars.
   */
  inCurrency?: InCurrency;
  /** Break-even of this stack with each VPS tier weighed. */
  breakEven: BreakEven[];
  whatIfs: WhatIf[];
  /** The function-URL design's functions on Lambda Managed Instances, priced against its own bill (a what-if). */
  managedInstances?: { design: string; baselineUsd: number; whatIfs: ManagedInstancesWhatIf[] };
  assumptions: string[];
  measured?: { label: string; votes: number; apiRequests: number };
  /** What a deployed stack measured (--from-cloudwatch), beside this profile's estimate: the profile fitted to it. */
  cloudWatch?: CloudWatchBill;
}

/** The answer's months in another currency than the dollar, and the rate they were converted at. */
export type InCurrency = ReturnType<typeof conversion> & {
  answer: { awsMonthly: number; vpsMonthly: number; saving?: number };
};

/** The answer's months in `currency`, where it is not the dollar. */
function inCurrencyOf(currency: string | undefined, aws: DesignRow, answer: Answer): InCurrency | undefined {
  if (!currency || currency === 'USD') return undefined;
  const local = (usd: number) => fromUsd(usd, currency);
  return {
    ...conversion(currency),
    answer: {
      awsMonthly: local(aws.bill.totalUsd),
      vpsMonthly: local(answer.vps.totalUsd),
      ...(answer.savingUsd !== undefined && { saving: local(answer.savingUsd) }),
    },
  };
}

/** Below this many votes, per-vote figures measured by a load test are rough: the report says so. */
export const MIN_MEASURED_VOTES = 1000;

/** What a report is built from: the profile, the stack to bill, every design's stack, the VPS, the figures. */
export interface ReportInput {
  profile: TrafficProfile;
  stack: StackConfig;
  stackSource: string;
  notPriced?: NotPriced[];
  /** Each deployable design's stack, read from its own template. */
  designStacks: Record<string, StackConfig>;
  vpsCapacity: VpsCapacity;
  units: UnitCosts;
  options: BillOptions;
  measured?: CostReport['measured'];
  cloudWatch?: CloudWatchBill;
}

/** Every assumption the bill rests on, once each: its lines', the unit costs', the VPS sizing's, the free tiers'. */
function assumptionsOf(input: ReportInput, bill: Bill): string[] {
  const { units, options, measured } = input;
  return [
    ...new Set([
      ...bill.lines.filter((l) => l.assumption).map((l) => `${l.service} ${l.item}: ${l.assumption}`),
      ...Object.entries(units.sources)
        .filter(([, source]) => source.startsWith('assumption'))
        .map(([key, source]) => `${key}: ${source.replace(/^assumption: /, '')}`),
      `VPS sizing: one box carries at most ${percent(VPS_MAX_UTILISATION)} of its capacity at the design rate, ` +
        "the profile's busiest second (derived from its fields: cost/usage/peaks.ts): 1 / the AWS side's quota " +
        `headroom of ${RAISE_HEADROOM}x; polls are not sharded across boxes, so past one box no VPS row carries`,
      ...[SHARED_VCPU, DEDICATED_VCPU].map(
        (share) =>
          `VPS vCPUs: a ${share.kind}, counted at ${share.factor} of the vCPU bench:vps measured: ` +
          `${share.assumption} ` +
          `(${share.source}; checked ${share.checked})`,
      ),
      `VPS prices in euros (Hetzner) in dollars at ${EURO_RATE}, pricing/exchange-rates.json; Hetzner's 2026-06 ` +
        'raise applied to every CCX size as a third-party note gives it for the CCX13: an assumption, said in each ' +
        "tier's source (cost/estimate/vps-tiers.ts)",
      ...CDN_PLANS.filter((plan) => plan.assumption).map((plan) => `${plan.name}: ${plan.assumption}`),
      CDN_ORIGIN_ASSUMPTION,
      options.newAccount
        ? `a new account's $${NEW_ACCOUNT_CREDITS.usd} of sign-up credits are shown under the bill, taken off ` +
          'its first month only: designs are ranked and break-evens found on the months after'
        : `a new account's sign-up credits ($${NEW_ACCOUNT_CREDITS.usd} since ${NEW_ACCOUNT_CREDITS.since}, in ` +
          'place of the 12-month free tiers) are not counted (--new-account to count them); the always-free tiers are',
      ...(measured && measured.votes < MIN_MEASURED_VOTES
        ? [
            `measured from only ${measured.votes} vote(s) (${measured.label}): per-vote figures from fewer than ` +
              `${MIN_MEASURED_VOTES.toLocaleString('en-US')} votes are rough, ` +
              `and are scaled here to ${quantity(bill.votes)}; run a longer scenario (npm run load -- vote-storm)`,
          ]
        : []),
    ]),
  ];
}

/** The what-if on the function-URL design, where the designs include it. */
function managedInstancesOf(designs: DesignRow[], input: ReportInput): CostReport['managedInstances'] {
  const design = designs.find((d) => d.id === 'function-url');
  if (!design) return undefined;
  const { profile, units, options, vpsCapacity } = input;
  const micros = vpsCapacity.measurement.cpu.plain.oneProcess;
  return {
    design: design.name,
    baselineUsd: design.bill.totalUsd,
    whatIfs: managedInstancesWhatIfs(profile, design.stack, units, options, micros, design.bill),
  };
}

/** The answer: the recommended design against the cheapest box that carries the peak (cost/estimate/compare.ts). */
function answerOf(input: ReportInput, recommended: DesignRow & { carries: boolean }, vps: VpsCost[]): Answer {
  const byMonth = (rows: VpsCost[]) => [...rows].sort((a, b) => a.totalUsd - b.totalUsd);
  const yours = vps.find((v) => v.tier.yours);
  const listed = byMonth(vps.filter((v) => v.carries && !v.tier.yours))[0];
  const carrying = yours ? (yours.carries ? yours : undefined) : listed;
  const box = yours ?? carrying ?? [...vps].sort((a, b) => a.needs - b.needs || a.totalUsd - b.totalUsd)[0];
  const aws = recommended.bill.totalUsd;
  const both = Boolean(carrying) && recommended.carries;
  const cheaper = both
    ? aws <= box.totalUsd
      ? 'aws'
      : 'vps'
    : carrying
      ? 'vps'
      : recommended.carries
        ? 'aws'
        : 'neither';
  const { profile, vpsCapacity, units, options } = input;
  return {
    vps: box,
    vpsCarries: Boolean(carrying),
    ...(yours && listed && (!yours.carries || listed.totalUsd < yours.totalUsd) && { listed }),
    cheaper,
    ...(both && { savingUsd: Math.abs(aws - box.totalUsd) }),
    breakEven: carrying
      ? breakEven(box.tier, profile, recommended.stack, vpsCapacity, units, options, box.cdn?.plan)
      : { tier: box.tier, ...(box.cdn && { cdn: box.cdn.plan }) },
  };
}

const ratesAt = (votesPerSecond: number, stack: StackConfig, units: UnitCosts) => ({
  votesPerSecond,
  ...voteRates(votesPerSecond, stack, batchCycleMs(units), units),
});

/** The whole report for one profile: the bill, every design, the floor, the VPS tiers, the what-ifs. */
export function buildReport(input: ReportInput): CostReport {
  const { profile, stack, units, options, vpsCapacity } = input;
  const bill = estimate(profile, stack, units, options);
  const design = designOf(stack);
  // The stack read (cdk.out/) stands for its design: the bill and its row agree.
  const stacks = design ? { ...input.designStacks, [design.id]: stack } : input.designStacks;
  const floor = awsFloor(bill, options.book);
  const peak = derivePeak(profile);
  const account: Account = options.newAccount ? 'new' : 'established';
  const designs: DesignRow[] = priceDesigns(profile, stacks, units, options)
    .map((d) => {
      const capacity = designCapacity(d, input.designStacks[d.id], peak, units, {
        account,
        profile,
        region: options.book.region,
      });
      // Billed as its deploy command builds it: the flags that make it carry change its message groups and
      // counter keys, and so what a vote writes.
      const deployed = capacity.carriesWith ? capacity.sizedStack : d.stack;
      const priced = deployed === d.stack ? d.bill : estimate(profile, deployed, units, options);
      return {
        ...d,
        stack: deployed,
        bill: priced,
        usdPerMillionRequests: perMillion(priced.totalUsd, floor.requests),
        overFloor: floor.usd > 0 ? priced.totalUsd / floor.usd : undefined,
        breakEven: breakEven(BASELINE_VPS, profile, deployed, vpsCapacity, units, options),
        capacity,
      };
    })
    .sort((a, b) => a.bill.totalUsd - b.bill.totalUsd);
  const chosen = recommend(designs);
  const assumptions = assumptionsOf(input, bill);
  const offers = offersFor(options.book.region);
  const vps = vpsOptions(profile, bill, vpsCapacity, offers.tiers);
  const answer = answerOf(input, chosen.recommended, vps);
  const inCurrency = inCurrencyOf(profile.currency, chosen.recommended, answer);
  return {
    ...input,
    design: design?.id,
    bill,
    idle: estimate({ ...profile, pollsPerDay: 0 }, stack, units, options),
    designs,
    ...chosen,
    peak: { ...peak, working: peakWorking(profile, peak) },
    // For the recommended deployment: its groups and counter keys set what a vote writes.
    voteRates: {
      average: ratesAt(averagePollVotesPerSecond(profile), chosen.recommended.stack, units),
      hottest: ratesAt(peak.hottestPoll.votesPerSecond, chosen.recommended.stack, units),
    },
    account,
    consumerRamp: consumerRamp(chosen.recommended.stack, peak, units, options.book),
    floor,
    flood: designs.map((d) => floodCeiling(d.stack, profile, units, options.book)).find(Boolean),
    offers,
    vps,
    designRps: designRps(profile),
    answer,
    ...(inCurrency && { inCurrency }),
    // The baseline's is the row's of the design this stack is, when it is one: searched once.
    breakEven: offers.tiers.map(
      (tier) =>
        (tier === BASELINE_VPS && designs.find((d) => d.stack === stack)?.breakEven) ||
        breakEven(tier, profile, stack, vpsCapacity, units, options),
    ),
    whatIfs: whatIfs(profile, stack, units, options, bill),
    managedInstances: managedInstancesOf(designs, input),
    assumptions,
  };
}
