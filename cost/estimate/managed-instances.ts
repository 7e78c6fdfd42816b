/**
 * Lambda Managed Instances (2025-11) as a what-if for the function-URL design: its results function, and
 * with it the vote path, on EC2 instances Lambda runs for you, billed per instance hour plus a 15% fee and
 * the usual $0.20 per million requests, with no GB-second charge. Sized from the CPU this app's requests
 * cost (npm run bench:vps), at least the 3 instances AWS keeps for resilience. Not deployed. Pure.
 */
import { estimate } from './model';
import type { Bill, BillOptions } from './bill';
import type { StackConfig } from './stack-config';
import { VPS_MAX_UTILISATION, type RouteMicros } from './vps';
import { derivePeak } from '../usage/peaks';
import type { TrafficProfile } from '../usage/traffic-profile';
import type { FunctionRole, UnitCosts } from '../usage/unit-costs';

/** The instance priced (the price book's managedInstanceHours) and AWS's floor of them. */
export const MANAGED_INSTANCES = {
  instanceType: 'm7g.xlarge',
  vcpus: 4,
  minInstances: 3,
  source:
    'AWS docs "Scaling Lambda Managed Instances" (3 instances by default, for AZ resilience; functions from 2 GB ' +
    'and 1 vCPU; traffic more than doubling within 5 minutes may be throttled); aws.amazon.com/lambda/pricing',
  checked: '2026-11-26',
  notPriced:
    'the instances run in your VPC: reaching SQS needs an interface endpoint or a NAT gateway (charged, not in ' +
    'this figure; DynamoDB has a free gateway endpoint); function URLs on Managed Instances are not confirmed',
} as const;

/** One scenario: which functions move, the instances their peak needs, and the month's bill then. */
export interface ManagedInstancesWhatIf {
  name: string;
  roles: FunctionRole[];
  /** vCPUs the moved functions' peak needs, at the CPU a request costs, and the instances kept for it. */
  peakVcpus: number;
  instances: number;
  bill: Bill;
  /** Against the design's own bill (negative: cheaper). */
  deltaUsd: number;
}

/** The µs of CPU a request of each moved function costs: its route's, measured (a batch counts as its votes). */
const routeOf: Partial<Record<FunctionRole, keyof RouteMicros>> = { getResults: 'results', castVote: 'vote' };

/**
 * The function-URL design with its results function, then also the vote path, on Managed Instances. Instances
 * are sized from the CPU the peak's requests cost (VPS_MAX_UTILISATION of each vCPU, as the VPS rows), at least
 * AWS's 3, and kept all month: Lambda scales them on CPU, too slowly for a peak that more than doubles within 5
 * minutes, so a hot poll's must be there beforehand.
 */
export function managedInstancesWhatIfs(
  profile: TrafficProfile,
  stack: StackConfig,
  units: UnitCosts,
  options: BillOptions,
  micros: RouteMicros,
  baseline: Bill,
): ManagedInstancesWhatIf[] {
  const { routes } = derivePeak(profile);
  const peakRps: Partial<Record<FunctionRole, number>> = { getResults: routes.results, castVote: routes.votes };
  const scenarios: [string, FunctionRole[]][] = [
    ['results function on Lambda Managed Instances', ['getResults']],
    ['results function and vote path on Lambda Managed Instances', ['getResults', 'castVote', 'countVotes']],
  ];
  return scenarios.map(([name, roles]) => {
    const cpuSeconds = roles.reduce((sum, role) => {
      const route = routeOf[role];
      return sum + (route ? ((peakRps[role] ?? 0) * micros[route]) / 1e6 : 0);
    }, 0);
    const peakVcpus = cpuSeconds / VPS_MAX_UTILISATION;
    const instances = Math.max(MANAGED_INSTANCES.minInstances, Math.ceil(peakVcpus / MANAGED_INSTANCES.vcpus));
    const bill = estimate(profile, { ...stack, managedInstances: { roles, instances } }, units, options);
    return { name, roles, peakVcpus, instances, bill, deltaUsd: bill.totalUsd - baseline.totalUsd };
  });
}
