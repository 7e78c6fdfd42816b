/**
 * `npm run bench:vps`: the seed's autocannon command against the VPS edition and a bare node:http
 * server, plain and behind each TLS set-up (bench/vps-capacity.ts measures; docs/vps.md quotes its figures).
 */
import { CommandFailure, parseCommandLine, runCommand, UsageError } from '../../node/command-line';
import type { TlsSetup } from '../../cost/estimate/vps';
import { benchSize, benchVps, ROUNDS, TLS_FLAGS } from '../vps-capacity';
import { ownCores } from '../vps-placement';
import { missing } from '../vps-tls';
import { autoWorkers, type WorkerCount } from '../../sizing/vps-workers';

/** Seconds a run, as the seed ran its command. */
const DEFAULT_DURATION = 10;
/** This machine's vCPUs (those this process may use, as --workers auto counts them). */
const VCPUS = ownCores().length;
/** One process and two workers, what npm run cost prices a box from; one process alone on one vCPU. */
const DEFAULT_WORKERS = VCPUS > 1 ? '1,2' : '1';
/** What a bench of every TLS set-up at the defaults runs (its --help says how long it takes). */
const size = benchSize(Object.keys(TLS_FLAGS).length, DEFAULT_WORKERS.split(',').length);

const SPEC = {
  command: 'npm run bench:vps --',
  summary:
    "The VPS edition under the seed's autocannon command: req/s and the server's CPU a request per route, " +
    'plain and behind each TLS set-up, beside a bare node:http server run the same way.',
  options: {
    duration: {
      type: 'string',
      default: String(DEFAULT_DURATION),
      value: '<seconds>',
      description: `each run (the seed used ${DEFAULT_DURATION})`,
    },
    connections: {
      type: 'string',
      default: '100',
      value: '<n>',
      description: 'concurrent connections (the seed used 100)',
    },
    tls: {
      type: 'string',
      default: 'all',
      value: `all|off|<${Object.keys(TLS_FLAGS).join(',')}>`,
      description:
        'the TLS set-ups to measure (comma-separated): Caddy as docs/vps.md deployed it, Caddy and nginx with ' +
        "upstream keep-alive, the edition's own node:https; off: plain HTTP only (the TLS columns: not measured)",
    },
    workers: {
      type: 'string',
      default: DEFAULT_WORKERS,
      value: '<n,...|auto>',
      description:
        `the worker counts to measure, comma-separated, each at most this machine's vCPUs (${VCPUS}); 1 is one ` +
        `process; auto: what npm run vps -- --workers auto runs here (${autoWorkers(VCPUS)})`,
    },
    rounds: {
      type: 'string',
      default: String(ROUNDS),
      value: '<n>',
      description: 'rounds of options and of votes, each beside the bare server, on plain HTTP (1 to 10)',
    },
    out: {
      type: 'string',
      value: '<file.json>',
      path: true,
      description:
        'where the figures go (default: bench-results/vps-<time>.json); ' +
        'npm run cost -- --vps-from <file> prices a VPS with them',
    },
  },
  details: [
    'Loopback only; rate limits are off for the run, as for load tests. Every set-up (a worker count, plain or ' +
      'behind each TLS set-up) is warmed up for 2 s a route, then runs --duration seconds ' +
      "on the bare server and each route (on plain HTTP the bare server and options, and the vote's POST to the " +
      'bare server and a vote, alternate --rounds times): a line as each starts, every 5 s of it, and its rate, ' +
      'CPU time per request, the cores the server and the load generator kept busy, and which bound the rate.',
    "A count of n runs the server on n cores, as a box of n vCPUs would, and the load generator on this machine's " +
      'other cores; where none is left, on the same ones, and the run says the load generator, not the server, ' +
      'bound the rate. The figures file (one process and 2 workers; a curve of µs by count where it measured more ' +
      'than 2) is written where --workers has 1 and 2.',
    'Caddy and nginx are Debian packages (apt-get install -y caddy nginx); a set-up whose program is missing ' +
      'stops the run before it starts, in one line that says so (leave it out of --tls to go on without it).',
    `At the defaults it loads every core for ${size.runs} runs of --duration seconds and ${size.warmUpSeconds} s ` +
      `of warm-ups: about ${Math.round((size.runs * DEFAULT_DURATION + size.warmUpSeconds) / 60)} minutes. ` +
      'Nothing else should run meanwhile.',
  ],
} as const;

/** --workers: counts from 1 to this machine's vCPUs, or auto; ascending, each once (auto marks the one it runs). */
function workerCounts(value: string): WorkerCount[] {
  const asked = value.split(',');
  const counts = asked.map((item) => (item === 'auto' ? autoWorkers(VCPUS) : Number(item)));
  const bad = asked.find((item, i) => item !== 'auto' && !(/^\d+$/.test(item) && counts[i] >= 1));
  if (bad !== undefined)
    throw new UsageError(`--workers must be counts from 1 or auto, comma-separated (got ${value}).`);
  const above = counts.find((n) => n > VCPUS);
  if (above !== undefined)
    throw new UsageError(
      `--workers ${above}: this machine has ${VCPUS} vCPU(s); a count needs as many as it has workers.`,
    );
  return [...new Set(counts)]
    .sort((a, b) => a - b)
    .map((workers) => ({ workers, auto: asked.includes('auto') && workers === autoWorkers(VCPUS) }));
}

const { values } = parseCommandLine(SPEC);
let duration = 0;
let connections = 0;
let rounds = 0;
let counts: WorkerCount[] = [];
let chosen: TlsSetup[] = [];
await runCommand(SPEC, () => {
  duration = Number(values.duration);
  connections = Number(values.connections);
  rounds = Number(values.rounds);
  counts = workerCounts(values.workers);
  if (!Number.isInteger(duration) || duration < 1 || duration > 300)
    throw new UsageError(`--duration must be a whole number of seconds from 1 to 300 (got ${values.duration}).`);
  if (!Number.isInteger(connections) || connections < 1 || connections > 1000)
    throw new UsageError(`--connections must be from 1 to 1000 (got ${values.connections}).`);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10)
    throw new UsageError(`--rounds must be a whole number from 1 to 10 (got ${values.rounds}).`);
  const names = values.tls === 'all' ? Object.keys(TLS_FLAGS) : values.tls === 'off' ? [] : values.tls.split(',');
  const unknown = names.filter((name) => !TLS_FLAGS[name]);
  if (unknown.length > 0)
    throw new UsageError(`--tls must be all, off or some of ${Object.keys(TLS_FLAGS).join(',')} (got ${values.tls}).`);
  chosen = [...new Set(names.map((name) => TLS_FLAGS[name]))];
  const lacking = chosen.flatMap((setup) => missing(setup) ?? []);
  if (lacking.length > 0)
    throw new CommandFailure(`${lacking.join('; ')}. Or leave it out: --tls <the others>, or --tls off.`);
});

const flags = { tlsFlag: values.tls, workersFlag: values.workers, out: values.out };
if (!(await benchVps({ duration, connections, chosen, counts, rounds, ...flags }))) process.exitCode = 1;
