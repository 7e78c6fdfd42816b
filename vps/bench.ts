/**
 * `npm run bench:vps`: the seed platform's own benchmark (`npx autocannon -c 100 -d 10
 * http://localhost:3081/api/poll/<id>/options`) against the VPS edition, then on the page, a
 * vote and the results, and the same command against a bare node:http server answering a fixed
 * JSON body, in the same run: on a shared machine the app's share of the bare server's rate is
 * the figure that holds. Each route is measured four ways: one process or two workers, plain or
 * behind Caddy's TLS as docs/vps.md deploys it; what a box carries is read from the server's own
 * CPU time per request (its processes' /proc), which the load generator on the same cores does not
 * inflate. Writes the figures to a file the cost model reads (--vps-from).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, type } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import { CommandFailure, parseCommandLine, runCommand, UsageError } from '../bin/command-line';
import type { RouteRate, VpsMeasurement } from '../cost/estimate/vps';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Bare and options runs alternate this many times: a shared machine's drift hits both alike. */
const ROUNDS = 3;

const SPEC = {
  command: 'npm run bench:vps --',
  summary:
    "The VPS edition under the seed's autocannon command: req/s and latency per route, " +
    'beside a bare node:http server in the same run.',
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
      default: 'caddy',
      value: 'caddy|off',
      description:
        'terminate TLS with Caddy in front, as docs/vps.md deploys it (apt-get install caddy); off: plain only',
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
    'Loopback only; rate limits are off for the run, as for load tests. ' +
      'Four set-ups (one process or two workers, plain or behind TLS), each warmed up for 2 s a route, then ' +
      'a run of --duration seconds a route (bare and options alternate 3 times on the first): ' +
      'a line as each starts, every 5 s of it, and its rate and CPU time per request.',
    'It loads every core for about 22 runs of --duration seconds and 40 s of warm-ups: ' +
      'about 5 minutes at the defaults. Nothing else should run meanwhile.',
  ],
} as const;

/** A fixed JSON body the size of the options answer, from node:http with nothing else: the ceiling. */
const BARE_SERVER = `
const body = JSON.stringify({ id: 'x'.repeat(21), options: ['Option A', 'Option B', 'Option C'] });
require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port); });`;

/** Starts a server process and resolves with the URL it prints. */
function startServer(
  command: string,
  args: string[],
): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolveStart({ url, child, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    child.removeAllListeners('exit');
    child.once('exit', () => done());
    child.kill('SIGINT');
  });
}

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
let tls = true;
await runCommand(SPEC, () => {
  duration = Number(values.duration);
  connections = Number(values.connections);
  if (!Number.isInteger(duration) || duration < 1 || duration > 300)
    throw new UsageError(`--duration must be a whole number of seconds from 1 to 300 (got ${values.duration}).`);
  if (!Number.isInteger(connections) || connections < 1 || connections > 1000)
    throw new UsageError(`--connections must be from 1 to 1000 (got ${values.connections}).`);
  if (values.tls !== 'caddy' && values.tls !== 'off')
    throw new UsageError(`--tls must be caddy or off (got ${values.tls}).`);
  tls = values.tls === 'caddy';
  if (tls && spawnSync('caddy', ['version']).status !== 0)
    throw new CommandFailure(
      'TLS is measured through Caddy, as docs/vps.md deploys it, and caddy is not on the PATH: ' +
        'apt-get install caddy, or --tls off to measure plain HTTP only.',
    );
});

/** The server's own CPU time: its processes and all their descendants, from /proc (Linux). */
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
function cpuSeconds(roots: number[], alone = false): number {
  const stats = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        // The fields after the command name (which may hold spaces): state, ppid, ... utime (14th), stime (15th).
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return [{ pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }];
      } catch {
        return []; // gone meanwhile
      }
    });
  const tree = new Set(roots);
  for (let grew = !alone; grew; ) {
    grew = false;
    for (const s of stats)
      if (tree.has(s.ppid) && !tree.has(s.pid)) {
        tree.add(s.pid);
        grew = true;
      }
  }
  return stats.filter((s) => tree.has(s.pid)).reduce((sum, s) => sum + s.ticks, 0) / TICKS_PER_SECOND;
}

type RouteName = keyof VpsMeasurement['routes'];
type SetupName = keyof VpsMeasurement['cpu']['microsPerRequest'];
interface Setup {
  name: SetupName;
  label: string;
  workers: number;
  tls: boolean;
}
const SETUPS: Setup[] = [
  { name: 'plain', label: 'one process', workers: 1, tls: false },
  { name: 'workersPlain', label: '2 workers', workers: 2, tls: false },
  { name: 'tls', label: 'one process, TLS', workers: 1, tls: true },
  { name: 'workersTls', label: '2 workers, TLS', workers: 2, tls: true },
];
const ROUTES: Record<RouteName, { path: string; method?: string; body?: string }> = {
  options: { path: '/api/poll/ID/options' },
  page: { path: '/poll/ID' },
  vote: { path: '/api/poll/ID/vote', method: 'POST', body: '{"option":1}' },
  results: { path: '/api/poll/ID/results' },
};

/** Caddy in front of `origin` on a free port, as docs/vps.md deploys it (its own CA: nothing is fetched). */
async function startCaddy(origin: string, home: string) {
  const port = await freePort();
  const config = join(home, 'Caddyfile');
  writeFileSync(
    config,
    '{\n\tadmin off\n\tskip_install_trust\n\tlog default {\n\t\tlevel ERROR\n\t}\n}\n' +
      `https://127.0.0.1:${port} {\n\ttls internal\n\treverse_proxy ${origin.replace('http://', '')}\n}\n`,
  );
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home };
  const child = spawn('caddy', ['run', '--config', config, '--adapter', 'caddyfile'], { env, stdio: 'ignore' });
  const url = `https://127.0.0.1:${port}`;
  for (let tries = 0; tries < 100; tries++) {
    const up = await autocannon({ url: `${url}/`, connections: 1, amount: 1 }).catch(() => undefined);
    if (up && up['2xx'] + up.non2xx > 0) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new CommandFailure(`Caddy did not answer on ${url} within 10 s.`);
}

function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

const home = mkdtempSync(join(tmpdir(), 'vps-bench-'));
const started: ChildProcess[] = [];
const bare = await startServer(process.execPath, ['-e', BARE_SERVER]);
started.push(bare.child);

/** One autocannon run of `route`, with the server's CPU time per request over it. */
async function run(
  label: string,
  url: string,
  route: (typeof ROUTES)[RouteName],
  pids: () => number[],
  primary?: number,
) {
  const post = route.method ? ` -m ${route.method} -H content-type=application/json -b '${route.body}'` : '';
  console.log(`${label.padEnd(24)} npx autocannon -c ${connections} -d ${duration}${post} ${url}`);
  const before = { tree: cpuSeconds(pids()), primary: primary ? cpuSeconds([primary], true) : 0 };
  const instance = autocannon({
    url,
    connections,
    duration,
    ...(route.method
      ? { method: route.method, body: route.body, headers: { 'content-type': 'application/json' } }
      : {}),
  });
  // A line every 5 s of a run longer than that (autocannon ticks once a second), and its rate at the end.
  let seconds = 0;
  instance.on('tick', () => {
    if (++seconds % 5 === 0 && seconds < duration) console.log(`${''.padEnd(24)} ${seconds} s`);
  });
  const result = await instance;
  const perRequest = (cpu: number) => Math.round((cpu * 1e6) / Math.max(1, result.requests.total));
  const micros = perRequest(cpuSeconds(pids()) - before.tree);
  const primaryMicros = primary ? perRequest(cpuSeconds([primary], true) - before.primary) : 0;
  console.log(
    `${''.padEnd(24)} ${Math.round(result.requests.average).toLocaleString('en-US')} req/s, ` +
      `${micros} µs of the server's CPU a request`,
  );
  return { result, micros, primaryMicros };
}

type Run = Awaited<ReturnType<typeof run>>;

/** One set-up from start to stop: every route, and the check that each acknowledged vote was counted. */
async function measure(setup: Setup, rounds: number) {
  const dataDir = mkdtempSync(join(home, `${String(setup.name)}-`));
  const app = await startServer(process.execPath, [
    ...['--import', 'tsx', 'vps/cli.ts', '--port', '0', '--data-dir', dataDir],
    ...['--rate-limits', 'off', '--workers', String(setup.workers)],
  ]);
  started.push(app.child);
  const caddy = setup.tls ? await startCaddy(app.url, mkdtempSync(join(home, 'caddy-'))) : undefined;
  if (caddy) started.push(caddy.child);
  const url = caddy?.url ?? app.url;
  const pids = () => [app.child.pid!, ...(caddy ? [caddy.child.pid!] : [])];
  const primary = setup.workers > 1 ? app.child.pid : undefined;
  const create = async (title: string) =>
    (
      (await (
        await fetch(`${app.url}/api/poll`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title, options: ['Option A', 'Option B', 'Option C'], lifetimeMinutes: 60 }),
        })
      ).json()) as { id: string }
    ).id;
  const [id, warmUp] = [await create('Benchmark'), await create('Warm-up')];
  const at = (route: RouteName, poll: string) => url + ROUTES[route].path.replace('ID', poll);
  // Warm up first (not recorded, on a poll of its own): a fresh process runs code the JIT has not compiled yet.
  console.log(`\n${setup.label}: every route for 2 s to warm up (not recorded)`);
  for (const route of Object.keys(ROUTES) as RouteName[])
    await autocannon({ url: at(route, warmUp), connections, duration: 2, ...ROUTES[route] });
  // The ratio that holds on a shared machine: bare and options alternate, and each round's pair is compared.
  const pairs: Array<{ bare: Result; options: Run }> = [];
  for (let round = 0; round < rounds; round++) {
    const bareRun = await run('bare', `${bare.url}/api/poll/${id}/options`, ROUTES.options, () => []);
    pairs.push({
      bare: bareRun.result,
      options: await run(`${setup.label}: options`, at('options', id), ROUTES.options, pids, primary),
    });
  }
  const runs = {} as Record<RouteName, Run>;
  for (const route of Object.keys(ROUTES) as RouteName[])
    runs[route] =
      route === 'options' && pairs.length > 0
        ? pairs[0].options
        : await run(`${setup.label}: ${route}`, at(route, id), ROUTES[route], pids, primary);
  const counted = (
    (await (await fetch(`${app.url}/api/poll/${id}/results`, { headers: { 'cache-control': 'no-cache' } })).json()) as {
      total: number;
    }
  ).total;
  caddy?.child.kill();
  await stop(app.child);
  const flushLine = /(\d+) change\(s\) written in (\d+) flush\(es\): ([\d.]+) per flush, ([\d.]+) ms per flush/.exec(
    app.output(),
  );
  return { pairs, runs, counted, flushLine };
}

try {
  const measured = {} as Record<SetupName, Awaited<ReturnType<typeof measure>>>;
  for (const setup of SETUPS.filter((s) => tls || !s.tls))
    measured[setup.name] = await measure(setup, setup.name === 'plain' ? ROUNDS : setup.tls ? 0 : 1);
  // Without TLS measured, its figures are the plain ones, and the file says so.
  measured.tls ??= measured.plain;
  measured.workersTls ??= measured.workersPlain;

  const mean = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  const median = <T>(sorted: T[]) => sorted[Math.floor(sorted.length / 2)];
  const shares = (name: SetupName) =>
    measured[name].pairs.map((p) => p.options.result.requests.average / p.bare.requests.average).sort((a, b) => a - b);
  const { pairs, runs, counted, flushLine } = measured.plain;
  // The round whose ratio is the median stands for options and bare (its latencies are reported).
  const middle = pairs.find(
    (p) => p.options.result.requests.average / p.bare.requests.average === median(shares('plain')),
  )!;
  /** Each route's figure of a set-up: its runs' CPU per request (the options route's rounds averaged). */
  const perRoute = (name: SetupName, figure: (r: Run) => number) => {
    const { runs: r, pairs: p } = measured[name];
    return {
      options: p.length ? mean(p.map((pair) => figure(pair.options))) : figure(r.options),
      page: figure(r.page),
      vote: figure(r.vote),
      results: figure(r.results),
    };
  };
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
      `npx autocannon -c ${connections} -d ${duration} <url> (the seed's command), per route and set-up; ` +
      `bare and options alternate ${ROUNDS} times on one process`,
    bare: {
      ...rate(middle.bare, '/api/poll/<id>/options (bare node:http, fixed body)'),
      requestsPerSecond: mean(pairs.map((p) => p.bare.requests.average)),
    },
    routes: {
      options: {
        ...rate(middle.options.result, '/api/poll/<id>/options'),
        requestsPerSecond: mean(pairs.map((p) => p.options.result.requests.average)),
      },
      page: rate(runs.page.result, '/poll/<id>'),
      vote: rate(runs.vote.result, '/api/poll/<id>/vote', 'POST'),
      results: rate(runs.results.result, '/api/poll/<id>/results'),
    },
    optionsShareOfBare: Math.round(median(shares('plain')) * 100) / 100,
    votes: { acknowledged: runs.vote.result['2xx'], counted },
    journal: flushLine
      ? {
          records: Number(flushLine[1]),
          flushes: Number(flushLine[2]),
          recordsPerFlush: Number(flushLine[3]),
          msPerFlush: Number(flushLine[4]),
        }
      : undefined,
    cpu: {
      what:
        "the server's CPU time per request (its processes' utime + stime in /proc, Caddy's included behind TLS), " +
        'in µs, over each route’s run',
      microsPerRequest: {
        plain: perRoute('plain', (r) => r.micros),
        workersPlain: perRoute('workersPlain', (r) => r.micros),
        tls: perRoute('tls', (r) => r.micros),
        workersTls: perRoute('workersTls', (r) => r.micros),
      },
      primaryMicrosPerRequest: perRoute('workersTls', (r) => r.primaryMicros),
      tlsVia: tls
        ? `Caddy ${spawnSync('caddy', ['version'], { encoding: 'utf8' }).stdout.split(' ')[0].trim()} ` +
          'reverse_proxy with its internal CA, HTTP/1.1 keep-alive, as docs/vps.md deploys it'
        : 'none: measured with --tls off, so the TLS figures are the plain ones',
    },
  };
  printSummary(measurement, measured);
  const out = resolve(
    values.out ?? join(ROOT, 'bench-results', `vps-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
  );
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(measurement, null, 2)}\n`);
  console.log(`Figures written to ${out} (npm run cost -- --vps-from ${out.replace(`${ROOT}/`, '')})`);
} finally {
  for (const child of started) if (child.exitCode === null) await stop(child);
  rmSync(home, { recursive: true, force: true });
}

/** The tables: req/s and CPU per request by route and set-up, the ratios to bare, the two-worker efficiency. */
function printSummary(m: VpsMeasurement, measured: Record<SetupName, Awaited<ReturnType<typeof measure>>>) {
  const names = SETUPS.map((s) => s.name);
  const row = (first: string, cells: Array<string | number>) =>
    first.padEnd(10) + cells.map((cell) => String(cell).padStart(18)).join('');
  const routes = Object.keys(ROUTES) as RouteName[];
  const rps = (name: SetupName, route: RouteName) => {
    const { runs, pairs } = measured[name];
    const results = pairs.length ? pairs.map((p) => p.options.result) : [runs[route].result];
    return route === 'options'
      ? results.reduce((a, r) => a + r.requests.average, 0) / results.length
      : runs[route].result.requests.average;
  };
  /** A table of a figure by route (rows) and set-up (columns). */
  const table = (title: string, cell: (name: SetupName, route: RouteName) => number) => {
    console.log(`\n${title}`);
    console.log(
      row(
        'route',
        SETUPS.map((s) => s.label),
      ),
    );
    for (const route of routes)
      console.log(
        row(
          route,
          names.map((n) => Math.round(cell(n, route)).toLocaleString('en-US')),
        ),
      );
  };
  table(`req/s (bare node:http: ${m.bare.requestsPerSecond.toLocaleString('en-US')})`, rps);
  table('requests per CPU-second of the server (1e6 ÷ µs of its CPU a request)', (n, route) =>
    Math.round(1e6 / m.cpu.microsPerRequest[n][route]),
  );
  const share = (name: SetupName, route: RouteName) =>
    `${Math.round((rps(name, route) / m.bare.requestsPerSecond) * 100)}%`;
  const efficiency = (one: SetupName, two: SetupName, route: RouteName) =>
    (m.cpu.microsPerRequest[one][route] / m.cpu.microsPerRequest[two][route]).toFixed(2);
  console.log(
    `\nAgainst the bare server: options ${share('plain', 'options')} with one process, ` +
      `${share('workersPlain', 'options')} with 2 workers; durable votes ${share('plain', 'vote')} and ` +
      `${share('workersPlain', 'vote')}. The seed measured 18,671 req/s for its Node server on its own machine.`,
  );
  console.log(
    `Two workers against one, CPU per request (1.00: no cost of its own): ` +
      routes
        .map((r) => `${r} ${efficiency('plain', 'workersPlain', r)} plain, ${efficiency('tls', 'workersTls', r)} TLS`)
        .join('; ') +
      '.',
  );
  for (const setup of SETUPS) {
    const { runs, counted } = measured[setup.name];
    const acknowledged = runs.vote.result['2xx'];
    // autocannon stops with up to one request per connection in flight: written and counted, its answer never read.
    const inFlight = counted - acknowledged;
    const ok = inFlight >= 0 && inFlight <= connections;
    console.log(
      `Votes, ${setup.label}: ${acknowledged} acknowledged (202), ${counted} counted ` +
        `(${ok ? `none lost; ${inFlight} more were in flight when the run stopped` : 'MISMATCH'}).`,
    );
    if (!ok) process.exitCode = 1;
  }
}
