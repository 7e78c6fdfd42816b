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

/**
 * The ways a box terminates TLS that npm run bench:vps measures, each in front of one process and of two
 * workers; docs/vps.md deploys DEPLOYED_TLS.
 */
export const TLS_SETUPS = {
  caddy: 'Caddy as docs/vps.md deployed it until 2026-11 (reverse_proxy, its default idle upstream connections)',
  caddyKeepAlive: "Caddy with keepalive_idle_conns_per_host at the bench's connection count",
  nginx: "nginx with upstream keepalive at the bench's connection count",
  node: "the edition's own TLS: node:https in each process that serves HTTP (--tls-cert, --tls-key)",
} as const;
export type TlsSetup = keyof typeof TLS_SETUPS;

/**
 * What docs/vps.md deploys and the model prices a box with: the set-up that cost the least CPU a request
 * in the run of 2026-11-26 (cost/estimate/vps-capacity.json; docs/vps.md gives the figures).
 */
export const DEPLOYED_TLS: TlsSetup = 'node';

/** µs of CPU a request in one set-up: each route, one process and two workers, and a bare server's beside them. */
export interface SetupMicros {
  oneProcess: RouteMicros;
  workers: RouteMicros;
  /** A bare node:http server answering a fixed JSON body, run the same way (same workers, same TLS). */
  bare: { oneProcess: number; workers: number };
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
    /** Plain HTTP. */
    plain: SetupMicros;
    /** Each TLS set-up, with what ran it; null: not measured in this run (--tls). */
    tls: Record<TlsSetup, (SetupMicros & { via: string }) | null>;
    /** With workers, the CPU a request spent in the primary alone (it owns the log: one vCPU's ceiling). */
    primaryMicrosPerRequest: RouteMicros;
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

/** A Basic Droplet's (or a Hetzner CX's) vCPU: shared with other machines on its host. */
export const SHARED_VCPU: VcpuShare = {
  kind: 'shared vCPU',
  factor: 0.5,
  source:
    'https://docs.digitalocean.com/products/droplets/concepts/choosing-a-plan/ (shared CPU: the hyperthread may be ' +
    'shared with other Droplets, which "could receive fractions of hyperthreads" when their neighbours are busy)',
  checked: '2026-11-26',
  assumption:
    'a shared vCPU counted as half a dedicated one: no provider states a share, and a peak is when neighbours ' +
    'may be busy too; half is a stated assumption, not a measurement (set SHARED_VCPU.factor to yours)',
};

/** A CPU-Optimized Droplet's, a Hetzner CCX's or a dedicated server's vCPU: a hyperthread of its own. */
export const DEDICATED_VCPU: VcpuShare = {
  kind: 'dedicated vCPU',
  factor: 1,
  source:
    'https://docs.digitalocean.com/products/droplets/concepts/choosing-a-plan/ ("Dedicated CPU Droplets have ' +
    'guaranteed access to the full hyperthread at all times")',
  checked: '2026-11-26',
  assumption: 'a dedicated vCPU counted as one, the vCPU bench:vps measured on',
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

/** A CPU-Optimized Droplet: dedicated vCPUs at $21 a vCPU a month (c-2 $42). */
const cpuOptimized = (vcpu: number): VpsTier => ({
  name: `DO CPU-Opt. c-${vcpu} (${vcpu} dedicated)`,
  provider: 'DigitalOcean',
  monthlyUsd: 21 * vcpu,
  vcpu,
  vcpuShare: DEDICATED_VCPU,
  memoryGb: 2 * vcpu,
  includedTransferGb: 4000,
  overageUsdPerGb: 0.01,
  priceSource:
    'DigitalOcean CPU-Optimized droplets (docs/sources.md): c-2 $42 a month; larger sizes at the same $21 a vCPU ' +
    '(assumption *: the size list scales linearly); transfer allowance assumed 4 TB',
  checked: '2026-11-26',
});

/**
 * Hetzner prices in euros, converted at this rate: EUR 1 = USD 1.16, an assumption (about the 2025-26 level;
 * not a quoted rate), checked 2026-11-26. Change it to price with today's.
 */
export const USD_PER_EUR = 1.16;
/** Hetzner's gross prices include 19% German VAT; the tiers use the net price, as DigitalOcean's are quoted. */
const GERMAN_VAT = 1.19;
/** Hetzner Cloud raised prices on 2026-04-01: the CCX63 from EUR 343.30 to 359.40 gross; the others taken as alike. */
const HETZNER_2026_04 = 359.4 / 343.3;
/**
 * And again on 2026-06-15 (a third-party note, docs/sources.md): the CCX13 from EUR 15.99 to 42.99 net,
 * "the dedicated-CPU line went up over 200%"; the other CCX sizes taken as alike.
 */
const HETZNER_CCX_2026_06 = 42.99 / 15.99;

/** A Hetzner Cloud CCX: dedicated vCPUs, priced from its gross EUR price before 2026-04 and both raises. */
const ccx = (name: string, vcpu: number, memoryGb: number, grossEurBefore2026_04: number): VpsTier => ({
  name: `Hetzner ${name} (${vcpu} dedicated)`,
  provider: 'Hetzner',
  monthlyUsd: round2((grossEurBefore2026_04 / GERMAN_VAT) * HETZNER_2026_04 * HETZNER_CCX_2026_06 * USD_PER_EUR),
  vcpu,
  vcpuShare: DEDICATED_VCPU,
  memoryGb,
  includedTransferGb: 20_000,
  overageUsdPerGb: (1 * USD_PER_EUR) / 1000,
  priceSource:
    `Hetzner Cloud ${name} (docs/sources.md): EUR ${grossEurBefore2026_04} gross before 2026-04, net of 19% VAT, ` +
    `raised as the CCX63 was on 2026-04-01 (x${HETZNER_2026_04.toFixed(3)}) and as the CCX13 was on 2026-06-15 ` +
    `(x${HETZNER_CCX_2026_06.toFixed(2)}) *, at USD ${USD_PER_EUR} a euro *; 20 TB included in EU locations, ` +
    'EUR 1 a TB over',
  checked: '2026-11-26',
});

const round2 = (usd: number) => Math.round(usd * 100) / 100;

/** The VPS tiers the report prices the month on, cheapest first. */
export const VPS_TIERS: VpsTier[] = [
  {
    name: 'Hetzner CX23 (2 vCPU)',
    provider: 'Hetzner',
    monthlyUsd: round2(5.49 * USD_PER_EUR),
    vcpu: 2,
    vcpuShare: SHARED_VCPU,
    memoryGb: 4,
    includedTransferGb: 20_000,
    overageUsdPerGb: (1 * USD_PER_EUR) / 1000,
    priceSource:
      `Hetzner Cloud CX23 (docs/sources.md): EUR 5.49 net since 2026-06-15 (3.99 from 2026-04), ` +
      `at USD ${USD_PER_EUR} a euro *; 20 TB included in EU locations`,
    checked: '2026-11-26',
  },
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
  cpuOptimized(2),
  droplet(48, 4, 8, 5),
  ccx('CCX33', 8, 32, 57.7),
  {
    name: 'Hetzner AX52 (16 threads)',
    provider: 'Hetzner',
    monthlyUsd: round2(59 * USD_PER_EUR),
    vcpu: 16,
    vcpuShare: DEDICATED_VCPU,
    memoryGb: 64,
    // Unmetered: a petabyte a month stands for it (a finite figure, so that the report's JSON keeps it).
    includedTransferGb: 1e6,
    overageUsdPerGb: 0,
    priceSource:
      `Hetzner dedicated server AX52, 8 cores / 16 threads (docs/sources.md): about EUR 59 a month net, ` +
      `2026-08, at USD ${USD_PER_EUR} a euro *; its one-off setup fee not counted; traffic unmetered`,
    checked: '2026-11-26',
  },
  ccx('CCX43', 16, 64, 114.82),
  cpuOptimized(8),
].sort((a, b) => a.monthlyUsd - b.monthlyUsd);

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

/**
 * The seed documents' published figures, with their conditions: shown beside this app's own, never
 * used to size it (another program, another machine, other durability).
 */
export const CAPACITY_REFERENCES = [
  {
    name: 'GO Poll (Go + Redis), DigitalOcean $5 droplet, 1 vCPU 1.8 GHz',
    requestsPerSecond: 5_800,
    monthlyUsd: 5,
    conditions: 'votes; plain HTTP, Redis AOF every second, wrk with 10,000-20,000 connections, 2018',
    source: 'docs/sources.md, GO Poll',
  },
  {
    name: 'GO Poll (Go + Redis), DigitalOcean $15 droplet, 3 vCPU',
    requestsPerSecond: 12_000,
    monthlyUsd: 15,
    conditions: 'votes; plain HTTP, Redis AOF every second, wrk with 10,000-15,000 connections, 2018',
    source: 'docs/sources.md, GO Poll',
  },
  {
    name: 'GO Poll (Go + Redis), DigitalOcean $80 droplet, 6 vCPU',
    requestsPerSecond: 68_630,
    monthlyUsd: 80,
    conditions:
      'votes, its best of three runs (30,500 in the other two); plain HTTP, Redis AOF every second, wrk with ' +
      '70,000 connections, 2018',
    source: 'docs/sources.md, GO Poll',
  },
  {
    name: 'the seed platform’s Node server, one process, 2x Xeon E5-2450 v2 (32 threads)',
    requestsPerSecond: 18_671,
    conditions: 'options route (live counts); plain HTTP on localhost, in Docker, autocannon -c 100 -d 10',
    source: 'docs/sources.md, the seed',
  },
  {
    name: 'the seed platform’s Rust/axum server, 8 threads, the same Xeons',
    requestsPerSecond: 140_000,
    conditions: 'in memory (no Redis, nothing on disk); plain HTTP on localhost, autocannon',
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

/**
 * The TLS figures a box is priced with: the deployed set-up's if the run measured it, else another
 * measured one, else none (a --tls off run: plain HTTP, TLS not counted); `says` tells which.
 */
export interface PricedTls {
  setup?: TlsSetup;
  oneProcess: RouteMicros;
  workers: RouteMicros;
  says: string;
}

export function pricedTls(measurement: VpsMeasurement): PricedTls {
  const { tls, plain } = measurement.cpu;
  const measured = (Object.keys(TLS_SETUPS) as TlsSetup[]).filter((name) => tls[name]);
  const setup = measured.includes(DEPLOYED_TLS) ? DEPLOYED_TLS : measured[0];
  if (!setup)
    return {
      ...plain,
      says: 'without TLS: this run measured none (npm run bench:vps -- --tls off), so TLS costs are not counted',
    };
  const figures = tls[setup]!;
  return {
    setup,
    oneProcess: figures.oneProcess,
    workers: figures.workers,
    says:
      setup === DEPLOYED_TLS
        ? `behind TLS as docs/vps.md deploys it, ${figures.via}`
        : `behind TLS by ${figures.via} (this run did not measure the deployed set-up, ${TLS_SETUPS[DEPLOYED_TLS]})`,
  };
}

/** What one box serves of a mix, a second, and what bounds it. */
export interface BoxCapacity {
  /** HTTP workers (npm run vps -- --workers auto: one per vCPU, and the primary); 0: one process, on one vCPU. */
  workers: number;
  /** CPU a request of the mix costs, its whole process tree (the TLS proxy's and the primary's counted). */
  microsPerRequest: number;
  /** With workers, the primary's own CPU a request: one core's worth of it is a ceiling whatever the vCPUs. */
  primaryMicrosPerRequest?: number;
  /** What the box's vCPUs serve of the mix (each counted at its share). */
  coresRequestsPerSecond: number;
  /** With workers, what this edition's writer (the primary that owns the log) serves on its one vCPU. */
  writerRequestsPerSecond?: number;
  /** min(what the vCPUs serve, what the writer serves). */
  requestsPerSecond: number;
  /** cores: the box's limit; writer: this edition's, whatever the box. */
  binds: 'cores' | 'writer';
}

/**
 * What the primary that owns the log serves of this mix on its one vCPU: with workers, no box of
 * any size carries more (the edition does not shard). A limit of this edition, not of the box.
 */
export const writerCeiling = (tier: VpsTier, capacity: VpsCapacity, mix: RequestMix): number =>
  (tier.vcpuShare.factor * 1e6) / microsOfMix(capacity.measurement.cpu.primaryMicrosPerRequest, mix);

/**
 * What a box of `tier` serves of `mix` a second, from the CPU a request costs behind TLS (pricedTls):
 * its vCPUs (each counted at its share) over the mix's µs a request; on two vCPUs or more, as workers
 * and a primary that owns the log, no more than the primary's one vCPU serves (its share counted too).
 */
export function boxCapacity(tier: VpsTier, capacity: VpsCapacity, mix: RequestMix): BoxCapacity {
  const tls = pricedTls(capacity.measurement);
  const workers = tier.vcpu >= 2 ? tier.vcpu : 0;
  const micros = microsOfMix(workers ? tls.workers : tls.oneProcess, mix);
  const cores = (tier.vcpu * tier.vcpuShare.factor * 1e6) / micros;
  const base = { workers, microsPerRequest: micros, coresRequestsPerSecond: cores };
  const primaryMicros = microsOfMix(capacity.measurement.cpu.primaryMicrosPerRequest, mix);
  // One process has no writer apart; a primary whose share was below the clock's tick sets no measured ceiling.
  if (!workers || primaryMicros <= 0)
    return { ...base, ...(workers ? { primaryMicrosPerRequest: 0 } : {}), requestsPerSecond: cores, binds: 'cores' };
  const writer = writerCeiling(tier, capacity, mix);
  return {
    ...base,
    primaryMicrosPerRequest: primaryMicros,
    writerRequestsPerSecond: writer,
    requestsPerSecond: Math.min(cores, writer),
    binds: writer < cores ? 'writer' : 'cores',
  };
}
