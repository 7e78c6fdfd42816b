/**
 * The other side of the question: the VPS the poll platform usually runs on, as dated price
 * data, and what this app serves on it, as measured by npm run bench:vps (cost/vps-capacity.json,
 * or --vps-from a run of yours). Other programs' figures are kept as labelled references.
 */

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
  /** The server's own CPU time per request (its processes, read from /proc), so the load generator on the cores does not count. */
  cpu: {
    what: string;
    /** µs of CPU a request, by route, by set-up: one process or two workers (and their primary), plain or behind TLS. */
    microsPerRequest: Record<'plain' | 'workersPlain' | 'tls' | 'workersTls', PerRoute>;
    /** With workers, the CPU a request spent in the primary alone (it owns the log: one core's ceiling on a box). */
    primaryMicrosPerRequest: PerRoute;
    /** How TLS was terminated. */
    tlsVia: string;
  };
}

/** A figure for each route the bench measures. */
export type PerRoute = Record<'options' | 'page' | 'vote' | 'results', number>;

export interface VpsTier {
  name: string;
  provider: string;
  monthlyUsd: number;
  vcpu: number;
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
 * A benchmark's maximum is not an operating point: size boxes so the profile's peak uses at
 * most this share of their measured capacity.
 */
export const VPS_MAX_UTILISATION = 0.5;

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

/**
 * What one process of the VPS edition serves of this mix, per second: each kind at its measured
 * rate, weighted by its share (creates are few, and cost about a vote).
 */
export function processCapacity(capacity: VpsCapacity, mix: RequestMix): number {
  const { routes } = capacity.measurement;
  const total = requestsOf(mix);
  if (total === 0) return routes.options.requestsPerSecond;
  // Each route's share of a request, so that a mix however small gives the same finite answer.
  const secondsPerRequest =
    mix.pages / total / routes.page.requestsPerSecond +
    mix.pollReads / total / routes.options.requestsPerSecond +
    mix.votes / total / routes.vote.requestsPerSecond +
    mix.results / total / routes.results.requestsPerSecond;
  return 1 / secondsPerRequest;
}

/**
 * The VPS edition is one Node process holding polls in memory, as the seed's platform is: it
 * uses one vCPU whatever the box has (the others serve the OS and a TLS proxy). More than one
 * box would need polls sharded across them, which is not built.
 */
export const PROCESSES_PER_BOX = 1;
