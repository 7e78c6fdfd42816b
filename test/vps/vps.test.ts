/**
 * The VPS edition's own promises: what it acknowledged survives a restart and a crash, counted
 * once, and so does a ballot's key (its retry after a crash is that vote); a torn or corrupt log
 * is loaded as far as it is intact, with a count of what was not; many requests share one flush;
 * compaction and expiry keep the log small.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { get as httpsGet } from 'node:https';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY } from '../../config/api-contract';
import { RATE_LIMITS } from '../../config/throttling';
import { RESULTS_CACHE_SECONDS } from '../../config/caching';
import { buildSite } from '../../frontend/build';
import { voteIdFor } from '../../domain/vote';
import { readLog } from '../../vps/journal';
import { isStateRecord } from '../../vps/poll-state';
import { startVpsServer, type VpsOptions, type VpsServer } from '../../vps/server';
import { LOCK_FILE } from '../../node/folder-lock';
import { LOG_FILE } from '../../vps/store';
import { api, pool } from '../support/local';
import { startProcess } from '../support/vps-process';

const site = buildSite();
const folders: string[] = [];
const servers: VpsServer[] = [];
const quiet = { error: () => undefined, warn: () => undefined };

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vps-'));
  folders.push(dir);
  return dir;
}

async function start(dir: string, options: Partial<VpsOptions> = {}): Promise<VpsServer> {
  const server = await startVpsServer({ dataDir: dir, port: 0, site, rateLimits: false, log: quiet, ...options });
  servers.push(server);
  return server;
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop().catch(() => undefined);
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the VPS edition', () => {
  it('brings every poll, vote and voter claim back after a restart with the same data folder', async () => {
    const dir = dataDir();
    const first = await start(dir);
    const client = api(first);
    const poll = await client.createPoll({ oneVotePerVoter: true });
    const open = await client.createPoll();
    expect((await client.vote(poll.id, 2)).status).toBe(202);
    for (const option of [0, 1, 1]) expect((await client.vote(open.id, option)).status).toBe(202);
    await first.stop();

    const second = await start(dir);
    expect(second.store.loaded).toMatchObject({ polls: 2, votes: 4, skipped: 0 });
    const again = api(second);
    expect((await again.results(poll.id)).json.counts).toEqual([0, 0, 1]);
    expect((await again.results(open.id)).json.counts).toEqual([1, 2, 0]);
    // The claim survived too: the same voter is still refused.
    expect((await again.vote(poll.id, 0)).status).toBe(409);
  });

  it('loads what is intact from a torn or corrupt log, says how much was not, and starts on a clean log', async () => {
    const dir = dataDir();
    const first = await start(dir);
    const poll = await api(first).createPoll();
    for (let i = 0; i < 5; i++) await api(first).vote(poll.id, 0);
    await first.stop();
    const path = join(dir, LOG_FILE);
    const lines = readFileSync(path, 'utf8').split('\n');
    // One record's bytes flipped (its checksum no longer matches), a line of garbage, and a record cut off mid-write.
    lines[2] = lines[2].replace('"o":0', '"o":1');
    writeFileSync(path, [...lines.slice(0, -1), 'not a record at all', ''].join('\n'));
    appendFileSync(path, lines[1].slice(0, 20));

    const second = await start(dir);
    expect(second.store.loaded).toMatchObject({ polls: 1, votes: 4, skipped: 3 });
    expect((await api(second).results(poll.id)).json.counts).toEqual([4, 0, 0]);
    // Compacted at start: the log reads back whole, and new votes land on clean lines.
    expect(readLog(path, isStateRecord).skipped).toBe(0);
    expect((await api(second).vote(poll.id, 1)).status).toBe(202);
    await second.stop();
    expect((await start(dir)).store.loaded).toMatchObject({ votes: 5, skipped: 0 });
  });

  it('commits many votes per flush, counts each once, and compacts the log when it grows', async () => {
    const dir = dataDir();
    const server = await start(dir, { compactAtBytes: 20_000 });
    const poll = await api(server).createPoll();
    const statuses = await pool(600, 50, async (i) => (await api(server).vote(poll.id, i % 3)).status);
    expect(statuses.every((s) => s === 202)).toBe(true);
    const { flushes, records } = server.store.journal.stats;
    expect(records).toBe(601);
    expect(records / flushes, `${records} records in ${flushes} flushes`).toBeGreaterThan(2);
    // 600 vote lines (~90 bytes each) passed 20 KB: the log was rewritten from a snapshot at least once.
    expect(statSync(join(dir, LOG_FILE)).size).toBeLessThan(600 * 90);
    await server.stop();
    expect((await api(await start(dir)).results(poll.id)).json.counts).toEqual([200, 200, 200]);
  });

  it('remembers a ballot’s key for its window, across a restart: a retry is that vote; another option: 409', {
    timeout: 60_000,
  }, async () => {
    const dir = dataDir();
    let now = Date.now();
    const first = await start(dir, { clock: () => now });
    const poll = await api(first).createPoll();
    const voteId = voteIdFor(poll.id, 'ballot-1');
    expect((await api(first).vote(poll.id, 1, 'ballot-1')).json).toMatchObject({ voteId });
    const reused = await api(first).vote(poll.id, 2, 'ballot-1');
    expect(reused).toMatchObject({ status: 409, json: { error: { code: 'idempotency_key_reused' } } });
    await first.stop();
    // Each start compacts the log: the key is kept as a ballot record beside the counts, and read back.
    await (await start(dir, { clock: () => now })).stop();

    now += IDEMPOTENCY.windowSeconds * 1000 - 1000;
    const second = await start(dir, { clock: () => now });
    expect(await api(second).vote(poll.id, 1, 'ballot-1')).toMatchObject({ status: 202, json: { voteId } });
    expect((await api(second).results(poll.id)).json.counts).toEqual([0, 1, 0]);
    // Past the window the key names a new vote, as SQS forgets a deduplication id after 5 minutes.
    now += 2000;
    expect((await api(second).vote(poll.id, 1, 'ballot-1')).status).toBe(202);
    expect((await api(second).results(poll.id)).json.counts).toEqual([0, 2, 0]);
  });

  it('answers a HEAD as its GET without the body, and a method a path does not take with 405 and Allow', async () => {
    const server = await start(dataDir());
    const poll = await api(server).createPoll({ options: ['A', 'B'] });
    const url = `${server.url}/api/poll/${poll.id}/options`;
    const [got, head] = await Promise.all([fetch(url), fetch(url, { method: 'HEAD' })]);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(got.headers.get('content-length'));
    expect(await head.text()).toBe('');
    const post = await fetch(url, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toEqual({ error: { code: 'method_not_allowed', message: 'Use GET or HEAD here.' } });
  });

  it('answers results a CDN keeps for the whole max-age, whenever it asks, with that moment’s counts', async () => {
    let now = Date.now();
    const server = await start(dataDir(), { clock: () => now });
    const poll = await api(server).createPoll();
    // As a CDN asks: no no-cache header, at any time within another cache's period.
    const results = () => api(server).call('GET', `/api/poll/${poll.id}/results`);
    const whole = `public, max-age=${RESULTS_CACHE_SECONDS}`;
    expect((await results()).headers.get('cache-control')).toBe(whole);
    await api(server).vote(poll.id, 1);
    now += RESULTS_CACHE_SECONDS * 1000 - 500;
    const later = await results();
    expect(later.headers.get('cache-control')).toBe(whole);
    expect(later.json.counts).toEqual([0, 1, 0]);
  });

  it('refuses a data folder another server holds, and takes over one whose holder is gone', async () => {
    const dir = dataDir();
    const first = await start(dir);
    const poll = await api(first).createPoll();
    await expect(start(dir)).rejects.toThrow(`${dir} is in use by npm run vps (pid ${process.pid})`);
    // The first goes on, its log untouched by the refused start.
    expect((await api(first).vote(poll.id, 1)).status).toBe(202);
    await first.stop();
    // A holder killed without a stop leaves its lock behind: a process that no longer exists.
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    writeFileSync(join(dir, LOCK_FILE), gone.stdout.trim());
    expect((await api(await start(dir)).results(poll.id)).json.counts).toEqual([0, 1, 0]);
  });

  it('treats an expired poll as gone, and drops it from disk at the next start', async () => {
    const dir = dataDir();
    let now = Date.now();
    const server = await start(dir, { clock: () => now });
    const poll = await api(server).createPoll({ lifetimeMinutes: 1 });
    now += 2 * 60_000;
    expect((await api(server).vote(poll.id, 0)).status).toBe(410);
    now += 25 * 3600_000;
    expect((await api(server).call('GET', `/api/poll/${poll.id}`)).status).toBe(404);
    await server.stop();
    const restarted = await start(dir, { clock: () => now });
    expect(restarted.store.loaded).toMatchObject({ polls: 0, expiredDropped: 1 });
  });
});

/**
 * How long a test's client waits for an answer, as a browser would give up: a connection the cluster's
 * primary hands to a worker just as that worker dies is never answered (node:cluster drops it), and
 * counts as a request with no answer, which is what it is.
 */
const CLIENT_TIMEOUT_MS = 10_000;

/** A VPS edition process as a person runs it; resolves with its URL and what it printed. */
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
});
function runProcess(args: string[], cwd?: string): Promise<{ url: string; output: () => string }> {
  const started = startProcess(process.execPath, args, { cwd });
  child = started.child;
  return started.ready;
}

describe('a crash', () => {
  /** `npm run vps` on a free port, with `workers` processes serving HTTP. */
  const runVps = (dir: string, workers = 1, rateLimits = 'off') =>
    runProcess([
      '--import',
      'tsx',
      'bin/vps.ts',
      ...['--port', '0', '--data-dir', dir, '--rate-limits', rateLimits, '--workers', String(workers)],
    ]);

  /** The pids a run with workers printed ("2 workers (pids 11, 12)"). */
  const workerPids = (output: string) => /workers \(pids ([\d, ]+)\)/.exec(output)![1].split(', ').map(Number);

  it.each([
    { workers: 1, victim: 'the one process' },
    { workers: 2, victim: 'a worker' },
    { workers: 2, victim: 'the process that owns the log' },
  ] as const)(
    'with $workers worker(s), $victim SIGKILLed in the middle of a load: no acknowledged vote lost, none counted twice',
    {
      timeout: 60_000,
    },
    async ({ workers, victim }) => {
      const dir = dataDir();
      const { url, output } = await runVps(dir, workers);
      const running = child!;
      const poll = await api({ url }).createPoll({ options: ['A', 'B', 'C'] });
      const acknowledged = [0, 0, 0];
      const unanswered = [0, 0, 0];
      const acknowledgedTotal = () => acknowledged.reduce((a, b) => a + b);
      const killsAll = victim !== 'a worker';
      let killedAt: number | undefined;
      let sent = 0;
      // 40 voters at once. Once 300 votes are acknowledged, the victim is killed; a box that lost a worker
      // goes on until 300 more are (the replacement and the other worker serve), one that lost its log stops.
      await Promise.all(
        Array.from({ length: 40 }, async (_, voter) => {
          for (let i = 0; sent < 100_000; i++) {
            if (killedAt !== undefined && acknowledgedTotal() >= killedAt + 300) return;
            if (killedAt === undefined && acknowledgedTotal() >= 300) {
              killedAt = acknowledgedTotal();
              process.kill(killsAll ? running.pid! : workerPids(output())[0], 'SIGKILL');
            }
            const option = (voter + i) % 3;
            sent++;
            try {
              const res = await fetch(`${url}/api/poll/${poll.id}/vote`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ option }),
                signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
              });
              if (res.status === 202) acknowledged[option]++;
              await res.arrayBuffer();
            } catch {
              // No answer: the vote may or may not be on disk.
              unanswered[option]++;
              if (killsAll) return;
            }
          }
        }),
      );
      expect(killedAt).toBeDefined();
      if (killsAll && workers > 1) {
        // Without the process that owns the log nothing can be written: its workers leave too.
        const alive = (pid: number) => {
          try {
            return process.kill(pid, 0);
          } catch {
            return false;
          }
        };
        await expect.poll(() => workerPids(output()).filter(alive), { timeout: 10_000 }).toEqual([]);
      }
      if (!killsAll) {
        expect(acknowledgedTotal()).toBeGreaterThanOrEqual(killedAt! + 300);
        await expect.poll(output).toMatch(new RegExp(`worker ${workerPids(output())[0]} died \\(SIGKILL\\); replaced`));
        const exited = new Promise((resolve) => running.once('exit', resolve));
        running.kill('SIGTERM');
        expect(await exited).toBe(0);
      }

      // Restarted with another worker count: the same log, the same counts.
      const restarted = await runVps(dir, workers === 1 ? 2 : 1);
      const counted = (await api({ url: restarted.url }).results(poll.id)).json.counts as number[];
      console.log(
        `${victim} killed: ${acknowledged} acknowledged, ${unanswered} unanswered, ${counted} counted after a restart`,
      );
      counted.forEach((n, option) => {
        expect(n, `option ${option}`).toBeGreaterThanOrEqual(acknowledged[option]);
        expect(n, `option ${option}`).toBeLessThanOrEqual(acknowledged[option] + unanswered[option]);
      });
    },
  );

  it('SIGKILLed after a vote is on disk and before it is answered: its retry by key after the restart is that vote', {
    timeout: 60_000,
  }, async () => {
    const dir = dataDir();
    const crashing = await runProcess(['--import', 'tsx', 'test/vps/kill-after-vote-write.ts', dir]);
    const poll = await api(crashing).createPoll();
    const killed = new Promise((resolve) => child!.once('exit', (_code, signal) => resolve(signal)));
    await expect(api(crashing).vote(poll.id, 1, 'ballot-1')).rejects.toThrow();
    expect(await killed).toBe('SIGKILL');

    const { url } = await runVps(dir);
    const retry = await api({ url }).vote(poll.id, 1, 'ballot-1');
    expect(retry).toMatchObject({ status: 202, json: { voteId: voteIdFor(poll.id, 'ballot-1') } });
    expect((await api({ url }).results(poll.id)).json.counts).toEqual([0, 1, 0]);
  });

  it('starts on a log whose end was torn, and says how many lines it skipped', { timeout: 60_000 }, async () => {
    const dir = dataDir();
    const first = await start(dir);
    const poll = await api(first).createPoll();
    await api(first).vote(poll.id, 1);
    await first.stop();
    appendFileSync(join(dir, LOG_FILE), '4f2a91c0 {"k":"vote","p":"');
    const { url, output } = await runVps(dir);
    await expect.poll(output, { timeout: 15_000 }).toMatch(/1 poll\(s\), 1 vote\(s\)/);
    // The warning comes on stderr, a pipe of its own: it may arrive after stdout's lines.
    await expect
      .poll(output, { timeout: 15_000 })
      .toMatch(/1 line\(s\) of the log could not be read \(torn by a crash or corrupt\) and were skipped/);
    expect((await api({ url }).results(poll.id)).json.counts).toEqual([0, 1, 0]);
  });
});

describe('on every core (--workers 2): one box, one state', () => {
  /** Each request on a connection of its own, so that the primary hands them to the workers in turn. */
  const voteOnce = (url: string, id: string, option: number, key?: string) =>
    api({ url }).call(
      'POST',
      `/api/poll/${id}/vote`,
      { option },
      {
        connection: 'close',
        ...(key === undefined ? {} : { [IDEMPOTENCY.header]: key }),
      },
    );
  const runWorkers = (dir: string, rateLimits: 'on' | 'off', workers = 2) =>
    runProcess(
      ['--import', 'tsx', 'bin/vps.ts', '--port', '0', '--data-dir', dir, '--trust-proxy'].concat([
        '--workers',
        String(workers),
        '--rate-limits',
        rateLimits,
      ]),
    );

  it('counts one Idempotency-Key sent on many connections once, and refuses it with another option', {
    timeout: 60_000,
  }, async () => {
    const { url } = await runWorkers(dataDir(), 'off');
    const poll = await api({ url }).createPoll();
    const answers = await Promise.all(Array.from({ length: 20 }, () => voteOnce(url, poll.id, 1, 'ballot-1')));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    expect(new Set(answers.map((a) => a.json.voteId))).toEqual(new Set([voteIdFor(poll.id, 'ballot-1')]));
    expect((await voteOnce(url, poll.id, 2, 'ballot-1')).json).toMatchObject({
      error: { code: 'idempotency_key_reused' },
    });
    expect((await api({ url }).results(poll.id)).json.counts).toEqual([0, 1, 0]);
  });

  it('limits a client across workers as one process does, not once per worker', { timeout: 60_000 }, async () => {
    const { url } = await runWorkers(dataDir(), 'on');
    const poll = await api({ url }).createPoll();
    const { burst, perMinute } = RATE_LIMITS.castVote;
    // No X-Forwarded-For: every vote is the loopback client's.
    const started = Date.now();
    const statuses = await pool(2 * burst, 4, async () => (await voteOnce(url, poll.id, 0)).status);
    // The bucket refills perMinute a minute while the votes are sent: at most that many more get through.
    const refilled = Math.ceil(((Date.now() - started) / 60_000) * perMinute);
    const accepted = statuses.filter((status) => status === 202).length;
    expect(accepted).toBeGreaterThanOrEqual(burst);
    expect(accepted).toBeLessThanOrEqual(burst + refilled);
    expect(statuses.filter((status) => status === 429).length).toBe(2 * burst - accepted);
    expect((await api({ url }).results(poll.id)).json.counts[0]).toBe(accepted);
  });

  it('holds one vote per voter across workers, and a stop mid-load leaves no voter claimed without a vote', {
    timeout: 60_000,
  }, async () => {
    const dir = dataDir();
    const first = await runWorkers(dir, 'off');
    const running = child!;
    const poll = await api(first).createPoll({ oneVotePerVoter: true });
    /** A vote from voter `n`, as a proxy in front names it, on a connection of its own. */
    const voteAs = (url: string, n: number) =>
      fetch(`${url}/api/poll/${poll.id}/vote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${n}`, connection: 'close' },
        body: JSON.stringify({ option: n % 3 }),
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      }).then(
        (res) => res.status,
        () => 'no answer',
      );
    expect([await voteAs(first.url, 0), await voteAs(first.url, 0)]).toEqual([202, 409]);

    // 200 more voters, 20 at a time; once 50 are acknowledged the box is stopped (SIGTERM), requests under way.
    let acknowledged = 0;
    let exited: Promise<unknown[]> | undefined;
    const statuses = await pool(200, 20, async (i) => {
      if (acknowledged >= 50 && !exited) {
        exited = once(running, 'exit');
        running.kill('SIGTERM');
      }
      const status = await voteAs(first.url, i + 1);
      if (status === 202) acknowledged++;
      return status;
    });
    expect((await exited!)[0]).toBe(0);
    expect(statuses.filter((status) => status !== 202 && status !== 'no answer')).toEqual([]);

    // Each voter tries again: one whose vote was counted is refused, any other is counted now.
    const second = await runWorkers(dir, 'off', 1);
    const again = await pool(201, 20, (n) => voteAs(second.url, n));
    expect(again.filter((status) => status !== 202 && status !== 409)).toEqual([]);
    expect((await api(second).results(poll.id)).json.total).toBe(201);
  });
});

describe('the bundle a droplet or the container runs', () => {
  /** The Dockerfile's CMD and the systemd unit's ExecStart, as argument lists after `node`. */
  const dockerfile = readFileSync('vps/Dockerfile', 'utf8');
  const container = (JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[]).slice(1);
  const systemd = /^ExecStart=\/usr\/bin\/env node (.*)$/m
    .exec(readFileSync('vps/poll-vps.service', 'utf8'))![1]
    .split(' ');
  const option = (args: string[], name: string) => args[args.indexOf(name) + 1];
  /** A self-signed certificate for 127.0.0.1, where the unit has certbot's (its credentials). */
  const tls = { cert: resolve('test/fixtures/tls/cert.pem'), key: resolve('test/fixtures/tls/key.pem') };
  /** The same command on a free loopback port, with a data folder and a certificate of this test's. */
  const here = (args: string[]) =>
    args.map(
      (arg, i) =>
        ({
          '--host': '127.0.0.1',
          '--port': '0',
          '--data-dir': 'data',
          '--tls-cert': tls.cert,
          '--tls-key': tls.key,
        })[args[i - 1]] ?? arg,
    );
  /** GET over TLS, trusting the test certificate. */
  const getOverTls = (url: string) =>
    new Promise<unknown>((done, fail) =>
      httpsGet(url, { ca: readFileSync(tls.cert) }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => done(JSON.parse(body)));
      }).on('error', fail),
    );

  it('is what the Dockerfile ships and the compose service runs, on one port', () => {
    expect(dockerfile).toMatch(/RUN npm run build:vps -- --out \/out/);
    expect(dockerfile).toMatch(new RegExp(`COPY --from=build /out/${container[0]} `));
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${option(container, '--port')}$`, 'm'));
    expect(dockerfile).toMatch(/^USER node$/m);
    const compose = readFileSync('docker-compose.yml', 'utf8');
    const service = compose.slice(compose.indexOf('\n  vps:'));
    expect(service).toMatch(/dockerfile: vps\/Dockerfile/);
    expect(service).toMatch(
      new RegExp(`"127\\.0\\.0\\.1:${option(container, '--port')}:${option(container, '--port')}"`),
    );
    expect(service).toMatch(new RegExp(`vps-data:${option(container, '--data-dir')}`));
    expect(systemd[0]).toBe(container[0]);
  });

  it('runs with nothing but Node, from a folder outside the project, as the Dockerfile and the systemd unit start it', {
    timeout: 90_000,
  }, async () => {
    const droplet = dataDir();
    const build = spawnSync(process.execPath, ['--import', 'tsx', 'bin/build-vps.ts', '--out', droplet], {
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
    const first = await runProcess(here(container), droplet);
    const page = await fetch(first.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<script[^>]*>[^<]*"apiUrl"/);
    const client = api({ url: first.url });
    const poll = await client.createPoll({ options: ['A', 'B'] });
    await client.vote(poll.id, 1);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGTERM'); // what docker stop and systemctl stop send
    expect(await exited).toBe(0);
    expect(first.output()).toMatch(/Stopped\. 2 change\(s\) written/);
    expect(statSync(join(droplet, 'data', LOG_FILE)).size).toBeGreaterThan(0);

    // The systemd unit's options, on the same data, over its own TLS: the poll and its vote are back.
    const second = await runProcess(here(systemd), droplet);
    expect(second.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
    expect(systemd).not.toContain('--trust-proxy');
    expect(await getOverTls(`${second.url}/api/poll/${poll.id}/results`)).toMatchObject({ counts: [0, 1] });
  });
});
