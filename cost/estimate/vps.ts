/**
 * The other side of the question: the VPS the poll platform usually runs on, as dated price
 * data, and what this app serves on it, as measured by npm run bench:vps (cost/estimate/vps-capacity.json,
 * or --vps-from a run of yours). Other programs' figures are kept as labelled references.
 */
import { RAISE_HEADROOM } from './capacity';

/** One route's figures from npm run bench:vps. */
export interface RouteRate {
  method: string;
  path: string;
  requestsPerSecond: number;
  latencyMs: { p50: number; p97_5: number; p99: number; max: number };
  requests: number;
  non2xx: number;
  errors: number;
}

/** What npm run bench:vps writes: this app's own capacity, with the machine and command that measured it. */
export interface VpsMeasurement {
  what: string;
  date: string;
  machine: { cpus: number; model: string; os: string; node: string };
  command: string;
  bare: RouteRate;
  routes: { options: RouteRate; page: RouteRate; vote: RouteRate; results: RouteRate };
  optionsShareOfBare: number;
  votes: { acknowledged: number; counted: number };
  journal?: { records: number; flushes: number; recordsPerFlush: number; msPerFlush: number };
  /**
   * The server's own CPU time per request (its processes, read from /proc), so the load generator
   * sharing the cores does not count.
   */
  cpu: {
    what: string;
    /** µs of CPU a request, by route and set-up: one process or two workers (and primary), plain or behind TLS. */
    microsPerRequest: Record<'plain' | 'workersPlain' | 'tls' | 'workersTls', RouteMicros>;
    /** With workers behind TLS, the CPU a request spent in the primary alone (it owns the log: one core's ceiling). */
    primaryMicrosPerRequest: RouteMicros;
    /** How TLS was terminated. */
    tlsVia: string;
  };
}

/** A figure for each route the bench measures: µs of CPU a request. */
export type RouteMicros = Record<'options' | 'page' | 'vote' | 'results', number>;

/** How much of a vCPU the box's processes get at the peak, with where that comes from: data, like a price. */
export interface VcpuShare {
  kind: string;
  /** The share of a vCPU counted on: capacity is vCPUs × this × what the measured vCPU served. */
  factor: number;
  source: string;
  checked: string;
  assumption: string;
}

/** A Basic Droplet's vCPU: shared with other Droplets on its host. */
export const SHARED_VCPU: VcpuShare = {
  kind: 'shared vCPU',
  factor: 1,
  source:
    'https://docs.digitalocean.com/products/droplets/concepts/choosing-a-plan/ (shared CPU: the hyperthread may be ' +
    'shared with other Droplets, which "could receive fractions of hyperthreads" when their neighbours are busy)',
  checked: '2026-11-25',
  assumption:
    'a shared vCPU counted as a whole one: DigitalOcean states no share, and bench:vps measured on a VM’s vCPU, ' +
    'itself shared; the CPU its neighbours steal at the peak comes out of the headroom',
};

export interface VpsTier {
  name: string;
  provider: string;
  monthlyUsd: number;
  vcpu: number;
  vcpuShare: VcpuShare;
  memoryGb: number;
  /** Transfer included per month, in GB; overage is charged per GB. */
  includedTransferGb: number;
  overageUsdPerGb: number;
  priceSource: string;
  checked: string;
}

const DO_PRICES = 'DigitalOcean Basic droplets 2026 (docs/sources.md); overage $0.01/GiB';

const droplet = (monthlyUsd: number, vcpu: number, memoryGb: number, transferTb: number): VpsTier => ({
  name: `DO $${monthlyUsd} (${vcpu} vCPU, ${memoryGb} GB)`,
  provider: 'DigitalOcean',
  monthlyUsd,
  vcpu,
  vcpuShare: SHARED_VCPU,
  memoryGb,
  includedTransferGb: transferTb * 1000,
  overageUsdPerGb: 0.01,
  priceSource: DO_PRICES,
  checked: '2026-11',
});

/** The VPS tiers the report prices the month on, cheapest first. */
export const VPS_TIERS: VpsTier[] = [
  droplet(6, 1, 1, 1),
  droplet(12, 1, 2, 2),
  {
    name: 'Seed’s $15 VPS (3 vCPU)',
    provider: 'any',
    monthlyUsd: 15,
    vcpu: 3,
    vcpuShare: SHARED_VCPU,
    memoryGb: 1,
    includedTransferGb: 3000,
    overageUsdPerGb: 0.01,
    priceSource: 'the seed platform: "But why not AWS?" (docs/sources.md)',
    checked: '2026-11',
  },
  droplet(24, 2, 4, 4),
  droplet(48, 4, 8, 5),
];

/** The seed's headline comparison: the $15 box. */
export const BASELINE_VPS = VPS_TIERS.find((tier) => tier.monthlyUsd === 15)!;

/**
 * A benchmark's maximum is not an operating point: a box carries a peak that uses at most this share
 * of its capacity. The same headroom as the AWS side's (quota raises ask for 1.25x the peak), so that
 * both sides are sized alike: 1 / 1.25 = 80%. The one margin covers what the measurement leaves out:
 * CPU a shared vCPU's neighbours steal at the peak (SHARED_VCPU), and the CPU a request costs below
 * saturation, where group commit writes fewer votes a flush than bench:vps's -c 100 did.
 */
export const VPS_MAX_UTILISATION = 1 / RAISE_HEADROOM;

/** Other programs' published figures: shown beside this app's own, never used to size it. */
export const CAPACITY_REFERENCES = [
  {
    name: 'GO Poll (Go + Redis with AOF), $5 1 vCPU droplet, wrk',
    requestsPerSecond: 5800,
    source: 'docs/sources.md, GO Poll',
  },
  {
    name: 'the seed platform’s Node server, one process, its 32-thread Xeon, autocannon -c 100 -d 10 (options route)',
    requestsPerSecond: 18_671,
    source: 'docs/sources.md, the seed',
  },
] as const;

/**
 * How many requests of each kind a month (or a second) brings, as the VPS edition serves them: one
 * origin, no CORS preflights.
 */
export interface RequestMix {
  pages: number;
  pollReads: number;
  votes: number;
  results: number;
}

/** All the requests of a mix. */
export const requestsOf = (mix: RequestMix): number => mix.pages + mix.pollReads + mix.votes + mix.results;

/**
 * What a load test against a VPS showed (npm run load -- <scenario> --target vps --url <yours>):
 * it runs at the scenario's arrival rate, so its rate is a floor on what the box serves, never
 * its capacity. The report sets it beside the profile's rate; sizing stays with a benchmark.
 */
export interface ObservedLoad {
  source: string;
  scenario: string;
  url: string;
  ratePerSecond: number;
  p99Ms: number;
}

/** Where the VPS capacity comes from, and what it is worth. */
export interface VpsCapacity {
  measurement: VpsMeasurement;
  /** The file it was read from. */
  source: string;
  observed?: ObservedLoad;
}

/** The µs of CPU a request of this mix costs on average: each route's, weighted by its share (creates cost a vote). */
export function microsOfMix(micros: RouteMicros, mix: RequestMix): number {
  const total = requestsOf(mix);
  if (total === 0) return micros.options;
  // Each route's share of a request, so that a mix however small gives the same finite answer.
  return (
    (mix.pages / total) * micros.page +
    (mix.pollReads / total) * micros.options +
    (mix.votes / total) * micros.vote +
    (mix.results / total) * micros.results
  );
}

/** What one box serves of a mix, a second, and what bounds it. */
export interface BoxCapacity {
  /** HTTP workers (npm run vps -- --workers auto: one per vCPU, and the primary); 0: one process, on one vCPU. */
  workers: number;
  /** CPU a request of the mix costs, its whole process tree (the TLS proxy's and the primary's counted). */
  microsPerRequest: number;
  /** With workers, the primary's own CPU a request: one core's worth of it is a ceiling whatever the vCPUs. */
  primaryMicrosPerRequest?: number;
  /** min(what the vCPUs serve, what the primary's one vCPU serves). */
  requestsPerSecond: number;
  binds: 'cores' | 'primary';
}

/**
 * What a box of `tier` serves of `mix` a second, from the CPU a request costs behind TLS: its vCPUs
 * (each counted at its share) over the mix's µs a request; on two vCPUs or more, as workers and a
 * primary that owns the log, no more than the primary's one vCPU serves (its share counted too).
 */
/**
 * What the primary that owns the log serves of this mix on its one vCPU: with workers, no box of
 * any size carries more (the edition does not shard).
 */
export const primaryCeiling = (tier: VpsTier, capacity: VpsCapacity, mix: RequestMix): number =>
  (tier.vcpuShare.factor * 1e6) / microsOfMix(capacity.measurement.cpu.primaryMicrosPerRequest, mix);

export function boxCapacity(tier: VpsTier, capacity: VpsCapacity, mix: RequestMix): BoxCapacity {
  const { microsPerRequest, primaryMicrosPerRequest } = capacity.measurement.cpu;
  const share = tier.vcpuShare.factor;
  const workers = tier.vcpu >= 2 ? tier.vcpu : 0;
  const micros = microsOfMix(workers ? microsPerRequest.workersTls : microsPerRequest.tls, mix);
  const cores = (tier.vcpu * share * 1e6) / micros;
  if (!workers) return { workers, microsPerRequest: micros, requestsPerSecond: cores, binds: 'cores' };
  const primaryMicros = microsOfMix(primaryMicrosPerRequest, mix);
  const primary = primaryCeiling(tier, capacity, mix);
  return {
    workers,
    microsPerRequest: micros,
    primaryMicrosPerRequest: primaryMicros,
    requestsPerSecond: Math.min(cores, primary),
    binds: primary < cores ? 'primary' : 'cores',
  };
}
