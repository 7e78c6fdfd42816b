/**
 * What-ifs: the same month with one setting changed, to show which settings matter. (Which
 * AWS design serves the app, the API kind and how results are read, is cost/estimate/designs.ts: those
 * are deployable stacks, each priced from its own template.)
 */
import { estimate } from './model';
import type { Bill, BillOptions } from './bill';
import type { UnitCosts, FunctionRole } from '../usage/unit-costs';
import type { TrafficProfile } from '../usage/traffic-profile';
import type { FunctionConfig, StackConfig } from './stack-config';

export interface WhatIf {
  name: string;
  bill: Bill;
  /** Change against the baseline, USD per month (negative: cheaper). */
  deltaUsd: number;
}

type Variant = { name: string; profile?: TrafficProfile; stack?: StackConfig; units?: UnitCosts };

const everyFunction = (stack: StackConfig, change: Partial<FunctionConfig>): StackConfig => ({
  ...stack,
  functions: Object.fromEntries(
    Object.entries(stack.functions).map(([role, fn]) => [role, { ...fn, ...change }]),
  ) as Record<FunctionRole, FunctionConfig>,
});

function variants(profile: TrafficProfile, stack: StackConfig): Variant[] {
  return [
    { name: 'x86_64 instead of arm64', stack: everyFunction(stack, { architecture: 'x86_64' }) },
    ...[128, 512, 1024]
      .filter((mb) => mb !== stack.functions.getResults.memoryMb)
      // I/O-bound handlers: more memory does not make them much faster, so billed time is kept.
      .map((memoryMb) => ({
        name: `${memoryMb} MB functions (same billed time)`,
        stack: everyFunction(stack, { memoryMb }),
      })),
    {
      name: 'no carpooling: batch size 1, one counter write per vote',
      stack: { ...stack, consumer: { ...stack.consumer, batchSize: 1 } },
    },
    {
      name: 'plain-text logs (START/END/REPORT lines kept)',
      stack: everyFunction(stack, { logFormat: 'Text', systemLogLevel: 'INFO' }),
    },
    { name: 'X-Ray tracing on (default sampling)', stack: everyFunction(stack, { tracing: true }) },
    {
      name: profile.oneVotePerVoter ? 'one vote per voter off' : 'one vote per voter on',
      profile: { ...profile, oneVotePerVoter: !profile.oneVotePerVoter },
    },
    { name: 'viewers refresh every 5 s regardless (no back-off)', profile: { ...profile, refresh: 5 } },
    {
      name: 'nobody watches live results (votes and page loads only)',
      profile: { ...profile, resultsViewersPerPoll: 0 },
    },
  ];
}

/** Every what-if, most expensive change first. */
export function whatIfs(
  profile: TrafficProfile,
  stack: StackConfig,
  units: UnitCosts,
  options: BillOptions,
  baseline: Bill,
): WhatIf[] {
  return variants(profile, stack)
    .map((v) => {
      const bill = estimate(v.profile ?? profile, v.stack ?? stack, v.units ?? units, options);
      return { name: v.name, bill, deltaUsd: bill.totalUsd - baseline.totalUsd };
    })
    .sort((a, b) => Math.abs(b.deltaUsd) - Math.abs(a.deltaUsd));
}
