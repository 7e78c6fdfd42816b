/**
 * `npm run bench:vps`: the seed's autocannon command against the VPS edition and a bare node:http
 * server, plain and behind each TLS set-up (vps/bench.ts measures; docs/vps.md quotes its figures).
 */
import { CommandFailure, parseCommandLine, runCommand, UsageError } from '../cli/command-line';
import type { TlsSetup } from '../cost/estimate/vps';
import { benchVps, TLS_FLAGS } from '../vps/bench';
import { missing } from '../vps/bench-tls';

const SPEC = {
  command: 'npm run bench:vps --',
  summary:
    "The VPS edition under the seed's autocannon command: req/s and the server's CPU a request per route, " +
    'plain and behind each TLS set-up, beside a bare node:http server run the same way.',
  options: {
    duration: { type: 'string', default: '10', value: '<seconds>', description: 'each run (the seed used 10)' },
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
      description:
        'where the figures go (default: bench-results/vps-<time>.json); ' +
        'npm run cost -- --vps-from <file> prices a VPS with them',
    },
  },
  details: [
    'Loopback only; rate limits are off for the run, as for load tests. Every set-up (one process or two ' +
      'workers, plain or behind each TLS set-up) is warmed up for 2 s a route, then runs --duration seconds ' +
      'on the bare server and each route (bare and options alternate 3 times on one process, plain): a line as ' +
      'each starts, every 5 s of it, and its rate and CPU time per request.',
    'Caddy and nginx are Debian packages (apt-get install -y caddy nginx); a set-up whose program is missing ' +
      'stops the run before it starts, in one line that says so (leave it out of --tls to go on without it).',
    'At the defaults it loads every core for about 55 runs of --duration seconds and 100 s of warm-ups: about ' +
      '11 minutes. Nothing else should run meanwhile.',
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
