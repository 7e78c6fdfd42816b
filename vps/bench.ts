/**
 * `npm run bench:vps`: the seed platform's own benchmark (`npx autocannon -c 100 -d 10
 * http://localhost:3081/api/poll/<id>/options`) against the VPS edition, then on the page, a
 * vote and the results, and the same command against a bare node:http server answering a fixed
 * JSON body, in the same run: on a shared machine the app's share of the bare server's rate is
 * the figure that holds. Writes the figures to a file the cost model reads (--vps-from).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, type } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import { parseCommandLine, runCommand, UsageError } from '../bin/command-line';
import { placeholderCpu, type RouteRate, type VpsMeasurement } from '../cost/vps';

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
      'A 10 s warm-up, then 9 runs of --duration seconds (bare and options alternate 3 times): ' +
      'a line as each starts, every 5 s of it, and its rate.',
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
await runCommand(SPEC, () => {
  duration = Number(values.duration);
  connections = Number(values.connections);
  if (!Number.isInteger(duration) || duration < 1 || duration > 300)
    throw new UsageError(`--duration must be a whole number of seconds from 1 to 300 (got ${values.duration}).`);
  if (!Number.isInteger(connections) || connections < 1 || connections > 1000)
    throw new UsageError(`--connections must be from 1 to 1000 (got ${values.connections}).`);
});

const dataDir = mkdtempSync(join(tmpdir(), 'vps-bench-'));
const bare = await startServer(process.execPath, ['-e', BARE_SERVER]);
const app = await startServer(process.execPath, [
  '--import',
  'tsx',
  'vps/cli.ts',
  '--port',
  '0',
  '--data-dir',
  dataDir,
  '--rate-limits',
  'off',
]);
try {
  const created = await fetch(`${app.url}/api/poll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Benchmark', options: ['Option A', 'Option B', 'Option C'], lifetimeMinutes: 60 }),
  });
  const { id } = (await created.json()) as { id: string };
  const run = async (label: string, url: string, extra: { method?: string; body?: string } = {}) => {
    const post = extra.method ? ` -m ${extra.method} -H content-type=application/json -b '${extra.body}'` : '';
    console.log(`${label.padEnd(8)} npx autocannon -c ${connections} -d ${duration}${post} ${url}`);
    const instance = autocannon({
      url,
      connections,
      duration,
      ...extra,
      ...(extra.body ? { headers: { 'content-type': 'application/json' } } : {}),
    });
    // A line every 5 s of a run longer than that (autocannon ticks once a second), and its rate at the end.
    let seconds = 0;
    instance.on('tick', () => {
      if (++seconds % 5 === 0 && seconds < duration) console.log(`${''.padEnd(8)} ${seconds} s`);
    });
    const result = await instance;
    console.log(`${''.padEnd(8)} ${Math.round(result.requests.average).toLocaleString('en-US')} req/s`);
    return result;
  };
  // Warm up first (not recorded, on a poll of its own): the first seconds of a fresh process run
  // code the JIT has not compiled yet.
  console.log('warm-up  every route for 2 s (not recorded)');
  const warmUp = (
    (await (
      await fetch(`${app.url}/api/poll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Warm-up', options: ['a', 'b'] }),
      })
    ).json()) as { id: string }
  ).id;
  for (const path of ['/api/poll/ID/options', '/poll/ID', '/api/poll/ID/results'])
    await autocannon({ url: app.url + path.replace('ID', warmUp), connections, duration: 2 });
  await autocannon({
    url: `${app.url}/api/poll/${warmUp}/vote`,
    connections,
    duration: 2,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"option":0}',
  });
  await autocannon({ url: `${bare.url}/`, connections, duration: 2 });

  // The ratio that holds on a shared machine: bare and options alternate, and each round's pair is compared.
  const pairs: Array<{ bare: Result; options: Result }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    pairs.push({
      bare: await run('bare', `${bare.url}/api/poll/${id}/options`),
      options: await run('options', `${app.url}/api/poll/${id}/options`),
    });
  }
  const page = await run('page', `${app.url}/poll/${id}`);
  const vote = await run('vote', `${app.url}/api/poll/${id}/vote`, { method: 'POST', body: '{"option":1}' });
  const results = await run('results', `${app.url}/api/poll/${id}/results`);

  // Every acknowledged vote is on disk and counted.
  const counted = (
    (await (await fetch(`${app.url}/api/poll/${id}/results`, { headers: { 'cache-control': 'no-cache' } })).json()) as {
      total: number;
    }
  ).total;
  await stop(app.child);
  const flushLine = /(\d+) change\(s\) written in (\d+) flush\(es\): ([\d.]+) per flush, ([\d.]+) ms per flush/.exec(
    app.output(),
  );

  const mean = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  const ratios = pairs.map((p) => p.options.requests.average / p.bare.requests.average).sort((a, b) => a - b);
  const median = <T>(sorted: T[]) => sorted[Math.floor(sorted.length / 2)];
  // The round whose ratio is the median stands for options and bare (its latencies are reported).
  const middle = pairs.find((p) => p.options.requests.average / p.bare.requests.average === median(ratios))!;
  const measured: Omit<VpsMeasurement, 'cpu'> = {
    what:
      'npm run bench:vps: the VPS edition (one Node process, its log fsynced before each answer) on loopback, ' +
      'with autocannon in another process',
    date: new Date().toISOString().slice(0, 10),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? 'unknown',
      os: `${type()} ${release()}`,
      node: process.version,
    },
    command:
      `npx autocannon -c ${connections} -d ${duration} <url> (the seed's command), per route; ` +
      `bare and options alternate ${ROUNDS} times`,
    bare: {
      ...rate(middle.bare, '/api/poll/<id>/options (bare node:http, fixed body)'),
      requestsPerSecond: mean(pairs.map((p) => p.bare.requests.average)),
    },
    routes: {
      options: {
        ...rate(middle.options, '/api/poll/<id>/options'),
        requestsPerSecond: mean(pairs.map((p) => p.options.requests.average)),
      },
      page: rate(page, '/poll/<id>'),
      vote: rate(vote, '/api/poll/<id>/vote', 'POST'),
      results: rate(results, '/api/poll/<id>/results'),
    },
    optionsShareOfBare: Math.round(median(ratios) * 100) / 100,
    votes: { acknowledged: vote['2xx'], counted },
    journal: flushLine
      ? {
          records: Number(flushLine[1]),
          flushes: Number(flushLine[2]),
          recordsPerFlush: Number(flushLine[3]),
          msPerFlush: Number(flushLine[4]),
        }
      : undefined,
  };
  const measurement: VpsMeasurement = { ...measured, cpu: placeholderCpu(measured) };

  console.log('');
  const rows: Array<[string, RouteRate]> = [
    ['bare node:http', measurement.bare],
    ...Object.entries(measurement.routes),
  ];
  // A table line: the route, then req/s, p50, p97.5, p99 and non-2xx right-aligned to these widths.
  const widths = [9, 9, 8, 8, 9];
  const row = (name: string, ...cells: Array<string | number>) =>
    name.padEnd(16) + cells.map((cell, i) => String(cell).padStart(widths[i])).join('');
  console.log(row('route', 'req/s', 'p50 ms', 'p97.5', 'p99', 'non-2xx'));
  for (const [name, r] of rows) {
    console.log(
      row(name, r.requestsPerSecond, r.latencyMs.p50, r.latencyMs.p97_5, r.latencyMs.p99, r.non2xx + r.errors),
    );
  }
  const roundShares = ratios.map((r) => `${Math.round(r * 100)}%`).join(', ');
  console.log(
    `\nThe options route at ${Math.round(measurement.optionsShareOfBare * 100)}% of the bare server's rate ` +
      `(median of ${ROUNDS} paired rounds: ${roundShares}); ` +
      'the seed measured 18,671 req/s for its Node server on its own machine.',
  );
  // autocannon stops with up to one request per connection in flight: written and counted, its answer never read.
  const inFlight = counted - measurement.votes.acknowledged;
  const check =
    inFlight >= 0 && inFlight <= connections
      ? `none lost; ${inFlight} more were in flight when the run stopped`
      : 'MISMATCH';
  console.log(
    `Votes: ${measurement.votes.acknowledged} acknowledged (202), ${counted} counted (${check})` +
      (measurement.journal
        ? `; ${measurement.journal.recordsPerFlush} per flush, ${measurement.journal.msPerFlush} ms per flush.`
        : '.'),
  );
  if (check === 'MISMATCH') process.exitCode = 1;
  const out = resolve(
    values.out ?? join(ROOT, 'bench-results', `vps-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
  );
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(measurement, null, 2)}\n`);
  console.log(`Figures written to ${out} (npm run cost -- --vps-from ${out.replace(`${ROOT}/`, '')})`);
} finally {
  await stop(bare.child);
  if (app.child.exitCode === null) await stop(app.child);
  rmSync(dataDir, { recursive: true, force: true });
}
