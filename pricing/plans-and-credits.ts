/**
 * What AWS gives an account rather than what it charges a unit: a new account's credits, and CloudFront's
 * flat-rate plans (their allowances and rules; each plan's monthly fee is a line of the price book).
 */

/** A terabyte in a plan's allowance, in GB: AWS's tiers count 1,024 GB a TB. */
const TB = 1024;

/**
 * What AWS gives an account opened since 2025-07-15 instead of the 12-month free tiers it gave before
 * (which every account opened earlier has used up by now): credits, once, for its first months; the
 * always-free tiers above stay. `--new-account` counts the credits given at sign-up, not those to earn.
 */
export const NEW_ACCOUNT_CREDITS = {
  usd: 100,
  /** More, for activities in the console (launching an instance, setting a budget...): not counted. */
  toEarnUsd: 100,
  since: '2025-07-15',
  source: 'aws.amazon.com/free ("AWS Free Tier": $100 at sign-up, up to $100 more; Free plan up to 6 months)',
  checked: '2026-11-25',
} as const;

/** CloudFront's flat-rate plans (2025-11-18): where they are read, and when. */
const FLAT_RATE_SOURCE =
  'AWS CloudFront Developer Guide "CloudFront flat-rate pricing plans"; AWS Networking & Content Delivery Blog ' +
  '2025-11-18; CloudFront "Quotas"';

/**
 * CloudFront's flat-rate plans: a month's fee for an allowance of requests and transfer, with WAF, DDoS
 * protection, a Route 53 hosted zone, CloudFront Functions and logs included (cost/estimate/flat-rate.ts prices
 * the cheaper of a plan and pay as you go).
 */
export const CLOUDFRONT_FLAT_RATE_PLANS = [
  { id: 'cloudFrontPlanFree', name: 'Free', requests: 1e6, transferGb: 100 },
  { id: 'cloudFrontPlanPro', name: 'Pro', requests: 10e6, transferGb: 50 * TB },
  { id: 'cloudFrontPlanBusiness', name: 'Business', requests: 125e6, transferGb: 50 * TB },
  { id: 'cloudFrontPlanPremium', name: 'Premium', requests: 500e6, transferGb: 50 * TB },
] as const;

/** The rules a plan comes with, as the report's working says them. */
export const CLOUDFRONT_FLAT_RATE_RULES = {
  counts: 'every request that passes WAF counts against the allowance, cached or not',
  overage:
    'no overage charge: a month up to 3x the allowance has no effect; sustained excess, judged over 2-3 months, ' +
    'and AWS "may adjust how we deliver your traffic"',
  quota: 'the 250,000 requests/s and 150 Gbps per-distribution quotas do not apply',
  eligible: 'not for accounts on the AWS Free Tier (Free plan): with --new-account no plan is priced',
  source: FLAT_RATE_SOURCE,
  checked: '2026-11-26',
} as const;
