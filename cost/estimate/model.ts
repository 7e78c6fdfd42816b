/**
 * The cost model: a traffic profile and the stack's configuration become a month of usage
 * (monthly-usage.ts, from the shares of shares.ts and results-shares.ts), and usage becomes a bill, line by
 * line (bill.ts). Plain TypeScript with no Node or AWS imports, so the frontend can run it too.
 */
import type { StackConfig } from './stack-config';
import type { UnitCosts } from '../usage/unit-costs';
import type { TrafficProfile } from '../usage/traffic-profile';
import { monthlyUsage } from './monthly-usage';
import { priceUsage, type Bill, type BillOptions } from './bill';

/** The whole estimate for one profile. */
export function estimate(profile: TrafficProfile, stack: StackConfig, units: UnitCosts, options: BillOptions): Bill {
  return priceUsage(monthlyUsage(profile, stack, units), stack, options);
}
