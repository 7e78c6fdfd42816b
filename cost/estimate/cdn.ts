/**
 * The usual VPS answer to a hot poll: a CDN in front of the VPS edition, caching the page, the
 * poll reads and the results for their max-age, as dated price data beside the VPS tiers
 * (cost/estimate/vps-tiers.ts). A figure its source did not confirm carries an `assumption`, and the report
 * prints it.
 */

export interface CdnPlan {
  name: string;
  provider: string;
  monthlyUsd: number;
  /** Per GB the CDN sends to viewers (the whole site passes through it). */
  usdPerGb: number;
  usdPerMillionRequests: number;
  /** The least a month costs (a yearly minimum spread over 12 months). */
  minimumMonthlyUsd: number;
  priceSource: string;
  checked: string;
  assumption?: string;
}

const CHECKED = '2026-11-24';

/** Two plans: one with no per-request and no bandwidth fee, one billed per GB. */
export const CDN_PLANS: CdnPlan[] = [
  {
    name: 'Cloudflare Free',
    provider: 'Cloudflare',
    monthlyUsd: 0,
    usdPerGb: 0,
    usdPerMillionRequests: 0,
    minimumMonthlyUsd: 0,
    priceSource:
      'https://www.cloudflare.com/plans/faq/ (the Free plan, priced per domain); ' +
      'https://developers.cloudflare.com/cache/concepts/cache-control (Free follows the origin’s max-age)',
    checked: CHECKED,
    assumption:
      'no bandwidth or request fee: a Cloudflare Support answer (community.cloudflare.com/t/184548), ' +
      'not a price page; the Self-Serve Subscription Agreement 2.8 bars a disproportionate share of non-HTML ' +
      'content, and a Cache Rule must make /poll/* and GET /api/poll/* (poll reads, results) eligible for cache',
  },
  {
    name: 'bunny.net Standard',
    provider: 'bunny.net',
    monthlyUsd: 0,
    usdPerGb: 0.01,
    usdPerMillionRequests: 0,
    minimumMonthlyUsd: 10 / 12,
    priceSource:
      'https://docs.bunny.net/cdn/pricing (Standard tier, Europe & North America $0.01/GB); ' +
      'https://support.bunny.net/hc/en-us/articles/360000235911 (pay as you go, $10 yearly minimum recharge)',
    checked: CHECKED,
    assumption: 'every viewer in Europe or North America (Asia & Oceania $0.03/GB, South America $0.045/GB)',
  },
];

/** How the origin load behind either plan is worked out: as CloudFront's, which neither CDN documents. */
export const CDN_ORIGIN_ASSUMPTION =
  'CDN origin load: as CloudFront’s, 13 caches per poll each asking once for the page, once per poll max-age for ' +
  'the poll and once per results max-age for its results; a CDN with a tiered cache or origin shield asks less, ' +
  'one without asks once per location';
