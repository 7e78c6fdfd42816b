/**
 * `npm run bench:vps`: the seed platform's own benchmark (`npx autocannon -c 100 -d 10
 * http://localhost:3081/api/poll/<id>/options`) against the VPS edition, then on the page, a
 * vote and the results, and the same command against a bare node:http server answering a fixed
 * JSON body, run the same way in the same set-up: on a shared machine the app's share of the bare
 * server's is the figure that holds. Each route is measured with one process and two workers, plain
 * and behind each TLS set-up a busy box might use (./bench-tls.ts); clients send `Accept-Encoding:
 * gzip` as browsers do. What a box carries is read from the server's own CPU time per request (its
 * processes' /proc), which the load generator on the same cores does not inflate. Writes the figures
 * to a file the cost model reads (--vps-from).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, type } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { CommandFailure, parseCommandLine, runCommand, UsageError } from '../cli/command-line';
import {
  TLS_SETUPS,
  type RouteMicros,
  type RouteRate,
  type SetupMicros,
  type TlsSetup,
  type VpsMeasurement,
} from '../cost/estimate/vps';
import { BARE_SERVER, makeCertificate, missing, TERMINATORS, type CertFiles } from '../vps/bench-tls';
import { printSummary, type Measured, type Run, type Setup } from '../vps/bench-summary';
import { call, cpuSeconds, freePort, ROOT, startServer, stop } from '../vps/bench-processes';

/** Bare and options runs alternate this many times on one process: a shared machine's drift hits both alike. */
const ROUNDS = 3;
/** The --tls names of the set-ups (cost/estimate/vps.ts TLS_SETUPS). */
const TLS_FLAGS: Record<string, TlsSetup> = {
  caddy: 'caddy',
  'caddy-keepalive': 'caddyKeepAlive',
  nginx: 'nginx',
  node: 'node',
};

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

const rate = (result: Result, path: string, method = 'GET'): RouteRate => ({
  method,
  path,
  requestsPerSecond: Math.round(result.requests.average),
  latencyMs: { p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99, max: result.latency.max },
  requests: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
});

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

type RouteName = keyof VpsMeasurement['routes'];
const SETUPS: Setup[] = [
  { key: 'plain', label: 'one process', workers: 1 },
  { key: 'workersPlain', label: '2 workers', workers: 2 },
  ...chosen.flatMap((tls): Setup[] => {
    const flag = Object.keys(TLS_FLAGS).find((name) => TLS_FLAGS[name] === tls);
    return [
      { key: `${tls}`, label: `one process, ${flag}`, workers: 1, tls },
      { key: `${tls}Workers`, label: `2 workers, ${flag}`, workers: 2, tls },
    ];
  }),
];
const ROUTES: Record<RouteName, { path: string; method?: string; body?: string }> = {
  options: { path: '/api/poll/ID/options' },
  page: { path: '/poll/ID' },
  vote: { path: '/api/poll/ID/vote', method: 'POST', body: '{"option":1}' },
  results: { path: '/api/poll/ID/results' },
};
/** What a browser sends: it takes gzip, so no proxy unzips a page for it. */
const headersOf = (route: { method?: string }) => ({
  'accept-encoding': 'gzip',
  ...(route.method ? { 'content-type': 'application/json' } : {}),
});

const home = mkdtempSync(join(tmpdir(), 'vps-bench-'));
/** The bare server as a file: node:cluster forks its workers from the script the primary runs. */
const bareScript = join(home, 'bare.cjs');
writeFileSync(bareScript, BARE_SERVER);
const started: ChildProcess[] = [];
let cert: CertFiles | undefined;

/** One autocannon run of `route`, with the server's CPU time per request over it. */
async function run(
  label: string,
  url: string,
  route: (typeof ROUTES)[RouteName],
  pids: () => number[],
  primary?: number,
): Promise<Run> {
  const post = route.method ? ` -m ${route.method} -H content-type=application/json -b '${route.body}'` : '';
  console.log(
    `${label.padEnd(30)} npx autocannon -c ${connections} -d ${duration} -H accept-encoding=gzip${post} ${url}`,
  );
  const before = { tree: cpuSeconds(pids()), primary: primary ? cpuSeconds([primary], true) : 0 };
  const instance = autocannon({
    url,
    connections,
    duration,
    headers: headersOf(route),
    ...(route.method ? { method: route.method, body: route.body } : {}),
  });
  // A line every 5 s of a run longer than that (autocannon ticks once a second), and its rate at the end.
  let seconds = 0;
  instance.on('tick', () => {
    if (++seconds % 5 === 0 && seconds < duration) console.log(`${''.padEnd(30)} ${seconds} s`);
  });
  const result = await instance;
  const perRequest = (cpu: number) => Math.round((cpu * 1e6) / Math.max(1, result.requests.total));
  const micros = perRequest(cpuSeconds(pids()) - before.tree);
  const primaryMicros = primary ? perRequest(cpuSeconds([primary], true) - before.primary) : 0;
  console.log(
    `${''.padEnd(30)} ${Math.round(result.requests.average).toLocaleString('en-US')} req/s, ` +
      `${micros} µs of the server's CPU a request`,
  );
  return { result, micros, primaryMicros };
}

/** One set-up from start to stop: every route and the bare server, and that each acknowledged vote counted. */
async function measure(setup: Setup, rounds: number): Promise<Measured> {
  const dataDir = mkdtempSync(join(home, `${setup.key}-`));
  const own = setup.tls === 'node' ? cert! : undefined;
  const app = await startServer(process.execPath, [
    ...['--import', 'tsx', 'bin/vps.ts', '--port', '0', '--data-dir', dataDir],
    ...['--rate-limits', 'off', '--workers', String(setup.workers)],
    ...(own ? ['--tls-cert', own.cert, '--tls-key', own.key] : []),
  ]);
  started.push(app.child);
  const bare = await startServer(process.execPath, [bareScript], {
    ...process.env,
    BARE_WORKERS: String(setup.workers),
    BARE_SCHEME: own ? 'https' : 'http',
    ...(own ? { BARE_CERT: own.cert, BARE_KEY: own.key } : {}),
  });
  started.push(bare.child);
  const terminator = setup.tls ? TERMINATORS[setup.tls] : undefined;
  const front = terminator?.front
    ? await terminator.front({ app: app.url, bare: bare.url }, [await freePort(), await freePort()], {
        home: mkdtempSync(join(home, `${setup.tls}-`)),
        cert: cert!,
        workers: setup.workers,
        connections,
        freePort,
      })
    : undefined;
  if (front) started.push(front.child);
  const [url, bareUrl] = front ? [front.app, front.bare] : [app.url, bare.url];
  const withFront = (pid: number) => () => [pid, ...(front ? [front.child.pid!] : [])];
  const primary = setup.workers > 1 ? app.child.pid : undefined;
  const create = async (title: string) =>
    (
      (await call(`${url}/api/poll`, {
        title,
        options: ['Option A', 'Option B', 'Option C'],
        lifetimeMinutes: 60,
      })) as { id: string }
    ).id;
  const [id, warmUp] = [await create('Benchmark'), await create('Warm-up')];
  const at = (route: RouteName, poll: string) => url + ROUTES[route].path.replace('ID', poll);
  // Warm up first (not recorded, on a poll of its own): a fresh process runs code the JIT has not compiled yet.
  console.log(`\n${setup.label}: every route and the bare server for 2 s to warm up (not recorded)`);
  for (const [target, route] of [
    ...(Object.keys(ROUTES) as RouteName[]).map((r) => [at(r, warmUp), ROUTES[r]] as const),
    [bareUrl, ROUTES.options] as const,
  ])
    await autocannon({ url: target, connections, duration: 2, headers: headersOf(route), ...route });
  // The ratio that holds on a shared machine: bare and options alternate, and each round's pair is compared.
  const pairs: Measured['pairs'] = [];
  for (let round = 0; round < rounds; round++) {
    const bareRun = await run(
      `${setup.label}: bare`,
      `${bareUrl}/api/poll/${id}/options`,
      ROUTES.options,
      withFront(bare.child.pid!),
    );
    pairs.push({
      bare: bareRun,
      options: await run(
        `${setup.label}: options`,
        at('options', id),
        ROUTES.options,
        withFront(app.child.pid!),
        primary,
      ),
    });
  }
  const runs = { options: pairs[0].options } as Record<RouteName, Run>;
  for (const route of ['page', 'vote', 'results'] as const)
    runs[route] = await run(
      `${setup.label}: ${route}`,
      at(route, id),
      ROUTES[route],
      withFront(app.child.pid!),
      primary,
    );
  const { total: counted } = (await call(at('results', id))) as { total: number };
  if (front) await stop(front.child);
  await stop(bare.child);
  await stop(app.child);
  const flushLine = /(\d+) change\(s\) written in (\d+) flush\(es\): ([\d.]+) per flush, ([\d.]+) ms per flush/.exec(
    app.output(),
  );
  return { setup, pairs, runs, counted, flushLine };
}

const mean = (list: number[]) => Math.round(list.reduce((a, b) => a + b, 0) / list.length);
const median = <T>(sorted: T[]) => sorted[Math.floor(sorted.length / 2)];

/** Each route's CPU a request in a set-up, or the primary's share of it (the options route's rounds averaged). */
const routeMicros = ({ pairs, runs }: Measured, figure = (r: Run) => r.micros): RouteMicros => ({
  options: mean(pairs.map((pair) => figure(pair.options))),
  page: figure(runs.page),
  vote: figure(runs.vote),
  results: figure(runs.results),
});
const setupMicros = (one: Measured, two: Measured): SetupMicros => ({
  oneProcess: routeMicros(one),
  workers: routeMicros(two),
  bare: {
    oneProcess: mean(one.pairs.map((p) => p.bare.micros)),
    workers: mean(two.pairs.map((p) => p.bare.micros)),
  },
});

try {
  cert = makeCertificate(home);
  const measured: Measured[] = [];
  for (const setup of SETUPS) measured.push(await measure(setup, setup.key === 'plain' ? ROUNDS : 1));
  const of = (key: string) => measured.find((m) => m.setup.key === key)!;
  const plain = of('plain');
  const shares = plain.pairs
    .map((p) => p.options.result.requests.average / p.bare.result.requests.average)
    .sort((a, b) => a - b);
  // The round whose ratio is the median stands for options and bare (its latencies are reported).
  const middle = plain.pairs.find(
    (p) => p.options.result.requests.average / p.bare.result.requests.average === median(shares),
  )!;
  const tls = Object.fromEntries(
    (Object.keys(TLS_SETUPS) as TlsSetup[]).map((name) => [
      name,
      chosen.includes(name) ? { via: TERMINATORS[name].via(), ...setupMicros(of(name), of(`${name}Workers`)) } : null,
    ]),
  ) as VpsMeasurement['cpu']['tls'];
  const measurement: VpsMeasurement = {
    what:
      'npm run bench:vps: the VPS edition (its log fsynced before each answer) on loopback, ' +
      'with autocannon in another process',
    date: new Date().toISOString().slice(0, 10),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? 'unknown',
      os: `${type()} ${release()}`,
      node: process.version,
    },
    command:
      `npx autocannon -c ${connections} -d ${duration} -H accept-encoding=gzip <url> (the seed's command, ` +
      `with a browser's Accept-Encoding), per route and set-up, --tls ${values.tls}; ` +
      `bare and options alternate ${ROUNDS} times on one process`,
    bare: {
      ...rate(middle.bare.result, '/api/poll/<id>/options (bare node:http, fixed body)'),
      requestsPerSecond: mean(plain.pairs.map((p) => p.bare.result.requests.average)),
    },
    routes: {
      options: {
        ...rate(middle.options.result, '/api/poll/<id>/options'),
        requestsPerSecond: mean(plain.pairs.map((p) => p.options.result.requests.average)),
      },
      page: rate(plain.runs.page.result, '/poll/<id>'),
      vote: rate(plain.runs.vote.result, '/api/poll/<id>/vote', 'POST'),
      results: rate(plain.runs.results.result, '/api/poll/<id>/results'),
    },
    optionsShareOfBare: Math.round(median(shares) * 100) / 100,
    votes: { acknowledged: plain.runs.vote.result['2xx'], counted: plain.counted },
    journal: plain.flushLine
      ? {
          records: Number(plain.flushLine[1]),
          flushes: Number(plain.flushLine[2]),
          recordsPerFlush: Number(plain.flushLine[3]),
          msPerFlush: Number(plain.flushLine[4]),
        }
      : undefined,
    cpu: {
      what:
        "the server's CPU time per request (its processes' utime + stime in /proc, the TLS proxy's included), " +
        'in µs, over each route’s run',
      plain: setupMicros(plain, of('workersPlain')),
      tls,
      // The primary's own work does not depend on TLS: read over the two-worker plain runs.
      primaryMicrosPerRequest: routeMicros(of('workersPlain'), (r) => r.primaryMicros),
    },
  };
  if (!printSummary(measurement, measured, connections)) process.exitCode = 1;
  const out = resolve(
    values.out ?? join(ROOT, 'bench-results', `vps-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
  );
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(measurement, null, 2)}\n`);
  console.log(`Figures written to ${out} (npm run cost -- --vps-from ${out.replace(`${ROOT}/`, '')})`);
} finally {
  for (const child of started) await stop(child);
  rmSync(home, { recursive: true, force: true });
}
