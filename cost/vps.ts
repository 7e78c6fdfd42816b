/**
 * The VPS baseline: what the poll platform usually runs on, as dated data.
 * Capacity is requests per second a box serves for this app, from the seeds'
 * published benchmarks (../shared/seeds/go-poll-redis.md, poll-vps-baseline.md).
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
}

export interface VpsTier {
  name: string;
  provider: string;
  monthlyUsd: number;
  vcpu: number;
  memoryGb: number;
  /** Transfer included per month, in GB; overage is charged per GB. */
  includedTransferGb: number;
  overageUsdPerGb: number;
  /** Peak requests per second one box serves. */
  capacityRps: number;
  /** Where the capacity comes from: a measurement or how it was derived. */
  capacitySource: string;
  priceSource: string;
  checked: string;
}

/**
 * GO Poll (Go + Redis with AOF, wrk) on a 1 vCPU droplet: ~5,800 votes/s. Current
 * tiers are rated per vCPU from it: conservative, since the seed measured less
 * per vCPU on its 3-vCPU box (12,000/s) and more on its 6-vCPU box (68,600/s).
 */
export const MEASURED_RPS_PER_VCPU = 5800;
const PER_VCPU = `${MEASURED_RPS_PER_VCPU} req/s per vCPU (GO Poll, 1 vCPU droplet, wrk) x vCPUs`;
const DO_PRICES = 'DigitalOcean Basic droplets 2026 (../shared/research/aws-prices-2026.md); overage $0.01/GiB';
/**
 * A benchmark's maximum is not an operating point: size boxes so the profile's
 * peak uses at most this share of their measured capacity.
 */
export const VPS_MAX_UTILISATION = 0.5;

const droplet = (monthlyUsd: number, vcpu: number, memoryGb: number, transferTb: number): VpsTier => ({
  name: `DO $${monthlyUsd} (${vcpu} vCPU, ${memoryGb} GB)`,
  provider: 'DigitalOcean',
  monthlyUsd,
  vcpu,
  memoryGb,
  includedTransferGb: transferTb * 1000,
  overageUsdPerGb: 0.01,
  capacityRps: vcpu * MEASURED_RPS_PER_VCPU,
  capacitySource: PER_VCPU,
  priceSource: DO_PRICES,
  checked: '2026-11',
});

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
    capacityRps: 12_000,
    capacitySource: 'GO Poll measured ~12,000 req/s on a $15/mo 3 vCPU droplet (wrk)',
    priceSource: 'poll-vps-baseline.md "Why not AWS?"; go-poll-redis.md',
    checked: '2026-11',
  },
  droplet(24, 2, 4, 4),
  droplet(48, 4, 8, 5),
];

/** The seed's headline comparison: the $15 box. */
export const BASELINE_VPS = VPS_TIERS.find((tier) => tier.monthlyUsd === 15)!;
