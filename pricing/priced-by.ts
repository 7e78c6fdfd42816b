/**
 * The price a billed line is charged at (config/priced-metrics.ts PricedBy): one price, or one for each API kind
 * or architecture. Read by the cost dashboard (lib/) and the estimator alike.
 */
import type { PricedBy } from '../config/priced-metrics';
import type { PriceId } from './price-lines';

/** Every price a line may be billed at (both kinds', both architectures'). */
export const pricesOf = (price: PricedBy): PriceId[] => (typeof price === 'string' ? [price] : Object.values(price));

/** A price's variants, each with its price (none for a line with one price). */
export const variantsOf = (price: PricedBy): [string, PriceId][] =>
  typeof price === 'string' ? [] : (Object.entries(price) as [string, PriceId][]);

/** The price of a line for an API kind or an architecture (ignored where the line has one price). */
export function priceFor(price: PricedBy, variant: string): PriceId {
  if (typeof price === 'string') return price;
  const id = (price as Record<string, PriceId>)[variant];
  if (!id) throw new Error(`No price for ${variant} among ${Object.keys(price).join(', ')}`);
  return id;
}
