/**
 * The boxes the VPS side is priced on (cost/estimate/vps.ts VPS_TIERS): shared and dedicated vCPUs,
 * each dated and sourced, a shared vCPU counted below a dedicated one, and the list reaching a box whose
 * cores carry the record night behind a CDN, at the committed measurement; a box's µs a request at its
 * count of workers from the committed curve, and said so where the count is past it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../../domain/errors';
import { loadVpsCapacity } from '../../../../cost/report-files';
import { vpsRows } from '../../../../cost/report/vps-lines';
import { costReport } from '../../../support/cost';
import type { CostReport } from '../../../../cost/estimate/build-report';
import { describe, expect, it } from 'vitest';
import { originAtPeak } from '../../../../cost/estimate/compare';
import {
  BadWorkerCurve,
  boxCapacity,
  checkWorkerCurve,
  grownMicros,
  microsOfMix,
  pricedTls,
  requestsOf,
  VPS_MAX_UTILISATION,
  type VpsCapacity,
  workerGrowth,
} from '../../../../cost/estimate/vps';
import {
  BASELINE_VPS,
  DEDICATED_VCPU,
  EURO_RATE,
  offersFor,
  SHARED_VCPU,
  VPS_TIERS,
  type VpsTier,
} from '../../../../cost/estimate/vps-tiers';
import { PROFILES } from '../../../../cost/usage/profiles';

const committed: VpsCapacity = {
  measurement: JSON.parse(readFileSync('cost/estimate/vps-capacity.json', 'utf8')),
  source: 'cost/estimate/vps-capacity.json',
};

/** The record night's report, built once for the file (it searches many volumes). */
let night: CostReport | undefined;
const recordNight = () => {
  night ??= costReport({ profile: 'record-night' });
  return night;
};

describe('the VPS tiers', () => {
  it('are priced cheapest first, each with a source and the date it was checked', () => {
    const prices = VPS_TIERS.map((t) => t.monthlyUsd);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    for (const tier of VPS_TIERS) {
      expect(tier.priceSource.length, tier.name).toBeGreaterThan(20);
      expect(tier.checked, tier.name).toMatch(/^\d{4}-\d\d(-\d\d)?$/);
      expect([SHARED_VCPU, DEDICATED_VCPU], tier.name).toContain(tier.vcpuShare);
    }
  });

  it('list the dedicated-vCPU boxes people buy for a peak beside the shared ones', () => {
    const dedicated = VPS_TIERS.filter((t) => t.vcpuShare === DEDICATED_VCPU).map((t) => t.name);
    expect(dedicated.some((name) => /^DO CPU-Opt\. c-\d+/.test(name))).toBe(true);
    expect(dedicated.some((name) => /^Hetzner CCX\d+/.test(name))).toBe(true);
    expect(dedicated.some((name) => /^Hetzner AX\d+/.test(name))).toBe(true);
    expect(VPS_TIERS.some((t) => t.vcpuShare === SHARED_VCPU)).toBe(true);
    // A price in euros says the rate it was converted at, and its day.
    for (const tier of VPS_TIERS.filter((t) => t.provider === 'Hetzner'))
      expect(tier.priceSource, tier.name).toContain(EURO_RATE);
    expect(EURO_RATE).toMatch(/^USD 1\.\d+ a euro \(the ECB's reference rate of \d{4}-\d\d-\d\d\)$/);
  });

  it('count a shared vCPU below a dedicated one, and a dedicated vCPU as one', () => {
    expect(DEDICATED_VCPU.factor).toBe(1);
    expect(SHARED_VCPU.factor).toBeGreaterThan(0);
    expect(SHARED_VCPU.factor).toBeLessThan(DEDICATED_VCPU.factor);
    const mix = { pages: 1, pollReads: 1, votes: 10, results: 1 };
    for (const vcpu of [1, 4]) {
      const shared = boxCapacity({ ...VPS_TIERS[0], vcpu, vcpuShare: SHARED_VCPU }, committed, mix);
      const dedicated = boxCapacity({ ...VPS_TIERS[0], vcpu, vcpuShare: DEDICATED_VCPU }, committed, mix);
      expect(shared.coresRequestsPerSecond / dedicated.coresRequestsPerSecond).toBeCloseTo(SHARED_VCPU.factor, 9);
    }
  });

  it('reach a box whose cores carry the record night behind a CDN', () => {
    const origin = originAtPeak(PROFILES['record-night']);
    const carriesOnCores = (tier: (typeof VPS_TIERS)[number]) =>
      requestsOf(origin) <= boxCapacity(tier, committed, origin).coresRequestsPerSecond * VPS_MAX_UTILISATION;
    expect(VPS_TIERS.some(carriesOnCores)).toBe(true);
  });
});

describe('the offers of a market', () => {
  it('carry where each is sold, and a plan priced otherwise elsewhere is one tier a market', () => {
    for (const tier of VPS_TIERS) {
      expect(tier.locations.length, tier.name).toBeGreaterThan(2);
      expect(tier.markets === 'any' || tier.markets.length > 0, tier.name).toBe(true);
    }
    expect(VPS_TIERS.filter((t) => t.markets === 'any')).toEqual([BASELINE_VPS]);
    const named = (name: string) => VPS_TIERS.find((t) => t.name === name)!;
    const [eu, us] = [named('Hetzner CCX33 (8 dedicated)'), named('Hetzner CCX33 US (8 dedicated)')];
    expect([eu.markets, us.markets]).toEqual([['Europe'], ['United States']]);
    // Hetzner's US locations charged more for it on 2025-10-21 and include less traffic.
    expect(us.monthlyUsd / eu.monthlyUsd).toBeCloseTo(50.49 / 48.49, 3);
    expect(us.includedTransferGb).toBeLessThan(eu.includedTransferGb);
    expect(us.priceSource).toContain(EURO_RATE);
  });

  it("weighs a Region's market: Europe's for eu-*, the United States' for us-*, and the seed's box in each", () => {
    const europe = offersFor('eu-central-1');
    const america = offersFor('us-east-1');
    expect([europe.market, america.market]).toEqual(['Europe', 'United States']);
    const names = (tiers: VpsTier[]) => tiers.map((t) => t.name);
    expect(names(europe.tiers)).toEqual(expect.arrayContaining(['Hetzner CX23 (2 vCPU)', 'Hetzner AX52 (16 threads)']));
    expect(names(america.tiers)).not.toContain('Hetzner CX23 (2 vCPU)');
    expect(names(america.tiers)).toContain('Hetzner CCX43 US (16 dedicated)');
    for (const offers of [europe, america]) {
      expect(offers.tiers).toContain(BASELINE_VPS);
      expect([...offers.tiers, ...offers.elsewhere].sort((a, b) => a.monthlyUsd - b.monthlyUsd)).toEqual(VPS_TIERS);
    }
    // DigitalOcean sells at one price in both.
    expect(names(europe.tiers)).toContain('DO $6 (1 vCPU, 1 GB)');
    expect(names(america.tiers)).toContain('DO $6 (1 vCPU, 1 GB)');
    // A market none of the list is sold in weighs every market's, and says so.
    expect(offersFor('ap-northeast-1')).toMatchObject({ market: 'Japan', everyMarket: true, tiers: VPS_TIERS });
  });

  it('gives the record night priced for us-east-1 a box sold in the United States', () => {
    const report = recordNight();
    expect(report.offers.market).toBe('United States');
    expect(report.answer.vpsCarries).toBe(true);
    expect(report.answer.vps.tier.markets).toContain('United States');
  });
});

describe("a box's capacity at its count of workers", () => {
  const curve = committed.measurement.workerCurve!;
  const tls = pricedTls(committed.measurement);
  const mix = originAtPeak(PROFILES['record-night']);

  it('comes from a curve measured on a many-core box, said so, by run and host', () => {
    expect(checkWorkerCurve(curve)).toBe(curve);
    expect(curve.source).toMatch(/vps-scaling-16vcpu\.md, run 1 .*16-vCPU/);
    expect(curve.workers).toEqual([2, 4, 8]);
  });

  it('grows a request’s µs as the curve grows from 2 workers, interpolated between counts measured', () => {
    expect(workerGrowth(curve, 2).factor).toEqual({ options: 1, page: 1, vote: 1, results: 1 });
    expect(workerGrowth(curve, 4).factor.vote).toBeCloseTo(37.5 / 35, 12);
    expect(workerGrowth(curve, 3).factor.vote).toBeCloseTo((35 + 37.5) / 2 / 35, 12);
    expect(workerGrowth(curve, 6).factor.results).toBeCloseTo((18.9 + 22.4) / 2 / 18.4, 12);
    // The page is not in the run: it grows as options does.
    expect(workerGrowth(curve, 8).factor.page).toBe(workerGrowth(curve, 8).factor.options);
    expect(workerGrowth(curve, 8).past).toBeUndefined();
  });

  it('takes the largest count’s µs past it, and says so; without a curve, the µs at 2, and says that', () => {
    expect(workerGrowth(curve, 16)).toEqual({ ...workerGrowth(curve, 8), past: 8 });
    expect(workerGrowth(undefined, 16)).toEqual({ factor: workerGrowth(curve, 2).factor, past: 2 });
  });

  it('sizes the AX52 (16 threads) at the 8-worker µs, past the curve, and the CCX33 (8) on it', () => {
    const ax52 = VPS_TIERS.find((t) => t.name.startsWith('Hetzner AX52'))!;
    const ccx33 = VPS_TIERS.find((t) => t.name.startsWith('Hetzner CCX33'))!;
    const at8 = microsOfMix(grownMicros(tls.workers, workerGrowth(curve, 8).factor), mix);
    expect(boxCapacity(ax52, committed, mix)).toMatchObject({ pastCurve: 8, microsPerRequest: at8 });
    expect(boxCapacity(ax52, committed, mix).coresRequestsPerSecond).toBeCloseTo((16 * 1e6) / at8, 6);
    expect(boxCapacity(ccx33, committed, mix).pastCurve).toBeUndefined();
    expect(boxCapacity(ccx33, committed, mix).microsPerRequest).toBe(at8);
    // Votes grow most: the record night's mix costs more a request at 8 workers than at 2.
    expect(at8 / microsOfMix(tls.workers, mix)).toBeGreaterThan(1.2);
  });

  it('is read with a bench file of one box from the committed file, and a bad one is one usage line', () => {
    const folder = mkdtempSync(join(tmpdir(), 'vps-curve-'));
    const { workerCurve: _, ...bench } = committed.measurement;
    writeFileSync(join(folder, 'mine.json'), JSON.stringify(bench));
    expect(loadVpsCapacity(join(folder, 'mine.json')).measurement.workerCurve).toEqual(curve);
    writeFileSync(join(folder, 'bad.json'), JSON.stringify({ ...bench, workerCurve: { ...curve, workers: [4] } }));
    expect(() => loadVpsCapacity(join(folder, 'bad.json'))).toThrow(UsageError);
    expect(() => loadVpsCapacity(join(folder, 'bad.json'))).toThrow(/workerCurve: workers must be/);
  });

  it("says so in the record night's rows of boxes with more workers than measured, and only there", () => {
    const report = recordNight();
    for (const [i, row] of vpsRows(report).entries()) {
      const past = report.vps[i].box.pastCurve;
      expect(row[3].includes('as at 8 workers'), report.vps[i].name).toBe(past === 8);
      expect(past === 8, report.vps[i].name).toBe(report.vps[i].tier.vcpu > 8);
    }
    expect(report.vps.some((v) => v.box.pastCurve)).toBe(true);
  });

  it('refuses a curve of a shape it does not know', () => {
    const bad = (change: object) => () => checkWorkerCurve({ ...curve, ...change });
    expect(bad({ workers: [1, 2, 4] })).toThrow(BadWorkerCurve);
    expect(bad({ workers: [2, 8, 4] })).toThrow(/ascending, from 2/);
    expect(bad({ micros: { ...curve.micros, vote: [35, 37.5] } })).toThrow(/micros\.vote/);
    expect(bad({ source: '' })).toThrow(/source/);
    expect(() => checkWorkerCurve(undefined)).toThrow(BadWorkerCurve);
  });
});
