/**
 * `npm run bench:vps` (bench/bin/vps.ts runs it): the seed platform's own benchmark (`npx autocannon -c 100 -d 10
 * http://localhost:3081/api/poll/<id>/options`) against the VPS edition as deployed (the one file the Dockerfile
 * and the systemd unit run, vps/bundle.ts), then on the page, a
 * vote and the results, and the same command against a bare node:http server answering a fixed
 * JSON body, run the same way in the same set-up: on a shared machine the app's share of the bare
 * server's is the figure that holds. Each route is measured with one process and two workers, plain
 * and behind each TLS set-up a busy box might use (./vps-tls.ts); clients send `Accept-Encoding:
 * gzip` as browsers do. What a box carries is read from the server's own CPU time per request (its
 * processes' /proc), which the load generator on the same cores does not inflate. Writes the figures
 * to a file the cost model reads (--vps-from).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, type } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { shownPath } from '../cli/folders';
import autocannon, { type Result } from 'autocannon';
import {
  TLS_SETUPS,
  type RouteMicros,
  type RouteRate,
  type SetupMicros,
  type TlsSetup,
  type VpsMeasurement,
} from '../cost/estimate/vps';
import { BARE_SERVER, makeCertificate, TERMINATORS, type CertFiles } from './vps-tls';
import {
  acknowledgedVotes,
  byRoute,
  mean,
  printSummary,
  tenths,
  type Measured,
  type Run,
  type Setup,
} from './vps-summary';
import { call, cpuSeconds, freePort, ROOT, startServer, stop } from './vps-processes';
import { bundleVps } from '../vps/bundle';

/** The bare server and options, the bare POST and votes, alternate this many times on plain HTTP: drift hits both. */
export const ROUNDS = 3;
/**
 * The runs of a bench with `tlsSetups` TLS set-ups, and its seconds of warm-up (2 s on each route and on the bare
 * server's GET and POST): each set-up runs with one process and two workers; on plain HTTP options and votes are
 * each a round of two runs (beside the bare server) ROUNDS times, behind TLS once; page and results once.
 */
export function benchSize(tlsSetups: number): { runs: number; warmUpSeconds: number } {
  const runs = (rounds: number) => 2 * (rounds * 4 + 2);
  return { runs: runs(ROUNDS) + tlsSetups * runs(1), warmUpSeconds: 2 * (1 + tlsSetups) * 6 * 2 };
}

/** The --tls names of the set-ups (cost/estimate/vps.ts TLS_SETUPS). */
export const TLS_FLAGS: Record<string, TlsSetup> = {
  caddy: 'caddy',
  'caddy-keepalive': 'caddyKeepAlive',
  nginx: 'nginx',
  node: 'node',
};

const rate = (result: Result, path: string, method = 'GET'): RouteRate => ({
  method,
  path,
  requestsPerSecond: Math.round(result.requests.average),
  latencyMs: { p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99, max: result.latency.max },
  requests: result.requests.total,
  non2xx: result.non2xx,
  // autocannon counts a timeout among its errors already (and in timeouts too).
  errors: result.errors,
});

export interface VpsBenchOptions {
  /** Seconds each run. */
  duration: number;
  connections: number;
  /** The TLS set-ups to measure beside plain HTTP. */
  chosen: TlsSetup[];
  /** --tls as given, for the figures' command line. */
  tlsFlag: string;
  /** Where the figures go (default: bench-results/vps-<time>.json). */
  out?: string;
}

/**
 * Measures every set-up, prints the summary, writes the figures; false when a check of the summary
 * failed (a vote acknowledged but not counted, errors).
 */
export async function benchVps({ duration, connections, chosen, tlsFlag, out }: VpsBenchOptions): Promise<boolean> {
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
  /** What is measured is what is deployed: the one file the Dockerfile and the systemd unit run. */
  let bundle = '';
  let ok = false;

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
    const perRequest = (cpu: number) => tenths((cpu * 1e6) / Math.max(1, result.requests.total));
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
      ...[bundle, '--port', '0', '--data-dir', dataDir],
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
    const bareAt = (route: RouteName, poll: string) => bareUrl + ROUTES[route].path.replace('ID', poll);
    // Warm up first (not recorded, on a poll of its own): a fresh process runs code the JIT has not compiled yet.
    console.log(`\n${setup.label}: every route and the bare server for 2 s to warm up (not recorded)`);
    for (const [target, route] of [
      ...(Object.keys(ROUTES) as RouteName[]).map((r) => [at(r, warmUp), ROUTES[r]] as const),
      [bareAt('options', warmUp), ROUTES.options] as const,
      [bareAt('vote', warmUp), ROUTES.vote] as const,
    ])
      await autocannon({ url: target, connections, duration: 2, headers: headersOf(route), ...route });
    const appRun = (route: RouteName) =>
      run(`${setup.label}: ${route}`, at(route, id), ROUTES[route], withFront(app.child.pid!), primary);
    const bareRun = (route: 'options' | 'vote', label: string) =>
      run(`${setup.label}: ${label}`, bareAt(route, id), ROUTES[route], withFront(bare.child.pid!));
    // The ratios that hold on a shared machine: the bare server and the route alternate, each round a pair. A vote
    // is set against the bare server sent the same POST and body.
    const pairs: Measured['pairs'] = [];
    for (let round = 0; round < rounds; round++)
      pairs.push({ bare: await bareRun('options', 'bare'), options: await appRun('options') });
    const page = await appRun('page');
    const votePairs: Measured['votePairs'] = [];
    for (let round = 0; round < rounds; round++)
      votePairs.push({ bare: await bareRun('vote', 'bare POST'), vote: await appRun('vote') });
    const runs = { options: pairs[0].options, page, vote: votePairs[0].vote, results: await appRun('results') };
    const { total: counted } = (await call(at('results', id))) as { total: number };
    if (front) await stop(front.child);
    await stop(bare.child);
    await stop(app.child);
    const flushLine = /(\d+) change\(s\) written in (\d+) flush\(es\): ([\d.]+) per flush, ([\d.]+) ms per flush/.exec(
      app.output(),
    );
    return { setup, pairs, votePairs, runs, counted, flushLine };
  }

  const median = <T>(sorted: T[]) => sorted[Math.floor(sorted.length / 2)];

  /** Each route's CPU a request in a set-up, or the primary's share of it (rounds averaged). */
  const routeMicros = (m: Measured, figure = (r: Run) => r.micros) =>
    Object.fromEntries(
      (Object.keys(ROUTES) as RouteName[]).map((route) => [route, tenths(byRoute(m, route, figure))]),
    ) as RouteMicros;
  const bareMicros = (one: Measured, two: Measured, bare: 'bare' | 'bare POST') => ({
    oneProcess: tenths(byRoute(one, bare, (r) => r.micros)),
    workers: tenths(byRoute(two, bare, (r) => r.micros)),
  });
  const setupMicros = (one: Measured, two: Measured): SetupMicros => ({
    oneProcess: routeMicros(one),
    workers: routeMicros(two),
    bare: bareMicros(one, two, 'bare'),
    barePost: bareMicros(one, two, 'bare POST'),
  });

  try {
    bundle = (await bundleVps(join(home, 'dist'))).file;
    cert = makeCertificate(home);
    const measured: Measured[] = [];
    // The plain set-ups, which the ratios and the two workers' efficiency are read from, in rounds.
    for (const setup of SETUPS) measured.push(await measure(setup, setup.tls ? 1 : ROUNDS));
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
        'npm run bench:vps: the VPS edition as deployed (the one file of npm run build:vps), its log fsynced ' +
        'before each answer, on loopback, with autocannon in another process',
      date: new Date().toISOString().slice(0, 10),
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model ?? 'unknown',
        os: `${type()} ${release()}`,
        node: process.version,
      },
      command:
        `npx autocannon -c ${connections} -d ${duration} -H accept-encoding=gzip <url> (the seed's command, ` +
        `with a browser's Accept-Encoding), per route and set-up, --tls ${tlsFlag}; ` +
        `bare and options, bare POST and vote alternate ${ROUNDS} times on plain HTTP`,
      bare: {
        ...rate(middle.bare.result, '/api/poll/<id>/options (bare node:http, fixed body)'),
        requestsPerSecond: Math.round(mean(plain.pairs.map((p) => p.bare.result.requests.average))),
      },
      barePost: {
        ...rate(plain.votePairs[0].bare.result, '/api/poll/<id>/vote (bare node:http, fixed body)', 'POST'),
        requestsPerSecond: Math.round(mean(plain.votePairs.map((p) => p.bare.result.requests.average))),
      },
      routes: {
        options: {
          ...rate(middle.options.result, '/api/poll/<id>/options'),
          requestsPerSecond: Math.round(mean(plain.pairs.map((p) => p.options.result.requests.average))),
        },
        page: rate(plain.runs.page.result, '/poll/<id>'),
        vote: {
          ...rate(plain.runs.vote.result, '/api/poll/<id>/vote', 'POST'),
          requestsPerSecond: Math.round(mean(plain.votePairs.map((p) => p.vote.result.requests.average))),
        },
        results: rate(plain.runs.results.result, '/api/poll/<id>/results'),
      },
      optionsShareOfBare: Math.round(median(shares) * 100) / 100,
      votes: { acknowledged: acknowledgedVotes(plain), counted: plain.counted },
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
    ok = printSummary(measurement, measured, connections);
    const file = resolve(
      out ?? join(ROOT, 'bench-results', `vps-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    );
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(measurement, null, 2)}\n`);
    console.log(`Figures written to ${file} (npm run cost -- --vps-from ${shownPath(file)})`);
  } finally {
    for (const child of started) await stop(child);
    rmSync(home, { recursive: true, force: true });
  }
  return ok;
}
