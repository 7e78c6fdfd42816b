/**
 * `npm run bench:vps` (bench/bin/vps.ts runs it): the seed platform's own benchmark (`npx autocannon -c 100 -d 10
 * http://localhost:3081/api/poll/<id>/options`) against the VPS edition as deployed (the one file the Dockerfile
 * and the systemd unit run, vps/bundle.ts), then on the page, a
 * vote and the results, and the same command against a bare node:http server answering a fixed
 * JSON body, run the same way in the same set-up: on a shared machine the app's share of the bare
 * server's is the figure that holds. Each route is measured at each worker count asked for (one process and
 * two workers by default), plain and behind each TLS set-up a busy box might use (./vps-tls.ts); clients send
 * `Accept-Encoding: gzip` as browsers do. A count runs on as many cores as a box of that many vCPUs has, the
 * load generator on the others where the machine has them (./vps-placement.ts). What a box carries is read
 * from the server's own CPU time per request (its processes' /proc), which a load generator on the same cores
 * does not inflate. Writes the figures to a file the cost model reads (--vps-from).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, type } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { shownPath } from '../node/folders';
import autocannon, { type Result } from 'autocannon';
import {
  TLS_SETUPS,
  type RouteMicros,
  type RouteRate,
  type SetupMicros,
  type TlsSetup,
  type VpsMeasurement,
  type WorkerCountFigures,
  type WorkerCurve,
} from '../cost/estimate/vps';
import { BARE_SERVER, makeCertificate, TERMINATORS, type CertFiles } from './vps-tls';
import {
  acknowledgedVotes,
  byRoute,
  hundredths,
  mean,
  median,
  optionsShares,
  printSummary,
  tenths,
  type Measured,
  type Run,
  type Setup,
} from './vps-summary';
import { call, cpuSeconds, freePort, machineCpuSeconds, pin, ROOT, startServer, stop } from './vps-processes';
import { limitOf, ownCores, placementOf, type Placement } from './vps-placement';
import { bundleVps } from '../vps/bundle';
import { countLabel, type WorkerCount } from '../sizing/vps-workers';

/** The bare server and options, the bare POST and votes, alternate this many times on plain HTTP: drift hits both. */
export const ROUNDS = 3;
/**
 * The runs of a bench of `counts` worker counts with `tlsSetups` TLS set-ups, and its seconds of warm-up (2 s on
 * each route and on the bare server's GET and POST): each set-up runs at each count; on plain HTTP options and
 * votes are each a round of two runs (beside the bare server) ROUNDS times, behind TLS once; page and results once.
 */
export function benchSize(tlsSetups: number, counts: number): { runs: number; warmUpSeconds: number } {
  const runs = (times: number) => counts * (times * 4 + 2);
  return { runs: runs(ROUNDS) + tlsSetups * runs(1), warmUpSeconds: counts * (1 + tlsSetups) * 6 * 2 };
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
  /** The worker counts, ascending, each once; one process and two workers among them for the figures file. */
  counts: WorkerCount[];
  /** --workers as given, for the figures' command line. */
  workersFlag: string;
  /** Rounds of options and votes beside the bare server, on plain HTTP. */
  rounds: number;
  /** Where the figures go (default: bench-results/vps-<time>.json). */
  out?: string;
}

/**
 * Measures every set-up, prints the summary, writes the figures; false when a check of the summary
 * failed (a vote acknowledged but not counted, errors).
 */
export async function benchVps(options: VpsBenchOptions): Promise<boolean> {
  const { duration, connections, chosen, tlsFlag, counts, workersFlag, rounds, out } = options;
  type RouteName = keyof VpsMeasurement['routes'];
  const keyOf = (workers: number, tls?: TlsSetup) => `${tls ?? 'plain'}-${workers}`;
  const SETUPS: Setup[] = [
    ...counts.map((count): Setup => ({ key: keyOf(count.workers), label: countLabel(count), ...count })),
    ...chosen.flatMap((tls) => {
      const flag = Object.keys(TLS_FLAGS).find((name) => TLS_FLAGS[name] === tls);
      return counts.map(
        (count): Setup => ({ key: keyOf(count.workers, tls), label: `${countLabel(count)}, ${flag}`, ...count, tls }),
      );
    }),
  ];
  const cores = ownCores();
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
    placement: Placement,
    primary?: number,
  ): Promise<Run> {
    const post = route.method ? ` -m ${route.method} -H content-type=application/json -b '${route.body}'` : '';
    console.log(
      `${label.padEnd(30)} npx autocannon -c ${connections} -d ${duration} -H accept-encoding=gzip${post} ${url}`,
    );
    const before = {
      tree: cpuSeconds(pids()),
      primary: primary ? cpuSeconds([primary], true) : 0,
      load: process.cpuUsage(),
      machine: machineCpuSeconds(),
      at: performance.now(),
    };
    const instance = autocannon({
      url,
      connections,
      duration,
      headers: headersOf(route),
      ...(route.method ? { method: route.method, body: route.body } : {}),
      // One load-generating thread a core it has (autocannon's one thread tops out below a many-core server).
      ...(placement.load.length > 1 && { workers: placement.load.length }),
    });
    // A line every 5 s of a run longer than that, and its rate at the end.
    let seconds = 0;
    const ticking = setInterval(() => {
      seconds += 5;
      if (seconds < duration) console.log(`${''.padEnd(30)} ${seconds} s`);
    }, 5_000);
    let result: Result;
    try {
      result = await instance;
    } finally {
      clearInterval(ticking);
    }
    const wall = (performance.now() - before.at) / 1e3;
    const cpu = { tree: cpuSeconds(pids()) - before.tree, load: process.cpuUsage(before.load) };
    const perRequest = (seconds: number) => tenths((seconds * 1e6) / Math.max(1, result.requests.total));
    const micros = perRequest(cpu.tree);
    const primaryMicros = primary ? perRequest(cpuSeconds([primary], true) - before.primary) : 0;
    const loadSeconds = (cpu.load.user + cpu.load.system) / 1e6;
    // Cores each kept busy over the run; the others': the machine's, less the server's and the load generator's.
    const busy = {
      server: cpu.tree / wall,
      loadGenerator: loadSeconds / wall,
      others: Math.max(0, machineCpuSeconds() - before.machine - cpu.tree - loadSeconds) / wall,
    };
    const limit = limitOf(busy, placement);
    console.log(
      `${''.padEnd(30)} ${Math.round(result.requests.average).toLocaleString('en-US')} req/s, ` +
        `${micros} µs of the server's CPU a request; cores busy: the server ${busy.server.toFixed(2)}, ` +
        `the load generator ${busy.loadGenerator.toFixed(2)}, others ${busy.others.toFixed(2)} (limit: ${limit})`,
    );
    return { result, micros, primaryMicros, busy };
  }

  /** One set-up from start to stop: every route and the bare server, and that each acknowledged vote counted. */
  async function measure(setup: Setup, rounds: number): Promise<Measured> {
    const placement = placementOf(setup.workers, cores);
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
    const servers = [app.child.pid!, bare.child.pid!, ...(front ? [front.child.pid!] : [])];
    // The server on a box's worth of cores, the load generator (this process) on the rest, where there is a rest.
    if (!pin(servers, placement.server) || !pin([process.pid], placement.load, true))
      throw new Error(
        `taskset (util-linux) could not pin the server to cores ${placement.server} and the load generator`,
      );
    console.log(`\n${setup.label}: ${placement.says}`);
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
    console.log(`${setup.label}: every route and the bare server for 2 s to warm up (not recorded)`);
    for (const [target, route] of [
      ...(Object.keys(ROUTES) as RouteName[]).map((r) => [at(r, warmUp), ROUTES[r]] as const),
      [bareAt('options', warmUp), ROUTES.options] as const,
      [bareAt('vote', warmUp), ROUTES.vote] as const,
    ])
      await autocannon({ url: target, connections, duration: 2, headers: headersOf(route), ...route });
    const appRun = (route: RouteName) =>
      run(`${setup.label}: ${route}`, at(route, id), ROUTES[route], withFront(app.child.pid!), placement, primary);
    const bareRun = (route: 'options' | 'vote', label: string) =>
      run(`${setup.label}: ${label}`, bareAt(route, id), ROUTES[route], withFront(bare.child.pid!), placement);
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
    return { setup, placement, pairs, votePairs, runs, counted, flushLine };
  }

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

  /** Each count's plain runs: each route's rate, µs, the cores kept busy and what bound it (rounds averaged). */
  const countFigures = (m: Measured): WorkerCountFigures => {
    const figures = (route: RouteName | 'bare' | 'bare POST') => {
      const busy = {
        server: hundredths(byRoute(m, route, (r) => r.busy.server)),
        loadGenerator: hundredths(byRoute(m, route, (r) => r.busy.loadGenerator)),
        others: hundredths(byRoute(m, route, (r) => r.busy.others)),
      };
      return {
        requestsPerSecond: Math.round(byRoute(m, route, (r) => r.result.requests.average)),
        micros: tenths(byRoute(m, route, (r) => r.micros)),
        primaryMicros: tenths(byRoute(m, route, (r) => r.primaryMicros)),
        busy,
        limit: limitOf(busy, m.placement),
      };
    };
    return {
      workers: m.setup.workers,
      auto: m.setup.auto,
      serverCores: m.placement.server.length,
      loadGenerator: { cores: m.placement.load.length, shared: m.placement.shared },
      routes: {
        options: figures('options'),
        page: figures('page'),
        vote: figures('vote'),
        results: figures('results'),
        bare: figures('bare'),
        barePost: figures('bare POST'),
      },
    };
  };

  try {
    bundle = (await bundleVps(join(home, 'dist'))).file;
    cert = makeCertificate(home);
    const measured: Measured[] = [];
    // The plain set-ups, which the ratios and the two workers' efficiency are read from, in rounds.
    for (const setup of SETUPS) measured.push(await measure(setup, setup.tls ? 1 : rounds));
    // Whatever the machine ran meanwhile, the load generator is back on every core.
    pin([process.pid], cores, true);
    const of = (workers: number, tls?: TlsSetup) => measured.find((m) => m.setup.key === keyOf(workers, tls));
    const date = new Date().toISOString().slice(0, 10);
    const machine = {
      cpus: cores.length,
      model: cpus()[0]?.model ?? 'unknown',
      os: `${type()} ${release()}`,
      node: process.version,
    };
    const on = `${machine.cpus} vCPUs of ${machine.model}, Node ${machine.node}`;
    const command =
      `npx autocannon -c ${connections} -d ${duration} -H accept-encoding=gzip <url> (the seed's command, ` +
      `with a browser's Accept-Encoding), per route and set-up, --tls ${tlsFlag}, ` +
      `--workers ${workersFlag}; ` +
      `bare and options, bare POST and vote alternate ${rounds} times on plain HTTP`;
    const byWorkers = {
      what:
        'plain HTTP at each worker count (1: one process): the server on as many cores as a box of that count ' +
        "has, the load generator on the machine's other cores, or on the server's where none is left (shared); " +
        'busy: the cores each kept busy over the run, others: the rest of the machine; limit: what bound the rate',
      source: `npm run bench:vps on ${date}: ${on}, ${command}`,
      counts: counts.map((count) => countFigures(of(count.workers)!)),
    };
    const one = of(1);
    const two = of(2);
    ok = printSummary(measured, byWorkers.counts, connections);
    if (!one || !two) {
      console.log(
        'No figures file: npm run cost prices a box from one process and 2 workers (--workers 1,2,...), ' +
          'and this run measured ' +
          counts.map(countLabel).join(', ') +
          '.',
      );
      return ok;
    }
    const plain = one;
    const shares = optionsShares(plain);
    // The round whose ratio is the median stands for options and bare (its latencies are reported).
    const middle = plain.pairs.find(
      (p) => p.options.result.requests.average / p.bare.result.requests.average === median(shares),
    )!;
    const tls = Object.fromEntries(
      (Object.keys(TLS_SETUPS) as TlsSetup[]).map((name) => [
        name,
        chosen.includes(name) ? { via: TERMINATORS[name].via(), ...setupMicros(of(1, name)!, of(2, name)!) } : null,
      ]),
    ) as VpsMeasurement['cpu']['tls'];
    // How a request's µs grows past 2 workers, where this run measured more: this machine's own curve.
    const grown = byWorkers.counts.filter((c) => c.workers >= 2);
    const workerCurve: WorkerCurve | undefined =
      grown.length > 1
        ? {
            what:
              "µs of CPU a request (the server's whole process tree) by HTTP worker count, plain HTTP, from this " +
              "run's byWorkers: the estimator grows a request's µs at 2 workers by it to a box's count",
            source: byWorkers.source,
            workers: grown.map((c) => c.workers),
            micros: {
              options: grown.map((c) => c.routes.options.micros),
              vote: grown.map((c) => c.routes.vote.micros),
              results: grown.map((c) => c.routes.results.micros),
            },
          }
        : undefined;
    const measurement: VpsMeasurement = {
      what:
        'npm run bench:vps: the VPS edition as deployed (the one file of npm run build:vps), its log fsynced ' +
        'before each answer, on loopback, with autocannon in another process',
      date,
      machine,
      command,
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
        plain: setupMicros(plain, two),
        tls,
        // The primary's own work does not depend on TLS: read over the two-worker plain runs.
        primaryMicrosPerRequest: routeMicros(two, (r) => r.primaryMicros),
      },
      byWorkers,
      ...(workerCurve && { workerCurve }),
    };
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
