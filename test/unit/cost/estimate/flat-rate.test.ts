/**
 * CloudFront's flat-rate plans (cost/estimate/flat-rate.ts): the cheaper of pay as you go and the smallest plan
 * that covers the month, never on a new account, and no CloudFront request quota where the plan is priced.
 */
import { describe, expect, it } from 'vitest';
import { designCapacity, priceDesigns } from '../../../../cost/estimate/designs';
import { priceCloudFront } from '../../../../cost/estimate/flat-rate';
import { estimate } from '../../../../cost/estimate/model';
import { CLOUDFRONT_FLAT_RATE_PLANS } from '../../../../pricing/plans-and-credits';
import { derivePeak } from '../../../../cost/usage/peaks';
import { PROFILES } from '../../../../cost/usage/profiles';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { billLine as line, designStack } from '../../../support/cost';
import { US_EAST_1, BILL, NEW_ACCOUNT } from '../../../support/prices';

const plan = (name: string) => CLOUDFRONT_FLAT_RATE_PLANS.find((p) => p.name === name)!;

describe('a flat-rate plan or pay as you go', () => {
  it('prices the smallest plan that covers the month, where it costs less', () => {
    // 8 M requests and 5 TB: Pro (10 M, 50 TB) covers it, at $15 against $400 pay as you go.
    const pricing = priceCloudFront({ requests: 8e6, transferGb: 5 * 1024, paygUsd: 400 }, BILL);
    expect(pricing.plan).toMatchObject(plan('Pro'));
    // 20 M requests: Business, the next that covers them.
    expect(priceCloudFront({ requests: 20e6, transferGb: 5 * 1024, paygUsd: 400 }, BILL).plan).toMatchObject(
      plan('Business'),
    );
  });

  it('keeps pay as you go where it is no dearer, where no plan covers the month, and on a new account', () => {
    const cheap = priceCloudFront({ requests: 8e6, transferGb: 10, paygUsd: 15 }, BILL);
    expect(cheap.plan).toBeUndefined();
    expect(cheap.covering).toMatchObject(plan('Pro'));
    expect(cheap.why).toBe('Pro, the smallest plan that covers it, costs $15 a month');
    const huge = priceCloudFront({ requests: 600e6, transferGb: 10, paygUsd: 5_000 }, BILL);
    expect(huge.plan ?? huge.covering).toBeUndefined();
    expect(huge.why).toMatch(/^no plan covers the month: Premium allows 500 M requests and 50 TB/);
    const fresh = priceCloudFront({ requests: 8e6, transferGb: 5 * 1024, paygUsd: 400 }, NEW_ACCOUNT);
    expect(fresh.plan).toBeUndefined();
    expect(fresh.why).toMatch(/not for accounts on the AWS Free Tier/);
  });
});

describe('in the bill and the verdict', () => {
  // The seed's page at 20 MB a visit, a poll a day: 3 TB to viewers (2 TB past the free 1 TB: $174 pay as you go)
  // in 9.45 M requests, all inside Pro's allowance.
  const profile = { ...PROFILES.seed, pollsPerDay: 1, pageBytes: 20e6 };
  const stack = designStack({ results: 'cloudfront' });

  it('bills the plan instead of CloudFront’s requests, transfer and Functions, and no less', () => {
    const bill = estimate(profile, stack, DEFAULT_UNIT_COSTS, BILL);
    const payg = estimate(profile, stack, DEFAULT_UNIT_COSTS, NEW_ACCOUNT);
    expect(bill.cloudFront?.plan).toMatchObject(plan('Pro'));
    expect(line(bill, 'cloudFrontPlanPro')).toMatchObject({ usage: 1, usd: 15 });
    for (const id of ['cloudFrontRequests', 'cloudFrontTransfer', 'cloudFrontFunctions'] as const)
      expect(line(bill, id).usd).toBe(0);
    // The pay-as-you-go lines it replaces, as a new account (no plan) bills them.
    const replaced = ['cloudFrontRequests', 'cloudFrontTransfer', 'cloudFrontFunctions'] as const;
    const paygUsd = replaced.reduce((sum, id) => sum + line(payg, id).usd, 0);
    expect(bill.cloudFront?.paygUsd).toBeCloseTo(paygUsd, 9);
    expect(bill.totalUsd).toBeCloseTo(payg.totalUsd - paygUsd + US_EAST_1.prices.cloudFrontPlanPro.tiers[0].price, 9);
  });

  it('drops the CloudFront request quota from the verdict where the plan is priced', () => {
    const [design] = priceDesigns(profile, { cloudfront: stack }, DEFAULT_UNIT_COSTS, BILL);
    const peak = derivePeak(profile);
    const stages = (newAccount: boolean) => {
      const [d] = priceDesigns(profile, { cloudfront: stack }, DEFAULT_UNIT_COSTS, { newAccount, book: US_EAST_1 });
      const context = { account: newAccount ? ('new' as const) : ('established' as const), profile };
      return designCapacity(d, stack, peak, DEFAULT_UNIT_COSTS, context).stages.map((s) => s.name);
    };
    expect(design.bill.cloudFront?.plan).toMatchObject(plan('Pro'));
    expect(stages(false)).not.toContain('CloudFront requests per distribution');
    expect(stages(true)).toContain('CloudFront requests per distribution');
  });
});
