/**
 * The other side of the question: what this app serves on a VPS, as measured by npm run bench:vps
 * (cost/estimate/vps-capacity.json, or --vps-from a run of yours), and what one box of a tier
 * (./vps-tiers.ts) carries of a peak's mix.
 */
import { NamedError } from '../../domain/errors';
import { RAISE_HEADROOM } from './capacity';
import type { VpsTier } from './vps-tiers';
import { autoWorkers } from '../../sizing/vps-workers';

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
  /** The same bare server sent the vote's own request (a POST and its body): what a vote is set against. */
  barePost?: { oneProcess: number; workers: number };
}

/** What npm run bench:vps writes: this app's own capacity, with the machine and command that measured it. */
export interface VpsMeasurement {
  what: string;
  date: string;
  machine: { cpus: number; model: string; os: string; node: string };
  command: string;
  bare: RouteRate;
  /**
   * µs a request by worker count from a many-core run (a bench file of one box that measured no count above 2 has
   * none: the committed one's).
   */
  workerCurve?: WorkerCurve;
  /** Each worker count measured, plain HTTP, and what bound each run (absent from files of an older bench:vps). */
  byWorkers?: { what: string; source: string; counts: WorkerCountFigures[] };
  /** The bare server's rate under the vote's request (absent from files written before bench:vps measured it). */
  barePost?: RouteRate;
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

/** One worker count's plain HTTP runs in npm run bench:vps -- --workers: a route's, or the bare server's. */
export interface WorkerCountFigures {
  /** 1: one process; more: HTTP workers and the primary that owns the log. */
  workers: number;
  /** What --workers auto ran on the machine that measured it. */
  auto: boolean;
  /** The cores the server ran on (a box of that many vCPUs). */
  serverCores: number;
  /** The load generator's cores: its own, or the server's (shared) where the machine had none to spare. */
  loadGenerator: { cores: number; shared: boolean };
  routes: Record<keyof RouteMicros | 'bare' | 'barePost', CountRun>;
}

/** The routes each worker count's capacity is read on. */
export const COUNT_ROUTES = ['options', 'results', 'vote'] as const;

/**
 * A count against one process, on a route: its capacity on its cores set against one process's, a box's cores ÷
 * µs a request (one process counted on one core: its one thread serves every request), and the rates measured.
 */
export const againstOneProcess = (
  one: WorkerCountFigures,
  c: WorkerCountFigures,
  route: (typeof COUNT_ROUTES)[number],
): { byCores: number; byRate: number } => ({
  byCores: (c.serverCores * one.routes[route].micros) / c.routes[route].micros,
  byRate: c.routes[route].requestsPerSecond / one.routes[route].requestsPerSecond,
});

/** A route's runs at one worker count: rate, µs, the cores each side kept busy, and what bound the rate. */
export interface CountRun {
  requestsPerSecond: number;
  micros: number;
  /** In the primary that owns the log (0: one process). */
  primaryMicros: number;
  busy: { server: number; loadGenerator: number; others: number };
  limit: 'server' | 'load generator' | 'other';
}

/**
 * µs of CPU a request by HTTP worker count, measured on a many-core box: how a request's CPU grows as workers
 * are added (the page is not in it: it grows as options does).
 */
export interface WorkerCurve {
  what: string;
  /** Which run, on which host. */
  source: string;
  /** Counts measured, ascending, from 2 (the count bench:vps measures). */
  workers: number[];
  /** For each route, its µs at each count. */
  micros: Record<'options' | 'vote' | 'results', number[]>;
}

/** A file's curve that is not one: what is wrong with it. */
export class BadWorkerCurve extends NamedError {
  override readonly name = 'BadWorkerCurve';
}

/** The curve checked: counts ascending from 2, a positive µs for each count of each route. */
export function checkWorkerCurve(curve: unknown): WorkerCurve {
  const fault = (what: string): never => {
    throw new BadWorkerCurve(`workerCurve: ${what}`);
  };
  if (typeof curve !== 'object' || curve === null) return fault('not an object');
  const { what, source, workers, micros } = curve as WorkerCurve;
  if (typeof what !== 'string' || typeof source !== 'string' || !source) fault('what and source must be text');
  if (
    !Array.isArray(workers) ||
    workers[0] !== 2 ||
    workers.some((w, i) => !Number.isInteger(w) || w <= workers[i - 1])
  )
    fault('workers must be whole counts, ascending, from 2');
  for (const route of ['options', 'vote', 'results'] as const) {
    const row = micros?.[route];
    if (!Array.isArray(row) || row.length !== workers.length || row.some((m) => !(typeof m === 'number' && m > 0)))
      fault(`micros.${route} must be a µs above 0 for each of the ${workers.length} counts`);
  }
  return curve as WorkerCurve;
}

/**
 * How a request's µs with `workers` HTTP workers compares with its µs at 2, route by route, from the curve:
 * interpolated between the counts measured; past the largest, the largest's, and `past` names that count.
 * Without a curve: as at 2, and `past` is 2.
 */
export function workerGrowth(curve: WorkerCurve | undefined, workers: number): { factor: RouteMicros; past?: number } {
  if (!curve) return { factor: { options: 1, page: 1, vote: 1, results: 1 }, ...(workers > 2 && { past: 2 }) };
  const counts = curve.workers;
  const largest = counts[counts.length - 1];
  const at = Math.min(workers, largest);
  const upper = Math.max(
    1,
    counts.findIndex((w) => w >= at),
  );
  const t = (at - counts[upper - 1]) / (counts[upper] - counts[upper - 1] || 1);
  const grown = (row: number[]) => (row[upper - 1] + t * (row[upper] - row[upper - 1])) / row[0];
  const options = counts.length > 1 ? grown(curve.micros.options) : 1;
  return {
    factor: {
      options,
      page: options,
      vote: counts.length > 1 ? grown(curve.micros.vote) : 1,
      results: counts.length > 1 ? grown(curve.micros.results) : 1,
    },
    ...(workers > largest && { past: largest }),
  };
}

/**
 * A benchmark's maximum is not an operating point: a box carries a peak that uses at most this share
 * of its capacity. The same headroom as the AWS side's (quota raises ask for 1.25x the peak), so that
 * both sides are sized alike: 1 / 1.25 = 80%. The one margin covers what the measurement leaves out:
 * CPU a shared vCPU's neighbours steal at the peak (SHARED_VCPU), and the CPU a request costs below
 * saturation, where group commit writes fewer votes a flush than bench:vps's -c 100 did.
 */
export const VPS_MAX_UTILISATION = 1 / RAISE_HEADROOM;

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
  /** HTTP workers and the primary that --workers auto runs on the box (sizing/vps-workers.ts); 0: one process. */
  workers: number;
  /** More workers than the curve measured: their µs a request taken as at this count, the largest measured. */
  pastCurve?: number;
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

/** Each route's µs at 2 workers grown by its factor. */
export const grownMicros = (micros: RouteMicros, factor: RouteMicros): RouteMicros => ({
  options: micros.options * factor.options,
  page: micros.page * factor.page,
  vote: micros.vote * factor.vote,
  results: micros.results * factor.results,
});

/**
 * What a box of `tier` serves of `mix` a second, from the CPU a request costs behind TLS (pricedTls), as
 * --workers auto runs it there (sizing/vps-workers.ts): one process, on one vCPU (its one thread serves every
 * request), or workers, on all of them (each counted at its share) over the mix's µs a request, and no more
 * than the primary that owns the log serves on its one vCPU (its share counted too).
 */
export function boxCapacity(tier: VpsTier, capacity: VpsCapacity, mix: RequestMix): BoxCapacity {
  const tls = pricedTls(capacity.measurement);
  const auto = autoWorkers(tier.vcpu);
  const workers = auto > 1 ? auto : 0;
  const { factor, past } = workerGrowth(capacity.measurement.workerCurve, workers);
  const micros = workers ? microsOfMix(grownMicros(tls.workers, factor), mix) : microsOfMix(tls.oneProcess, mix);
  const cores = ((workers ? tier.vcpu : Math.min(tier.vcpu, 1)) * tier.vcpuShare.factor * 1e6) / micros;
  const base = {
    workers,
    ...(workers && past && { pastCurve: past }),
    microsPerRequest: micros,
    coresRequestsPerSecond: cores,
  };
  const primaryMicros = microsOfMix(capacity.measurement.cpu.primaryMicrosPerRequest, mix);
  // What the primary that owns the log serves of this mix on its one vCPU: with workers, no box of any size
  // carries more (the edition does not shard), a limit of this edition, not of the box.
  const writer = (tier.vcpuShare.factor * 1e6) / primaryMicros;
  // One process has no writer apart. A primary whose share was below the clock's tick, or a mix with next to
  // none of what it does (a ceiling past any number), sets no measured ceiling.
  if (!workers || !Number.isFinite(writer))
    return { ...base, ...(workers ? { primaryMicrosPerRequest: 0 } : {}), requestsPerSecond: cores, binds: 'cores' };
  return {
    ...base,
    primaryMicrosPerRequest: primaryMicros,
    writerRequestsPerSecond: writer,
    requestsPerSecond: Math.min(cores, writer),
    binds: writer < cores ? 'writer' : 'cores',
  };
}
