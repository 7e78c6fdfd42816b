/**
 * The VPS side (cost/estimate/compare.ts): whether one box of each tier carries a month's peak, from the CPU a
 * request costs, what it costs, and where the serverless bill overtakes it, checked against arithmetic by hand.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { POLL_READ_CACHE_SECONDS, RESULTS_CACHE_SECONDS } from '../../../../config/caching';
import { CDN_PLANS } from '../../../../cost/estimate/cdn';
import {
  breakEven,
  cdnFrontedTiers,
  originAtPeak,
  scaleProfile,
  vpsCost,
  vpsMix,
  vpsOptions,
} from '../../../../cost/estimate/compare';
import { CACHE_ORIGINS_PER_POLL } from '../../../../cost/estimate/shares';
import { estimate } from '../../../../cost/estimate/model';
import { derivePeak } from '../../../../cost/usage/peaks';
import { PROFILES, validateProfile } from '../../../../cost/usage/profiles';
import {
  boxCapacity,
  DEPLOYED_TLS,
  pricedTls,
  VPS_MAX_UTILISATION,
  workerGrowth,
  type SetupMicros,
  type VpsCapacity,
  type VpsMeasurement,
} from '../../../../cost/estimate/vps';
import {
  BASELINE_VPS,
  DEDICATED_VCPU,
  SHARED_VCPU,
  VPS_TIERS,
  type VpsTier,
} from '../../../../cost/estimate/vps-tiers';
import { designStack } from '../../../support/cost';
import { BILL } from '../../../support/prices';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { autoWorkers } from '../../../../sizing/vps-workers';

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
/** µs of CPU a request, round: a vote costs twice a read; two workers cost a quarter more than one process. */
const micros = (read: number) => ({ options: read, page: read, vote: 2 * read, results: read });
/** A set-up's figures: one process and two workers, a bare server at half a read. */
const setup = (one: number, two: number): SetupMicros => ({
  oneProcess: micros(one),
  workers: micros(two),
  bare: { oneProcess: one / 2, workers: two / 2 },
});
const NONE_MEASURED = { caddy: null, caddyKeepAlive: null, nginx: null, node: null };
const measurement: VpsMeasurement = {
  what: 'test',
  date: '2026-11-22',
  machine: { cpus: 2, model: 'test', os: 'test', node: 'v20' },
  command: 'test',
  bare: rate(40_000),
  routes: { options: rate(20_000), page: rate(20_000), vote: rate(10_000), results: rate(20_000) },
  optionsShareOfBare: 0.5,
  votes: { acknowledged: 1, counted: 1 },
  cpu: {
    what: 'test: round figures',
    plain: setup(30, 35),
    // The deployed set-up (DEPLOYED_TLS) at 40 and 50 µs a read; another one dearer.
    tls: { ...NONE_MEASURED, [DEPLOYED_TLS]: { via: 'test', ...setup(40, 50) }, caddy: { via: 'x', ...setup(90, 99) } },
    primaryMicrosPerRequest: micros(10),
  },
};
const capacity: VpsCapacity = { measurement, source: 'test' };
/** The same, with CPU per request `by` times the round figures' (a slower machine). */
const slower = (by: number): VpsCapacity => {
  const times = (m: SetupMicros) => setup(m.oneProcess.options * by, m.workers.options * by);
  const { plain, tls, primaryMicrosPerRequest } = measurement.cpu;
  const cpu = {
    ...measurement.cpu,
    plain: times(plain),
    tls: { ...NONE_MEASURED, [DEPLOYED_TLS]: { via: 'test', ...times(tls[DEPLOYED_TLS]!) } },
    primaryMicrosPerRequest: micros(primaryMicrosPerRequest.options * by),
  };
  return { measurement: { ...measurement, cpu }, source: 'test' };
};

/** µs a request of this mix at the round figures, a read costing `read` µs (a create costs a vote). */
const microsOf = (
  r: { pages: number; pollReads: number; votes: number; results: number; creates: number },
  read: number,
) =>
  (read * (r.pages + r.pollReads + r.results) + 2 * read * (r.votes + r.creates)) /
  (r.pages + r.pollReads + r.results + r.votes + r.creates);
const committed: VpsCapacity = {
  measurement: JSON.parse(readFileSync('cost/estimate/vps-capacity.json', 'utf8')),
  source: 'cost/estimate/vps-capacity.json',
};

describe('the same month on a VPS', () => {
  const bill = estimate(PROFILES.seed, stack, DEFAULT_UNIT_COSTS, BILL);
  const peak = derivePeak(PROFILES.seed);

  it('sizes the box from the CPU a request of the peak’s mix costs, and finds where serverless overtakes it', () => {
    const vps = vpsCost(BASELINE_VPS, PROFILES.seed, bill, capacity);
    // 3 shared vCPUs of workers at 50 µs a read, the primary at 10 µs, each vCPU at its share: the vCPUs bind.
    const share = BASELINE_VPS.vcpuShare.factor;
    const capacityRps = Math.min(
      (3 * share * 1e6) / microsOf(peak.routes, 50),
      (share * 1e6) / microsOf(peak.routes, 10),
    );
    expect(vps.box).toMatchObject({ workers: 3, binds: 'cores' });
    expect(vps.box.requestsPerSecond).toBeCloseTo(capacityRps, 6);
    expect(vps.loadRps).toBeCloseTo(peak.requestsPerSecond, 6);
    expect(peak.requestsPerSecond).toBeLessThan(capacityRps * VPS_MAX_UTILISATION);
    expect(vps).toMatchObject({ carries: true, why: null, overageUsd: 0, totalUsd: 15 });
    expect(vps.utilisation).toBeCloseTo(peak.requestsPerSecond / capacityRps, 9);
    expect(vps.usdPerMillionAtCeiling).toBeCloseTo(15 / ((capacityRps * VPS_MAX_UTILISATION * 2_592_000) / 1e6), 9);
    const even = breakEven(BASELINE_VPS, PROFILES.seed, stack, capacity, DEFAULT_UNIT_COSTS, BILL);
    expect(even.votes).toBeGreaterThan(1e5);
    expect(even.votes).toBeLessThan(15e6);
    // At the break-even volume the two bills match.
    const scaled = { ...PROFILES.seed, pollsPerDay: (PROFILES.seed.pollsPerDay * even.votes!) / 15e6 };
    const scaledBill = estimate(scaled, stack, DEFAULT_UNIT_COSTS, BILL);
    expect(scaledBill.totalUsd).toBeCloseTo(vpsCost(BASELINE_VPS, scaled, scaledBill, capacity).totalUsd, 2);
  });

  it('finds the first crossing while the VPS carries, also when the box stops carrying just past it', () => {
    // Small polls: more volume is more polls open at once, so the peak grows with it.
    const small = { ...PROFILES.seed, votesPerPoll: 100, resultsViewersPerPoll: 100 };
    const votes = (v: number) => scaleProfile(small, v / (small.pollsPerDay * 30 * small.votesPerPoll));
    const crossing = breakEven(BASELINE_VPS, small, stack, capacity, DEFAULT_UNIT_COSTS, BILL).votes!;
    // A capacity whose box stops carrying between the crossing and the break-even scan's next volume.
    const nextScanned = 10 ** (Math.ceil(Math.log10(crossing) * 4) / 4);
    const edge = Math.sqrt(crossing * nextScanned);
    const atEdge = vpsCost(BASELINE_VPS, votes(edge), estimate(votes(edge), stack, DEFAULT_UNIT_COSTS, BILL), capacity);
    const smaller = slower((atEdge.box.requestsPerSecond * VPS_MAX_UTILISATION) / (1.0001 * atEdge.loadRps));
    const carriesAt = (v: number) =>
      vpsCost(BASELINE_VPS, votes(v), estimate(votes(v), stack, DEFAULT_UNIT_COSTS, BILL), smaller).carries;
    expect([carriesAt(crossing), carriesAt(edge), carriesAt(edge * 1.01), carriesAt(nextScanned)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    // One box costs the same whatever it serves: the same crossing, quoted though the box stops carrying soon after.
    const even = breakEven(BASELINE_VPS, small, stack, smaller, DEFAULT_UNIT_COSTS, BILL);
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
          const bill = estimate(scaled, stack, DEFAULT_UNIT_COSTS, BILL);
          const vps = vpsCost(tier, scaled, bill, committed);
          return { votes, diff: bill.totalUsd - vps.totalUsd, carries: vps.carries };
        };
        // A hundred volumes a decade: the first at which serverless costs at least the VPS.
        const fine = Array.from({ length: 801 }, (_, i) => gapAt(10 ** (3 + i / 100)));
        const first = fine.findIndex((g) => g.diff >= 0);
        const even = breakEven(tier, profile, stack, committed, DEFAULT_UNIT_COSTS, BILL);
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

  it('carries on one box or not at all, and says whose limit it is: the box’s vCPUs or this edition’s writer', () => {
    const tv = PROFILES['tv-show'];
    const tvPeak = derivePeak(tv);
    const bill = estimate(tv, stack, DEFAULT_UNIT_COSTS, BILL);
    const box = (vcpu: number, share = DEDICATED_VCPU): VpsTier => ({ ...BASELINE_VPS, vcpu, vcpuShare: share });
    const writer = Math.round((1e6 / microsOf(tvPeak.routes, 10)) * VPS_MAX_UTILISATION);
    const editions =
      `this edition's writer (the primary that owns the log, on its one vCPU) serves at most ` +
      `${writer.toLocaleString('en-US')} req/s of this mix: the edition's limit, not the box’s`;
    // One process on one shared vCPU, at 40 µs a read behind TLS and half a vCPU: the box's limit alone.
    const one = vpsCost(box(1, SHARED_VCPU), tv, bill, capacity);
    const needs =
      tvPeak.requestsPerSecond / (((SHARED_VCPU.factor * 1e6) / microsOf(tvPeak.routes, 40)) * VPS_MAX_UTILISATION);
    expect(one).toMatchObject({ carries: false, coresCarry: false });
    expect(one.needs).toBeCloseTo(needs, 9);
    expect(one.why).toBe(`needs ${needs.toFixed(1)}x the box's 1 shared vCPU`);
    expect(one.totalUsd).toBe(BASELINE_VPS.monthlyUsd + one.overageUsd);
    // Two dedicated vCPUs run one process (--workers auto), on one of them at 40 µs a read: no writer apart.
    const two = vpsCost(box(2), tv, bill, capacity);
    const twoNeeds = tvPeak.requestsPerSecond / ((1e6 / microsOf(tvPeak.routes, 40)) * VPS_MAX_UTILISATION);
    expect(two.box).toMatchObject({ workers: 0, binds: 'cores' });
    expect(two.why).toBe(`needs ${twoNeeds.toFixed(1)}x what one process serves of the box's 2 dedicated vCPUs`);
    // Three dedicated vCPUs of workers at 50 µs a read: short on both, each named.
    const three = vpsCost(box(3), tv, bill, capacity);
    const threeNeeds = tvPeak.requestsPerSecond / ((3e6 / microsOf(tvPeak.routes, 50)) * VPS_MAX_UTILISATION);
    expect(three.why).toBe(`needs ${threeNeeds.toFixed(1)}x the box's 3 dedicated vCPUs; and ${editions}`);
    // Enough dedicated vCPUs for the whole peak: the box carries it on its cores, the edition's writer does not.
    const vcpus = Math.ceil(tvPeak.requestsPerSecond / ((1e6 / microsOf(tvPeak.routes, 50)) * VPS_MAX_UTILISATION));
    const big = vpsCost(box(vcpus), tv, bill, capacity);
    expect(big).toMatchObject({ carries: false, coresCarry: true });
    expect(big.box).toMatchObject({ binds: 'writer', workers: vcpus });
    expect(big.why).toMatch(new RegExp(`^its ${vcpus} dedicated vCPUs would carry it \\(\\d+% loaded\\), but `));
    expect(big.why!.endsWith(editions)).toBe(true);
  });

  it('prices boxes with the deployed TLS set-up, else another measured one, and says when a run measured none', () => {
    const { cpu } = measurement;
    expect(pricedTls(measurement)).toMatchObject({ setup: DEPLOYED_TLS, workers: cpu.tls[DEPLOYED_TLS]!.workers });
    expect(pricedTls(measurement).says).toBe('behind TLS as docs/vps.md deploys it, test');
    const other = { ...measurement, cpu: { ...cpu, tls: { ...NONE_MEASURED, caddy: cpu.tls.caddy } } };
    expect(pricedTls(other)).toMatchObject({ setup: 'caddy', oneProcess: cpu.tls.caddy!.oneProcess });
    expect(pricedTls(other).says).toMatch(/^behind TLS by x \(this run did not measure the deployed set-up, /);
    // A --tls off run: plain figures, and the answer says TLS is not counted.
    const off = { ...measurement, cpu: { ...cpu, tls: NONE_MEASURED } };
    expect(pricedTls(off).setup).toBeUndefined();
    expect(pricedTls(off)).toMatchObject({ oneProcess: cpu.plain.oneProcess, workers: cpu.plain.workers });
    expect(pricedTls(off).says).toBe(
      'without TLS: this run measured none (npm run bench:vps -- --tls off), so TLS costs are not counted',
    );
    const mix = { pages: 0, pollReads: 1, votes: 0, results: 0 };
    expect(boxCapacity(BASELINE_VPS, { measurement: off, source: 'test' }, mix).microsPerRequest).toBe(35);
    expect(boxCapacity(BASELINE_VPS, capacity, mix).microsPerRequest).toBe(50);
  });

  it('serves 4x a 1-vCPU box’s mix on 4 vCPUs times the measured two-worker efficiency, till the primary binds', () => {
    const mix = { pages: 0, pollReads: 0, votes: 1000, results: 0 };
    const tier = (vcpu: number, factor = 1): VpsTier => ({
      ...VPS_TIERS[0],
      vcpu,
      vcpuShare: { ...VPS_TIERS[0].vcpuShare, factor },
    });
    const { oneProcess: tls, workers: workersTls } = measurement.cpu.tls[DEPLOYED_TLS]!;
    const one = boxCapacity(tier(1), capacity, mix);
    const four = boxCapacity(tier(4), capacity, mix);
    expect(one).toMatchObject({ workers: 0, binds: 'cores', requestsPerSecond: 1e6 / tls.vote });
    // 80 µs a vote on one process, 100 with workers: 4 x 0.8.
    expect(four.requestsPerSecond / one.requestsPerSecond).toBeCloseTo(4 * (tls.vote / workersTls.vote), 9);
    expect(four.requestsPerSecond / one.requestsPerSecond).toBeCloseTo(3.2, 9);
    // A shared vCPU counted at half: half of each.
    expect(boxCapacity(tier(4, 0.5), capacity, mix).requestsPerSecond).toBeCloseTo(four.requestsPerSecond / 2, 9);
    // A primary at 30 µs a vote serves 33,333 a second: under what 4 vCPUs of workers serve (40,000), it binds.
    const busyPrimary = { ...measurement.cpu, primaryMicrosPerRequest: { ...micros(10), vote: 30 } };
    const bound = boxCapacity(tier(4), { measurement: { ...measurement, cpu: busyPrimary }, source: 'test' }, mix);
    expect(bound).toMatchObject({ binds: 'writer', workers: 4 });
    expect(bound.requestsPerSecond).toBeCloseTo(1e6 / 30, 9);
  });

  it('caches the page, poll reads and results in front of the VPS: 13 asks per poll open per max-age', () => {
    const origin = originAtPeak(PROFILES.seed);
    const polls = Math.max(1, peak.pollsOpenAtOnce);
    expect(origin.results).toBeCloseTo((polls * CACHE_ORIGINS_PER_POLL) / RESULTS_CACHE_SECONDS, 9);
    expect(origin.results).toBeLessThan(peak.routes.results);
    expect(origin.pollReads).toBeCloseTo((polls * CACHE_ORIGINS_PER_POLL) / POLL_READ_CACHE_SECONDS, 9);
    expect(origin.pollReads).toBeLessThan(peak.routes.pollReads);
    // Votes and creates pass through.
    expect(origin.votes).toBe(peak.routes.votes + peak.routes.creates);
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
      expect(row.totalUsd).toBeCloseTo(VPS_TIERS[0].monthlyUsd + row.overageUsd + cdnUsd, 9);
    }
    expect(CDN_PLANS.some((plan) => plan.usdPerGb === 0 && plan.usdPerMillionRequests === 0)).toBe(true);
    expect(CDN_PLANS.some((plan) => plan.usdPerGb > 0)).toBe(true);
  });
});

describe('which VPS rows carry the presets, at the committed measurement', () => {
  const rows = (name: string) =>
    vpsOptions(PROFILES[name], estimate(PROFILES[name], stack, DEFAULT_UNIT_COSTS, BILL), committed, VPS_TIERS);
  const { cpu } = committed.measurement;

  it('seed: every row carries its peak on one box, with a CDN or without', () => {
    const seed = rows('seed');
    const fronted = cdnFrontedTiers(PROFILES.seed, committed, VPS_TIERS);
    expect(seed.length).toBe(VPS_TIERS.length + fronted.length * CDN_PLANS.length);
    expect(seed.filter((v) => !v.carries)).toEqual([]);
  });

  it('tv-show: alone only a box of many vCPUs carries it; behind a CDN the box gets its votes, as CPU allows', () => {
    const tv = rows('tv-show');
    const peak = derivePeak(PROFILES['tv-show']);
    for (const v of tv.filter((row) => !row.cdn)) {
      expect(v.carries).toBe(v.needs <= 1);
      if (v.carries) expect(v.tier.vcpu).toBeGreaterThanOrEqual(8);
      else
        expect(v.why).toMatch(
          /^(needs \d+\.\dx (what one process serves of )?the box's \d+ \w+ vCPUs?|its \d+ dedicated vCPUs would)/,
        );
    }
    const origin = originAtPeak(PROFILES['tv-show']);
    // What no cache takes: the votes. The rest is a few dozen requests a second.
    expect(origin.pages + origin.pollReads + origin.results).toBeLessThan(100);
    for (const v of tv.filter((row) => row.cdn)) {
      expect(v.loadRps).toBeCloseTo(origin.pages + origin.pollReads + origin.votes + origin.results, 6);
      // By hand, from the votes alone at the measured µs a vote (the cached routes are under 1% of the load).
      const priced = pricedTls(committed.measurement);
      // One process (what --workers auto runs on a few vCPUs) on one of them, or workers on all (a vote's µs
      // grown by the curve to their count) and the writer.
      const workers = autoWorkers(v.tier.vcpu);
      const votesServed =
        workers === 1
          ? (v.tier.vcpuShare.factor * 1e6) / priced.oneProcess.vote
          : Math.min(
              (v.tier.vcpu * v.tier.vcpuShare.factor * 1e6) /
                (priced.workers.vote * workerGrowth(committed.measurement.workerCurve, workers).factor.vote),
              (v.tier.vcpuShare.factor * 1e6) / cpu.primaryMicrosPerRequest.vote,
            );
      expect(v.box.requestsPerSecond / votesServed).toBeCloseTo(1, 1);
      expect(v.carries).toBe(peak.routes.votes <= votesServed * VPS_MAX_UTILISATION);
    }
  });
});
