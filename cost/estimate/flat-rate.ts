/**
 * CloudFront's flat-rate plans beside pay as you go: a month's CloudFront is priced at the cheaper of its
 * pay-as-you-go lines and the smallest plan whose allowance covers the month's requests and transfer
 * (pricing/plans-and-credits.ts, each plan's fee from the price book). Pure.
 */
import type { PriceBook } from '../../pricing/price-book';
import { tieredCost } from '../../pricing/tiers';
import { CLOUDFRONT_FLAT_RATE_PLANS, CLOUDFRONT_FLAT_RATE_RULES } from '../../pricing/plans-and-credits';

export type FlatRatePlan = (typeof CLOUDFRONT_FLAT_RATE_PLANS)[number];

/** A plan's month: one plan-month at its price in the book. */
export const planFee = (book: PriceBook, id: FlatRatePlan['id']): number => tieredCost(1, book.prices[id]);

/** What a month's CloudFront is priced at, and why. */
export interface CloudFrontPricing {
  /** The plan priced, with its month's fee; undefined where pay as you go is. */
  plan?: FlatRatePlan & { usd: number };
  /** The smallest plan that covers the month, priced or not; undefined where none does. */
  covering?: FlatRatePlan;
  paygUsd: number;
  requests: number;
  transferGb: number;
  why: string;
}

/** The month's CloudFront: its requests (cached or not), its transfer to viewers, and its pay-as-you-go lines. */
export interface CloudFrontMonth {
  requests: number;
  transferGb: number;
  paygUsd: number;
}

/** The cheaper of pay as you go and the smallest plan that covers the month; no plan on a new account's Free plan. */
export function priceCloudFront(
  month: CloudFrontMonth,
  { newAccount, book }: { newAccount?: boolean; book: PriceBook },
): CloudFrontPricing {
  const usd = (plan: FlatRatePlan) => planFee(book, plan.id);
  const covering = CLOUDFRONT_FLAT_RATE_PLANS.find(
    (plan) => month.requests <= plan.requests && month.transferGb <= plan.transferGb,
  );
  const base = { ...month, covering };
  const largest = CLOUDFRONT_FLAT_RATE_PLANS[CLOUDFRONT_FLAT_RATE_PLANS.length - 1];
  if (newAccount) return { ...base, why: CLOUDFRONT_FLAT_RATE_RULES.eligible };
  if (!covering)
    return {
      ...base,
      why:
        `no plan covers the month: ${largest.name} allows ${largest.requests / 1e6} M requests and ` +
        `${largest.transferGb / 1024} TB, and past its allowance AWS may slow delivery (no overage charge)`,
    };
  if (usd(covering) < month.paygUsd)
    return {
      ...base,
      plan: { ...covering, usd: usd(covering) },
      why: `${covering.name} ($${usd(covering)}) is the smallest plan that covers it`,
    };
  return { ...base, why: `${covering.name}, the smallest plan that covers it, costs $${usd(covering)} a month` };
}
