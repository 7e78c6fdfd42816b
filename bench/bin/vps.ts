/**
 * `npm run bench:vps`: the seed's autocannon command against the VPS edition and a bare node:http
 * server, plain and behind each TLS set-up (bench/vps-capacity.ts measures; docs/vps.md quotes its figures).
 */
import { CommandFailure, parseCommandLine, runCommand, UsageError } from '../../cli/command-line';
import type { TlsSetup } from '../../cost/estimate/vps';
import { benchSize, benchVps, ROUNDS, TLS_FLAGS } from '../vps-capacity';
import { missing } from '../vps-tls';

/** Seconds a run, as the seed ran its command. */
const DEFAULT_DURATION = 10;
/** What a bench of every TLS set-up at the defaults runs (its --help says how long it takes). */
const size = benchSize(Object.keys(TLS_FLAGS).length);

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
    'Loopback only; rate limits are off for the run, as for load tests. Every set-up (one process or two ' +
      'workers, plain or behind each TLS set-up) is warmed up for 2 s a route, then runs --duration seconds ' +
      "on the bare server and each route (on plain HTTP the bare server and options, and the vote's POST to the " +
      `bare server and a vote, alternate ${ROUNDS} times): a line as each starts, every 5 s of it, and its rate ` +
      'and CPU time per request.',
    'Caddy and nginx are Debian packages (apt-get install -y caddy nginx); a set-up whose program is missing ' +
      'stops the run before it starts, in one line that says so (leave it out of --tls to go on without it).',
    `At the defaults it loads every core for ${size.runs} runs of --duration seconds and ${size.warmUpSeconds} s ` +
      `of warm-ups: about ${Math.round((size.runs * DEFAULT_DURATION + size.warmUpSeconds) / 60)} minutes. ` +
      'Nothing else should run meanwhile.',
  ],
} as const;

const { values } = parseCommandLine(SPEC);
let duration = 0;
let connections = 0;
let chosen: TlsSetup[] = [];
await runCommand(SPEC, () => {
  duration = Number(values.duration);
  connections = Number(values.connections);
  if (!Number.isInteger(duration) || duration < 1 || duration > 300)
    throw new UsageError(`--duration must be a whole number of seconds from 1 to 300 (got ${values.duration}).`);
  if (!Number.isInteger(connections) || connections < 1 || connections > 1000)
    throw new UsageError(`--connections must be from 1 to 1000 (got ${values.connections}).`);
  const names = values.tls === 'all' ? Object.keys(TLS_FLAGS) : values.tls === 'off' ? [] : values.tls.split(',');
  const unknown = names.filter((name) => !TLS_FLAGS[name]);
  if (unknown.length > 0)
    throw new UsageError(`--tls must be all, off or some of ${Object.keys(TLS_FLAGS).join(',')} (got ${values.tls}).`);
  chosen = [...new Set(names.map((name) => TLS_FLAGS[name]))];
  const lacking = chosen.flatMap((setup) => missing(setup) ?? []);
  if (lacking.length > 0)
    throw new CommandFailure(`${lacking.join('; ')}. Or leave it out: --tls <the others>, or --tls off.`);
});

if (!(await benchVps({ duration, connections, chosen, tlsFlag: values.tls, out: values.out }))) process.exitCode = 1;
