/**
 * What npm run bench:vps prints at the end: by set-up (a worker count, plain or behind each TLS set-up),
 * each route's rate and CPU a request, this edition against the bare node:http server run the same way as
 * ratios, what TLS adds, each count's µs and rate with what bound it, and the check that every acknowledged
 * vote counted.
 */
import type { Result } from 'autocannon';
import {
  againstOneProcess,
  COUNT_ROUTES,
  type TlsSetup,
  type VpsMeasurement,
  type WorkerCountFigures,
} from '../cost/estimate/vps';
import { countLabel } from '../sizing/vps-workers';
import type { Placement } from './vps-placement';

export interface Setup {
  key: string;
  label: string;
  /** 1: one process. */
  workers: number;
  /** What --workers auto runs on this machine. */
  auto: boolean;
  tls?: TlsSetup;
}
/**
 * One autocannon run, with the server's CPU per request over it (and the primary's alone, with workers), the
 * cores the server, the load generator and the machine's other processes kept busy.
 */
export interface Run {
  result: Result;
  micros: number;
  primaryMicros: number;
  busy: { server: number; loadGenerator: number; others: number };
}
type RouteName = keyof VpsMeasurement['routes'];
/**
 * One set-up's runs: the bare server and options in rounds, the bare server sent a vote's POST and a vote in
 * rounds, each route (options and vote: their first round's), and the votes counted after.
 */
export interface Measured {
  setup: Setup;
  placement: Placement;
  pairs: Array<{ bare: Run; options: Run }>;
  votePairs: Array<{ bare: Run; vote: Run }>;
  runs: Record<RouteName, Run>;
  counted: number;
  flushLine: RegExpExecArray | null;
}

const ROUTES: RouteName[] = ['options', 'page', 'vote', 'results'];
export const mean = (list: number[]): number => list.reduce((a, b) => a + b, 0) / list.length;
/** The middle of a sorted list (the upper one of an even count). */
export const median = <T>(sorted: T[]): T => sorted[Math.floor(sorted.length / 2)];
/** Options' rate over the bare server's, one a round, sorted: the figures file and the summary take the median. */
export const optionsShares = (m: Measured): number[] =>
  m.pairs.map((p) => p.options.result.requests.average / p.bare.result.requests.average).sort((a, b) => a - b);
/**
 * µs to a tenth: whole ones would move a figure of 8 to 16 µs by up to 6% (a writer of 8.5 µs a vote written as 9).
 */
export const tenths = (n: number) => Math.round(n * 10) / 10;
/** Cores busy to a hundredth. */
export const hundredths = (n: number) => Math.round(n * 100) / 100;
const number = (n: number) => Math.round(n).toLocaleString('en-US');
/** µs to a tenth, signed: what a set-up adds. */
const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;

type Column = RouteName | 'bare' | 'bare POST';

/** A set-up's figure for a route or the bare server: those measured in rounds, their rounds averaged. */
export function byRoute(m: Measured, route: Column, figure: (r: Run) => number): number {
  if (route === 'bare') return mean(m.pairs.map((p) => figure(p.bare)));
  if (route === 'options') return mean(m.pairs.map((p) => figure(p.options)));
  if (route === 'bare POST') return mean(m.votePairs.map((p) => figure(p.bare)));
  if (route === 'vote') return mean(m.votePairs.map((p) => figure(p.vote)));
  return figure(m.runs[route]);
}

/** The votes a set-up's vote runs acknowledged (202), all rounds. */
export const acknowledgedVotes = (m: Measured): number =>
  m.votePairs.reduce((sum, pair) => sum + pair.vote.result['2xx'], 0);

/** Prints the tables; false when a vote acknowledged was not counted. */
export function printSummary(measured: Measured[], counts: WorkerCountFigures[], connections: number): boolean {
  const width = Math.max(...measured.map((x) => x.setup.label.length)) + 2;
  const row = (first: string, cells: Array<string | number>, cell = 10) =>
    first.padEnd(width) + cells.map((c) => String(c).padStart(cell)).join('');
  const table = (title: string, head: string[], cells: (x: Measured) => Array<string | number>) => {
    console.log(`\n${title}`);
    console.log(row('set-up', head));
    for (const x of measured) console.log(row(x.setup.label, cells(x)));
  };
  const columns = [...ROUTES, 'bare', 'bare POST'] as const;
  table('req/s', [...columns], (x) => columns.map((r) => number(byRoute(x, r, (run) => run.result.requests.average))));
  const micros = (x: Measured, r: Column) => byRoute(x, r, (run) => run.micros);
  // Requests per CPU-second, this edition's over the bare server's in the same set-up: µs bare ÷ µs route.
  const ratio = (x: Measured, r: RouteName, bare: 'bare' | 'bare POST' = 'bare') =>
    `${(micros(x, bare) / micros(x, r)).toFixed(2)}x`;
  table(
    "µs of the server's CPU a request, and this edition against a bare node:http server run the same way " +
      '(its requests per CPU-second over the bare one’s; vote÷POST: against the bare server sent the vote’s POST)',
    [...columns, 'options÷', 'results÷', 'votes÷', 'vote÷POST'],
    (x) => [
      ...columns.map((r) => micros(x, r).toFixed(1)),
      ratio(x, 'options'),
      ratio(x, 'results'),
      ratio(x, 'vote'),
      ratio(x, 'vote', 'bare POST'),
    ],
  );
  const plainOf = (x: Measured) => measured.find((p) => p.setup.workers === x.setup.workers && !p.setup.tls)!;
  const tlsRuns = measured.filter((x) => x.setup.tls);
  if (tlsRuns.length === 0) console.log('\nTLS: not measured (--tls off).');
  else {
    console.log('\nWhat TLS adds, µs a request over plain HTTP with the same processes');
    console.log(row('set-up', [...columns]));
    for (const x of tlsRuns)
      console.log(
        row(
          x.setup.label,
          columns.map((r) => signed(micros(x, r) - micros(plainOf(x), r))),
        ),
      );
  }
  printByCount(counts, row);
  const one = measured.find((x) => x.setup.workers === 1 && !x.setup.tls);
  if (one) {
    const share = median(optionsShares(one));
    console.log(
      `The seed measured 18,671 req/s for its Node server on its own machine; options here ` +
        `${Math.round(share * 100)}% of the bare server's rate (one process, plain).`,
    );
  }
  let ok = true;
  for (const x of measured) {
    const acknowledged = acknowledgedVotes(x);
    // autocannon stops each run with up to one request per connection in flight: written and counted, its answer
    // never read.
    const inFlight = x.counted - acknowledged;
    const fine = inFlight >= 0 && inFlight <= connections * x.votePairs.length;
    console.log(
      `Votes, ${x.setup.label}: ${acknowledged} acknowledged (202), ${x.counted} counted ` +
        `(${fine ? `none lost; ${inFlight} more were in flight when the run stopped` : 'MISMATCH'}).`,
    );
    ok &&= fine;
  }
  return ok;
}

const CAPACITY_ROUTES = COUNT_ROUTES;

/**
 * Each worker count's µs and rate, what bound each rate, and each count's capacity on its cores set against one
 * process's: a box's cores ÷ µs a request, one process counted on one core (its one thread serves every request).
 */
function printByCount(
  counts: WorkerCountFigures[],
  row: (first: string, cells: Array<string | number>, cell?: number) => string,
): void {
  const where = (c: WorkerCountFigures) =>
    c.loadGenerator.shared ? `${c.serverCores}, shared` : `${c.serverCores} + ${c.loadGenerator.cores}`;
  console.log(
    '\nBy worker count, plain HTTP: cores (the server + the load generator on its own, or shared), ' +
      "µs of the server's CPU a request, req/s and what bound each (s: the server, L: the load generator, " +
      "o: other, waits or the machine's other processes)",
  );
  const mark = { server: 's', 'load generator': 'L', other: 'o' } as const;
  console.log(
    row('count', ['cores', ...CAPACITY_ROUTES.map((r) => `${r} µs`), ...CAPACITY_ROUTES.map((r) => `${r} req/s`)], 15),
  );
  for (const c of counts)
    console.log(
      row(
        countLabel(c),
        [
          where(c),
          ...CAPACITY_ROUTES.map((r) => c.routes[r].micros.toFixed(1)),
          ...CAPACITY_ROUTES.map((r) => `${number(c.routes[r].requestsPerSecond)} ${mark[c.routes[r].limit]}`),
        ],
        15,
      ),
    );
  const loadBound = counts.flatMap((c) =>
    CAPACITY_ROUTES.filter((r) => c.routes[r].limit === 'load generator').map((r) => `${countLabel(c)} ${r}`),
  );
  if (loadBound.length > 0)
    console.log(
      `The load generator, not the server, bound ${loadBound.join(', ')}: there the rate understates the server, ` +
        'and its µs a request measure it.',
    );
  const one = counts.find((c) => c.workers === 1);
  if (!one) return;
  for (const c of counts.filter((x) => x.workers > 1)) {
    const efficiency = CAPACITY_ROUTES.map((r) => (one.routes[r].micros / c.routes[r].micros).toFixed(2));
    console.log(
      `${countLabel(c)} against one process on ${c.serverCores} cores: ` +
        CAPACITY_ROUTES.map((r) => {
          const { byCores, byRate } = againstOneProcess(one, c, r);
          return `${r} ${byCores.toFixed(2)}x by cores ÷ µs, ${byRate.toFixed(2)}x by rate`;
        }).join('; ') +
        ` (CPU a request, one process's ÷ theirs: ${efficiency.join(', ')}).`,
    );
  }
}
