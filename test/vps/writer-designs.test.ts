/**
 * The designs `npm run bench:writers` compares, as it runs them (bundled): every vote each acknowledges is in its
 * log once and intact, so the bench weighs designs that keep votes, not ones that drop or repeat them; and no body
 * stops one.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL_LIMITS } from '../../config/api-contract';
import { startServer, stop } from '../../vps/bench-processes';
import { bundleWriterDesigns } from '../../vps/bench-writers';
import { readLog } from '../../vps/journal';
import { isStateRecord } from '../../vps/poll-state';
import { DESIGNS, type Design } from '../../vps/writer-designs';

const home = mkdtempSync(join(tmpdir(), 'writer-designs-'));
let script = '';
const started: Array<Awaited<ReturnType<typeof startServer>>> = [];
beforeAll(async () => {
  script = await bundleWriterDesigns(home);
}, 60_000);
afterAll(async () => {
  await Promise.all(started.map(({ child }) => stop(child)));
  rmSync(home, { recursive: true, force: true });
});

async function serve(design: Design, ...options: string[]) {
  const folder = mkdtempSync(join(home, `${design}-`));
  const server = await startServer(process.execPath, [script, design, folder, ...options]);
  started.push(server);
  return { folder, vote: (body: string) => fetch(`${server.url}/vote`, { method: 'POST', body }) };
}

/** The options of every vote in the logs under a folder, sorted; and how many lines were torn or corrupt. */
function logged(folder: string) {
  const logs = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.log'));
  const read = logs.map((name) => readLog(join(folder, name), isStateRecord));
  const options = read.flatMap((log) => log.records.flatMap((r) => (r.k === 'vote' ? [r.o] : [])));
  return { options: options.sort(), skipped: read.reduce((sum, log) => sum + log.skipped, 0) };
}

const options = (n: number) => Array.from({ length: n }, (_, i) => i % 3);

describe.each(Object.keys(DESIGNS) as Design[])('the %s design', (design) => {
  it('has every vote it acknowledged in its log, once and intact, whichever server took it', async () => {
    const { folder, vote } = await serve(design);
    // Each on a connection of its own: node:cluster hands them to its workers in turn, the kernel to the threads.
    const answers = await Promise.all(options(40).map((o) => vote(JSON.stringify({ option: o }))));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 202));
    if (design === 'writer' || design === 'own-logs')
      expect(new Set(answers.map((answer) => answer.headers.get('x-served-by'))).size).toBe(2);
    // A body that names no option, or is too large, is refused and writes nothing; the server goes on.
    for (const body of [
      'nope',
      'null',
      '{"option":"1"}',
      '{"option":1.5}',
      `{"option":1,"x":"${'x'.repeat(POLL_LIMITS.maxBodyBytes)}"}`,
    ]) {
      const refused = await vote(body);
      expect([refused.status, await refused.json()]).toEqual([
        body.length > POLL_LIMITS.maxBodyBytes ? 413 : 400,
        { error: expect.any(String) },
      ]);
    }
    // Read while the server still runs: what a 202 promised is written already, not at the stop.
    expect(logged(folder)).toEqual({ options: options(40).sort(), skipped: 0 });
  }, 60_000);
});

describe('the threads design with a small ring', () => {
  it('wraps its ring, and writes exactly what it acknowledged, refusing (503) only what found no room', async () => {
    // 256 bytes: two votes' lines. One at a time, 10 votes go round the ring four times.
    const { folder, vote } = await serve('threads', '--ring-bytes', '256');
    for (const o of options(10)) expect((await vote(JSON.stringify({ option: o }))).status).toBe(202);
    const burst = await Promise.all(
      options(30).map(async (o) => [o, (await vote(JSON.stringify({ option: o }))).status]),
    );
    expect(new Set(burst.map(([, status]) => status))).toEqual(new Set([202, 503]));
    const acknowledged = [...options(10), ...burst.flatMap(([o, status]) => (status === 202 ? [o] : []))];
    expect(logged(folder)).toEqual({ options: acknowledged.sort(), skipped: 0 });
  }, 60_000);
});
