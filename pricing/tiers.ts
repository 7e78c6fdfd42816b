/**
 * How a price is read: through its tiers. A month's cost walks the tiers (cumulative over the month); a rate
 * where no month is summed (a flood's hour, a dashboard's hour, a floor) is the list rate, the first tier's:
 * the dearest, before volume discounts. Free tiers are the bill's (cost/estimate/bill.ts): they pool across lines.
 */
import type { Price } from './price-book';

type Tiered = Pick<Price, 'tiers' | 'per'>;

/** The cost of `units` raw units under tiered prices (tiers are cumulative over the month). */
export function tieredCost(units: number, price: Tiered): number {
  let cost = 0;
  let floor = 0;
  for (const tier of price.tiers) {
    const ceiling = tier.upTo ?? Infinity;
    if (units <= floor) break;
    cost += ((Math.min(units, ceiling) - floor) / price.per) * tier.price;
    floor = ceiling;
  }
  return cost;
}

/** The list price as the book writes it: the first tier's, the dearest (an upper bound past the first tier). */
export const listPrice = ({ tiers, per }: Tiered): { price: number; per: number } => ({ price: tiers[0].price, per });

/** A raw unit's list price. */
export const listRate = (price: Tiered): number => listPrice(price).price / price.per;

/**
 * A price's words on a bill line: its unit ("requests" for "1M requests"), and the list price as the bill prints
 * it ("$0.2 per 1M requests", "(tiered)" after it when it has tiers).
 */
export function priceWords(price: Pick<Price, 'tiers' | 'per' | 'unit'>): { unit: string; unitPrice: string } {
  const first = listPrice(price)
    .price.toPrecision(3)
    .replace(/\.?0+$/, '');
  return {
    // "1M requests" -> "requests": usage is counted in raw units.
    unit: price.unit.replace(/^[\d.]+[kM]? /, ''),
    unitPrice: `$${first} per ${price.unit}${price.tiers.length > 1 ? ' (tiered)' : ''}`,
  };
}
