/**
 * The one map from a month's usage to the bill's price lines (config/priced-metrics.ts BILLED_USAGE): the bill
 * is made from it, each quantity billed at its row's price and at nothing else, a quantity kept by variant at
 * each variant's price, one kept whole at the stack's variant's; and the measured month fills the same rows.
 */
import { describe, expect, it } from 'vitest';
import { BILLED_USAGE } from '../../../config/priced-metrics';
import { priceUsage } from '../../../cost/estimate/bill';
import type { MonthlyUsage } from '../../../cost/estimate/monthly-usage';
import { FUNCTION_ROLES, type FunctionRole } from '../../../cost/usage/unit-costs';
import { tieredCost } from '../../../pricing/tiers';
import { designStack } from '../../support/cost';
import { BILL } from '../../support/prices';
import { priceFor, pricesOf } from '../../../pricing/priced-by';

const perRole = (n: number) => Object.fromEntries(FUNCTION_ROLES.map((r) => [r, n])) as Record<FunctionRole, number>;

/** A month with nothing in it but `changes`. */
function monthOf(changes: Partial<MonthlyUsage>): MonthlyUsage {
  const zero = Object.fromEntries(BILLED_USAGE.map((row) => [row.usage, 0]));
  return {
    ...zero,
    polls: 0,
    votes: 0,
    pageLoads: 0,
    resultsRequests: 0,
    preflights: 0,
    functionUrlRequests: 0,
    clientRequests: 0,
    invocations: perRole(0),
    coldStartShares: perRole(0),
    gbSeconds: { arm64: 0, x86_64: 0 },
    ...changes,
  } as MonthlyUsage;
}

const AMOUNT = 7e9;

describe('the usage map', () => {
  it("bills each quantity at its rows' prices and at nothing else, through their tiers and free tiers", () => {
    const stack = designStack();
    for (const quantity of new Set(BILLED_USAGE.map((row) => row.usage))) {
      const rows = BILLED_USAGE.filter((row) => row.usage === quantity);
      const amount = quantity === 'invocations' ? perRole(AMOUNT / FUNCTION_ROLES.length) : AMOUNT;
      const value = quantity === 'gbSeconds' ? { arm64: AMOUNT, x86_64: AMOUNT / 2 } : amount;
      const bill = priceUsage(monthOf({ [quantity]: value }), stack, BILL);
      const expected = rows.flatMap((row) => (row.each ? pricesOf(row.price) : [priceFor(row.price, stack.apiKind)]));
      expect(
        bill.lines.map((l) => l.priceId).filter((id) => !id.startsWith('cloudFrontPlan')),
        quantity,
      ).toEqual(expected);
      for (const line of bill.lines.filter((l) => expected.includes(l.priceId))) {
        expect(line.usage, line.priceId).toBe(line.priceId === 'lambdaX86GbSeconds' ? AMOUNT / 2 : AMOUNT);
        const price = BILL.book.prices[line.priceId];
        // The free tier off (a pool may be shared with the other variant), the rest through the tiers.
        expect(line.usage - line.billable, line.priceId).toBeLessThanOrEqual(price.free?.units ?? 0);
        if (line.unitPrice.startsWith('in the')) continue; // a CloudFront flat-rate plan's
        expect(line.usd, line.priceId).toBeCloseTo(tieredCost(line.billable, price), 6);
      }
    }
  });

  it('prices each quantity at the lines AWS bills it at (a table written apart from the map)', () => {
    const billedAt = Object.fromEntries(
      [...new Set(BILLED_USAGE.map((row) => row.usage))].map((q) => [
        q,
        BILLED_USAGE.filter((row) => row.usage === q).flatMap((row) => pricesOf(row.price)),
      ]),
    );
    expect(billedAt).toEqual({
      apiRequests: ['httpApiRequests', 'restApiRequests'],
      invocations: ['lambdaRequests'],
      gbSeconds: ['lambdaArmGbSeconds', 'lambdaX86GbSeconds'],
      sqsRequests: ['sqsFifoRequests'],
      writeUnits: ['dynamoWriteUnits'],
      readUnits: ['dynamoReadUnits'],
      storageGb: ['dynamoStorage'],
      logsGb: ['logsIngestion'],
      logsStoredGb: ['logsStorage'],
      alarms: ['alarms'],
      dashboards: ['dashboards'],
      customMetrics: ['customMetrics'],
      xrayTraces: ['xrayTraces'],
      webSocketMessages: ['webSocketMessages'],
      webSocketConnectionMinutes: ['webSocketConnectionMinutes'],
      cloudFrontRequests: ['cloudFrontRequests'],
      cloudFrontFunctionInvocations: ['cloudFrontFunctions'],
      cloudFrontGb: ['cloudFrontTransfer'],
      cloudFrontOriginGb: ['cloudFrontOriginTransfer'],
      s3Gets: ['s3Gets'],
      managedInstanceHours: ['managedInstanceHours', 'managedInstanceFee'],
      apiTransferGb: ['dataTransferOut'],
    });
  });

  it("bills a quantity kept whole at the stack's variant: the API's kind", () => {
    const month = monthOf({ apiRequests: 1e6 });
    expect(priceUsage(month, designStack(), BILL).lines.map((l) => l.priceId)).toEqual(['httpApiRequests']);
    expect(priceUsage(month, designStack({ apiKind: 'rest' }), BILL).lines.map((l) => l.priceId)).toEqual([
      'restApiRequests',
    ]);
  });
});
