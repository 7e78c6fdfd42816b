/**
 * The VPS side (cost/compare.ts): the boxes a month needs at this app's measured capacity, what
 * they cost, and where the serverless bill overtakes them, checked against arithmetic by hand.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { RESULTS_CACHE_SECONDS } from '../../config/app-config';
import { CDN_PLANS } from '../../cost/cdn';
import { breakEven, originAtPeak, scaleProfile, vpsCost, vpsMix, vpsOptions } from '../../cost/compare';
import { CACHE_ORIGINS_PER_POLL, estimate } from '../../cost/model';
import { derivePeak } from '../../cost/peaks';
import { PROFILES, validateProfile } from '../../cost/profiles';
import { BASELINE_VPS, VPS_MAX_UTILISATION, VPS_TIERS, type VpsCapacity, type VpsMeasurement } from '../../cost/vps';
import { designStack } from '../support/cost';

const stack = designStack();

/** A measurement with round figures, so VPS sizing is arithmetic by hand (the committed one moves with each run). */
const rate = (requestsPerSecond: number) => ({
  method: 'GET',
  path: '',
  requestsPerSecond,
  latencyMs: { p50: 1, p97_5: 2, p99: 3, max: 4 },
  requests: 0,
  non2xx: 0,
  errors: 0,
});
const measurement: VpsMeasurement = {
  what: 'test',
  date: '2026-11-22',
  machine: { cpus: 2, model: 'test', os: 'test', node: 'v20' },
  command: 'test',
  bare: rate(40_000),
  routes: { options: rate(20_000), page: rate(20_000), vote: rate(10_000), results: rate(20_000) },
  optionsShareOfBare: 0.5,
  votes: { acknowledged: 1, counted: 1 },
};
const capacity: VpsCapacity = { measurement, source: 'test' };

/** Seconds one process of the round-figure measurement spends on a second of this mix. */
const secondsOf = (r: { pages: number; pollReads: number; votes: number; results: number; creates: number }) =>
  (r.pages + r.pollReads + r.results) / 20_000 + (r.votes + r.creates) / 10_000;
const committed: VpsCapacity = {
  measurement: JSON.parse(readFileSync('cost/vps-capacity.json', 'utf8')),
  source: 'cost/vps-capacity.json',
};

describe('the same month on a VPS', () => {
  const bill = estimate(PROFILES.seed, stack);
  const peak = derivePeak(PROFILES.seed);

  it('sizes the VPS for the peak’s route mix at the measured capacity, and finds where serverless overtakes it', () => {
    const vps = vpsCost(BASELINE_VPS, PROFILES.seed, bill, capacity);
    // The peak's routes at the round rates: creates cost a vote.
    const capacityRps = peak.requestsPerSecond / secondsOf(peak.routes);
    expect(vps.capacityRps).toBeCloseTo(capacityRps, 6);
    expect(vps.loadRps).toBeCloseTo(peak.requestsPerSecond, 6);
    expect(peak.requestsPerSecond).toBeLessThan(capacityRps * VPS_MAX_UTILISATION);
    expect(vps).toMatchObject({ boxes: 1, processes: 1, carries: true, why: null, overageUsd: 0, totalUsd: 15 });
    expect(vps.utilisation).toBeCloseTo(peak.requestsPerSecond / capacityRps, 9);
    expect(vps.usdPerMillionAtCeiling).toBeCloseTo(15 / ((capacityRps * VPS_MAX_UTILISATION * 2_592_000) / 1e6), 9);
    const even = breakEven(BASELINE_VPS, PROFILES.seed, stack, capacity);
    expect(even.votes).toBeGreaterThan(1e5);
    expect(even.votes).toBeLessThan(15e6);
    // At the break-even volume the two bills match.
    const scaled = { ...PROFILES.seed, pollsPerDay: (PROFILES.seed.pollsPerDay * even.votes!) / 15e6 };
    const scaledBill = estimate(scaled, stack);
    expect(scaledBill.totalUsd).toBeCloseTo(vpsCost(BASELINE_VPS, scaled, scaledBill, capacity).totalUsd, 2);
  });

  it('finds the first crossing while the VPS carries, also when the box stops carrying just past it', () => {
    // Small polls: more volume is more polls open at once, so the peak grows with it.
    const small = { ...PROFILES.seed, votesPerPoll: 100, resultsViewersPerPoll: 100 };
    const votes = (v: number) => scaleProfile(small, v / (small.pollsPerDay * 30 * small.votesPerPoll));
    const crossing = breakEven(BASELINE_VPS, small, stack, capacity).votes!;
    // A capacity whose box stops carrying between the crossing and the break-even scan's next volume.
    const nextScanned = 10 ** (Math.ceil(Math.log10(crossing) * 4) / 4);
    const edge = Math.sqrt(crossing * nextScanned);
    const atEdge = vpsCost(BASELINE_VPS, votes(edge), estimate(votes(edge), stack), capacity);
    const scale = (1.0001 * atEdge.loadRps) / (atEdge.capacityRps * VPS_MAX_UTILISATION);
    const routes = Object.fromEntries(
      Object.entries(measurement.routes).map(([name, r]) => [
        name,
        { ...r, requestsPerSecond: r.requestsPerSecond * scale },
      ]),
    ) as VpsMeasurement['routes'];
    const smaller: VpsCapacity = { measurement: { ...measurement, routes }, source: 'test' };
    const carriesAt = (v: number) => vpsCost(BASELINE_VPS, votes(v), estimate(votes(v), stack), smaller).carries;
    expect([carriesAt(crossing), carriesAt(edge), carriesAt(edge * 1.01), carriesAt(nextScanned)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    // One box costs the same whatever it serves: the same crossing, quoted though the box stops carrying soon after.
    const even = breakEven(BASELINE_VPS, small, stack, smaller);
    expect(even.notCarried).toBeUndefined();
    expect(even.votes! / crossing).toBeCloseTo(1, 6);
  });

  it('quotes the first crossing a fine scan finds, when the VPS carries there, for presets and pinned peaks', () => {
    const pinned = (name: string) =>
      validateProfile({ ...PROFILES[name], peakRequestsPerSecond: 10 * derivePeak(PROFILES[name]).requestsPerSecond });
    const profiles = [...Object.values(PROFILES), pinned('seed'), pinned('tv-show'), pinned('club')];
    const quoted = { votes: 0, notCarried: 0, none: 0 };
    for (const profile of profiles)
      for (const tier of VPS_TIERS) {
        const base = profile.pollsPerDay * 30 * profile.votesPerPoll;
        const gapAt = (votes: number) => {
          const scaled = scaleProfile(profile, votes / base);
          const bill = estimate(scaled, stack);
          const vps = vpsCost(tier, scaled, bill, committed);
          return { votes, diff: bill.totalUsd - vps.totalUsd, carries: vps.carries };
        };
        // A hundred volumes a decade: the first at which serverless costs at least the VPS.
        const fine = Array.from({ length: 801 }, (_, i) => gapAt(10 ** (3 + i / 100)));
        const first = fine.findIndex((g) => g.diff >= 0);
        const even = breakEven(tier, profile, stack, committed);
        const what = `${profile.name}${profile.peakRequestsPerSecond ? ' pinned' : ''}, ${tier.name}`;
        if (first < 0) expect(even, what).toEqual({ tier });
        else if (!fine[first].carries) expect(even, what).toEqual({ tier, notCarried: true });
        else {
          expect(even.votes, what).toBeGreaterThan(first > 0 ? fine[first - 1].votes : 0);
          expect(even.votes, what).toBeLessThanOrEqual(fine[first].votes);
        }
        quoted[first < 0 ? 'none' : fine[first].carries ? 'votes' : 'notCarried']++;
      }
    // Both kinds of answer are among them (every bill crosses below 100 B votes: none has no crossing).
    expect(quoted).toMatchObject({ votes: expect.any(Number), notCarried: expect.any(Number), none: 0 });
    expect(Math.min(quoted.votes, quoted.notCarried)).toBeGreaterThan(0);
  });

  it('prices a row that needs more than one process for its boxes, and says it does not carry the peak', () => {
    const tv = PROFILES['tv-show'];
    const tvPeak = derivePeak(tv);
    const processes = Math.ceil(secondsOf(tvPeak.routes) / VPS_MAX_UTILISATION);
    expect(processes).toBeGreaterThan(1);
    const row = vpsCost(VPS_TIERS[0], tv, estimate(tv, stack), capacity);
    expect(row).toMatchObject({ processes, boxes: processes, carries: false });
    expect(row.why).toBe(`needs ${processes} processes: one process serves every poll; sharding is not built`);
    expect(row.totalUsd).toBe(processes * VPS_TIERS[0].monthlyUsd + row.overageUsd);
  });

  it('runs one process per box whatever its vCPUs: the 4-vCPU tier needs as many boxes as the 1-vCPU one', () => {
    const tv = PROFILES['tv-show'];
    const four = VPS_TIERS.find((tier) => tier.vcpu === 4)!;
    const one = vpsCost(VPS_TIERS[0], tv, estimate(tv, stack), capacity);
    const big = vpsCost(four, tv, estimate(tv, stack), capacity);
    expect(big.boxes).toBe(one.boxes);
    expect(big.totalUsd).toBe(one.boxes * four.monthlyUsd + big.overageUsd);
  });

  it('caches results and the page in front of the VPS: the origin gets 13 asks per poll open per max-age', () => {
    const origin = originAtPeak(PROFILES.seed);
    const polls = Math.max(1, peak.pollsOpenAtOnce);
    expect(origin.results).toBeCloseTo((polls * CACHE_ORIGINS_PER_POLL) / RESULTS_CACHE_SECONDS, 9);
    expect(origin.results).toBeLessThan(peak.routes.results);
    // Poll reads, votes and creates pass through.
    expect(origin).toMatchObject({ pollReads: peak.routes.pollReads, votes: peak.routes.votes + peak.routes.creates });
    // The hottest poll at least, when fewer than one is open on average.
    expect(originAtPeak(PROFILES['tv-show']).results).toBeCloseTo(CACHE_ORIGINS_PER_POLL / RESULTS_CACHE_SECONDS, 9);
  });

  it('prices each CDN row from the plan’s data: the boxes, their overage, and the CDN’s bytes', () => {
    const month = vpsMix(bill);
    const gb =
      (month.pages * PROFILES.seed.pageBytes) / 1e9 +
      ((month.pollReads + month.votes + month.results) * PROFILES.seed.apiResponseBytes) / 1e9;
    for (const plan of CDN_PLANS) {
      const row = vpsCost(VPS_TIERS[0], PROFILES.seed, bill, capacity, plan);
      const cdnUsd = Math.max(plan.minimumMonthlyUsd, plan.monthlyUsd + gb * plan.usdPerGb);
      expect(row.name).toBe(`${VPS_TIERS[0].name} + ${plan.name}`);
      expect(row.cdn!.usd).toBeCloseTo(cdnUsd, 9);
      expect(row.totalUsd).toBeCloseTo(row.boxes * VPS_TIERS[0].monthlyUsd + row.overageUsd + cdnUsd, 9);
    }
    expect(CDN_PLANS.some((plan) => plan.usdPerGb === 0 && plan.usdPerMillionRequests === 0)).toBe(true);
    expect(CDN_PLANS.some((plan) => plan.usdPerGb > 0)).toBe(true);
  });
});

describe('which VPS rows carry the presets, at the committed measurement', () => {
  const rows = (name: string) => vpsOptions(PROFILES[name], estimate(PROFILES[name], stack), committed);
  const { routes } = committed.measurement;

  it('seed: every row carries its peak on one process, with a CDN or without', () => {
    const seed = rows('seed');
    expect(seed.length).toBe(VPS_TIERS.length + 2 * CDN_PLANS.length);
    expect(seed.filter((v) => !v.carries)).toEqual([]);
  });

  it('tv-show: no plain row carries it, and behind a CDN its 10,000 votes a second alone pass the ceiling', () => {
    const tv = rows('tv-show');
    const peak = derivePeak(PROFILES['tv-show']);
    expect(tv.filter((v) => !v.cdn).every((v) => !v.carries && v.boxes > 1)).toBe(true);
    for (const v of tv.filter((row) => row.cdn)) {
      const origin = originAtPeak(PROFILES['tv-show']);
      expect(v.loadRps).toBeCloseTo(origin.pages + origin.pollReads + origin.votes + origin.results, 6);
      // What no cache takes: the votes, at the measured vote rate, more than half a process by themselves.
      expect(peak.routes.votes).toBeGreaterThan(routes.vote.requestsPerSecond * VPS_MAX_UTILISATION);
      expect(v.carries).toBe(false);
    }
  });
});
