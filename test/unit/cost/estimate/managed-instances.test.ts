/**
 * Lambda Managed Instances as a what-if (cost/estimate/managed-instances.ts): the function-URL design's results
 * function, then also its vote path, billed per instance hour plus 15% instead of per GB-second, sized from the
 * CPU a request costs, at least AWS's 3 instances.
 */
import { describe, expect, it } from 'vitest';
import { managedInstancesWhatIfs, MANAGED_INSTANCES } from '../../../../cost/estimate/managed-instances';
import { usd } from '../../../../cost/estimate/format';
import { estimate } from '../../../../cost/estimate/model';

import { VPS_MAX_UTILISATION } from '../../../../cost/estimate/vps';
import { derivePeak } from '../../../../cost/usage/peaks';
import { PROFILES } from '../../../../cost/usage/profiles';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { renderAnswer, renderDetail } from '../../../../cost/report/render-text';
import { billLine as line, costReport, designStack, unwrapped } from '../../../support/cost';
import { US_EAST_1, BILL } from '../../../support/prices';

const stack = designStack({ results: 'function-url' });
const micros = { options: 20, page: 24, vote: 37, results: 18 };
const whatIfsFor = (profile: typeof PROFILES.seed) => {
  const baseline = estimate(profile, stack, DEFAULT_UNIT_COSTS, BILL);
  return { baseline, whatIfs: managedInstancesWhatIfs(profile, stack, DEFAULT_UNIT_COSTS, BILL, micros, baseline) };
};

describe('Lambda Managed Instances', () => {
  it('bills the instances and the fee instead of the moved functions’ GB-seconds, and the same requests', () => {
    const { baseline, whatIfs } = whatIfsFor(PROFILES.seed);
    const [results, votePath] = whatIfs;
    // The seed's peak needs well under a vCPU: AWS's floor of 3, kept the month's 720 hours.
    expect(results.instances).toBe(3);
    expect(line(results.bill, 'managedInstanceHours').usd).toBeCloseTo(3 * 720 * 0.1632, 9);
    expect(line(results.bill, 'managedInstanceFee').usd).toBeCloseTo(3 * 720 * 0.1632 * 0.15, 9);
    expect(line(results.bill, 'lambdaRequests').usd).toBe(line(baseline, 'lambdaRequests').usd);
    // Fewer GB-seconds: the results function's are gone, and with the vote path the vote and count functions' too.
    expect(results.bill.usage.gbSeconds.arm64).toBeLessThan(baseline.usage.gbSeconds.arm64);
    expect(votePath.bill.usage.gbSeconds.arm64).toBeLessThan(results.bill.usage.gbSeconds.arm64);
    expect(results.deltaUsd).toBeCloseTo(results.bill.totalUsd - baseline.totalUsd, 9);
    expect(results.deltaUsd).toBeGreaterThan(0);
    expect(US_EAST_1.prices.managedInstanceFee.tiers[0].price).toBeCloseTo(
      0.15 * US_EAST_1.prices.managedInstanceHours.tiers[0].price,
      12,
    );
  });

  it('sizes the instances from the CPU the peak’s requests cost, past the floor of 3', () => {
    // 100 M viewers of each seed poll: the results peak at 18 µs a request, 80% of each vCPU, 4 a box.
    const profile = { ...PROFILES.seed, resultsViewersPerPoll: 1e8 };
    const [results] = whatIfsFor(profile).whatIfs;
    const vcpus = (derivePeak(profile).routes.results * 18) / 1e6 / VPS_MAX_UTILISATION;
    expect(results.peakVcpus).toBeCloseTo(vcpus, 9);
    expect(results.instances).toBe(Math.max(MANAGED_INSTANCES.minInstances, Math.ceil(vcpus / 4)));
    expect(results.instances).toBeGreaterThan(3);
  });

  it('shows for the seed and the club, with its total and whether it is ever cheaper', () => {
    for (const profile of ['seed', 'club']) {
      const report = costReport({ profile });
      const text = unwrapped(renderDetail(report));
      const [results] = report.managedInstances!.whatIfs;
      expect(text).toContain(`results function on Lambda Managed Instances: 3 x m7g.xlarge kept all month`);
      expect(text).toContain(`${usd(results.bill.totalUsd)} a month (+`);
      expect(text).toContain('Never cheaper for this profile');
      // The short answer says it too, in a line.
      expect(unwrapped(renderAnswer(report, []))).toContain(
        `With its results function on Lambda Managed Instances (3 instances; AWS keeps at least 3) it would cost ` +
          `${usd(results.bill.totalUsd)} a month: ${usd(results.deltaUsd)} more.`,
      );
    }
  });
});
