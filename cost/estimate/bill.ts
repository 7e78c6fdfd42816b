/**
 * A month of usage as a bill, line by line: each line's price from the region's price book (pricing/price-book.ts),
 * its free tier taken off (a shared pool once across its lines), its tiers, CloudFront on a flat-rate plan
 * where that costs less, and a new account's credits beside the total. Pure.
 */
import { BILLED_USAGE, type BilledUsage } from '../../config/priced-metrics';
import type { Price, PriceBook } from '../../pricing/price-book';
import type { PriceId } from '../../pricing/price-lines';
import { NEW_ACCOUNT_CREDITS } from '../../pricing/plans-and-credits';
import { priceWords, tieredCost } from '../../pricing/tiers';
import type { StackConfig } from './stack-config';
import { type CloudFrontPricing, priceCloudFront } from './flat-rate';
import type { MonthlyUsage } from './monthly-usage';
import { priceFor, variantsOf } from '../../pricing/priced-by';

export interface BillLine {
  priceId: PriceId;
  service: string;
  item: string;
  /** Raw units used (requests, GB-s, GB...). */
  usage: number;
  /** Units left after free tiers. */
  billable: number;
  unit: string;
  unitPrice: string;
  usd: number;
  assumption?: string;
}

export interface Bill {
  lines: BillLine[];
  /** What the lines add up to: every month's bill (credits are once: they are not taken off here). */
  totalUsd: number;
  /** The same lines with no always-free allowance taken off: what the month costs once usage is past them. */
  withoutFreeUsd: number;
  /**
   * A new account's sign-up credits (--new-account), given once: what they take off the first month, at
   * most its bill. Designs are ranked, and break-evens found, on the month without them.
   */
  creditsUsd: number;
  votes: number;
  /** Undefined in a month with no votes: a price per vote there is none of. */
  usdPerMillionVotes?: number;
  usage: MonthlyUsage;
  /** A month with CloudFront: a flat-rate plan or pay as you go, the cheaper, and why (cost/estimate/flat-rate.ts). */
  cloudFront?: CloudFrontPricing;
}

export interface BillOptions {
  /** Count the credits a new account gets at sign-up (NEW_ACCOUNT_CREDITS), and its quotas. */
  newAccount?: boolean;
  /** The region's prices: every line of the bill is read from it. */
  book: PriceBook;
}

/** Each price's words on a bill line (pricing/tiers.ts), made once: a bill is made at every volume priced. */
const priceTexts = new WeakMap<Price, Pick<BillLine, 'unit' | 'unitPrice'>>();

export function priceText(price: Price): Pick<BillLine, 'unit' | 'unitPrice'> {
  let text = priceTexts.get(price);
  if (text === undefined) {
    text = priceWords(price);
    priceTexts.set(price, text);
  }
  return text;
}

/** A month's usage as a bill, line by line, free tiers taken off (a shared pool once across its lines). */
export function priceUsage(usage: MonthlyUsage, stack: StackConfig, options: BillOptions): Bill {
  const pools = new Map<string, number>();
  const line = (priceId: PriceId, amount: number): BillLine => {
    const price: Price = options.book.prices[priceId];
    let free = 0;
    if (price.free) {
      const left = price.free.pool ? (pools.get(price.free.pool) ?? price.free.units) : price.free.units;
      free = Math.min(amount, left);
      if (price.free.pool) pools.set(price.free.pool, left - free);
    }
    const billable = amount - free;
    return {
      priceId,
      service: price.service,
      item: price.item,
      usage: amount,
      billable,
      ...priceText(price),
      usd: tieredCost(billable, price),
      assumption: price.assumption,
    };
  };
  const lines = BILLED_USAGE.flatMap((row) => billedAmounts(row, usage, stack))
    .map(([id, amount]) => line(id, amount))
    .filter((l) => l.usage > 0);
  const cloudFront = withFlatRatePlan(lines, usage, options, (id) => line(id, 1));
  const totalUsd = lines.reduce((sum, l) => sum + l.usd, 0);
  const withoutFreeUsd = lines.reduce((sum, l) => sum + tieredCost(l.usage, options.book.prices[l.priceId]), 0);
  const creditsUsd = options.newAccount ? Math.min(totalUsd, NEW_ACCOUNT_CREDITS.usd) : 0;
  return {
    lines,
    totalUsd,
    withoutFreeUsd,
    creditsUsd,
    votes: usage.votes,
    usdPerMillionVotes: perMillion(totalUsd, usage.votes),
    usage,
    cloudFront,
  };
}

/**
 * A row of the usage map's amounts by price: a variant's own where the usage is kept by variant (GB-seconds by
 * architecture), the stack's variant's (the API's kind), or a record's sum (Lambda requests of every function).
 */
function billedAmounts(row: BilledUsage, usage: MonthlyUsage, stack: StackConfig): [PriceId, number][] {
  const amount: number | Record<string, number> = usage[row.usage];
  if (row.each) return variantsOf(row.price).map(([variant, id]) => [id, (amount as Record<string, number>)[variant]]);
  const total = typeof amount === 'number' ? amount : Object.values(amount).reduce((a, b) => a + b, 0);
  return [[priceFor(row.price, stack.apiKind), total]];
}

/** CloudFront's lines a flat-rate plan includes: its requests, its transfer to viewers and its Functions. */
const IN_FLAT_RATE_PLAN: PriceId[] = ['cloudFrontRequests', 'cloudFrontTransfer', 'cloudFrontFunctions'];

/**
 * Where a flat-rate plan costs less than CloudFront's pay-as-you-go lines, those lines are billed $0 ("in the
 * plan") and the plan's month is added (`planLine`); the choice and why, either way. Changes `lines` in place.
 */
function withFlatRatePlan(
  lines: BillLine[],
  usage: MonthlyUsage,
  options: BillOptions,
  planLine: (id: PriceId) => BillLine,
): CloudFrontPricing | undefined {
  if (!(usage.cloudFrontRequests > 0)) return undefined;
  const included = lines.filter((l) => IN_FLAT_RATE_PLAN.includes(l.priceId));
  const month = {
    requests: usage.cloudFrontRequests,
    transferGb: usage.cloudFrontGb,
    paygUsd: included.reduce((sum, l) => sum + l.usd, 0),
  };
  const pricing = priceCloudFront(month, options);
  if (!pricing.plan) return pricing;
  for (const l of included) Object.assign(l, { usd: 0, unitPrice: `in the ${pricing.plan.name} plan` });
  lines.push(planLine(pricing.plan.id));
  return pricing;
}

/** Dollars per million of `count`; undefined where there are none to divide by (or too few to make a number of). */
export function perMillion(usd: number, count: number): number | undefined {
  const value = (usd / count) * 1e6;
  return count > 0 && Number.isFinite(value) ? value : undefined;
}
