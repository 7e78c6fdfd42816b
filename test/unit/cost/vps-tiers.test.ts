/**
 * The boxes the VPS side is priced on (cost/estimate/vps.ts VPS_TIERS): shared and dedicated vCPUs,
 * each dated and sourced, a shared vCPU counted below a dedicated one, and the list reaching a box whose
 * cores carry the record night behind a CDN, at the committed measurement.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { originAtPeak } from '../../../cost/estimate/compare';
import { boxCapacity, requestsOf, VPS_MAX_UTILISATION, type VpsCapacity } from '../../../cost/estimate/vps';
import { DEDICATED_VCPU, EURO_RATE, SHARED_VCPU, VPS_TIERS } from '../../../cost/estimate/vps-tiers';
import { PROFILES } from '../../../cost/usage/profiles';

const committed: VpsCapacity = {
  measurement: JSON.parse(readFileSync('cost/estimate/vps-capacity.json', 'utf8')),
  source: 'cost/estimate/vps-capacity.json',
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
