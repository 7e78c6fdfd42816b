/**
 * The designs `npm run bench:writers` compares, as it runs them (bundled): every vote each acknowledges is in its
 * log once and intact, so the bench weighs designs that keep votes, not ones that drop or repeat them.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, stop } from '../../vps/bench-processes';
import { bundleWriterDesigns } from '../../vps/bench-writers';
import { readLog } from '../../vps/journal';
import { isStateRecord } from '../../vps/poll-state';
import { DESIGNS, type Design } from '../../vps/writer-designs';

const home = mkdtempSync(join(tmpdir(), 'writer-designs-'));
let script = '';
beforeAll(async () => {
  script = await bundleWriterDesigns(home);
}, 60_000);

/** Every intact record and every torn or corrupt line in the logs under a folder. */
function logged(folder: string) {
  const logs = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.log'));
  const read = logs.map((name) => readLog(join(folder, name), isStateRecord));
  return { records: read.flatMap((log) => log.records), skipped: read.reduce((sum, log) => sum + log.skipped, 0) };
}

describe.each(Object.keys(DESIGNS) as Design[])('the %s design', (design) => {
  const started: Array<Awaited<ReturnType<typeof startServer>>> = [];
  afterAll(() => Promise.all(started.map(({ child }) => stop(child))));

  it('has every vote it acknowledged in its log, once and intact, whichever server or thread took it', async () => {
    const folder = mkdtempSync(join(home, `${design}-`));
    const server = await startServer(process.execPath, [script, design, folder]);
    started.push(server);
    // Each on a connection of its own: the kernel spreads them over the design's servers.
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${server.url}/vote`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', connection: 'close' },
          body: JSON.stringify({ option: i % 3 }),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 202));
    // A body that names no option is refused and writes nothing; the server goes on.
    for (const body of ['nope', 'null', '{"option":"1"}', '{"option":1.5}']) {
      const refused = await fetch(`${server.url}/vote`, { method: 'POST', body });
      expect([refused.status, await refused.json()]).toEqual([400, { error: expect.any(String) }]);
    }
    // Read while the server still runs: what a 202 promised is written already, not at the stop.
    const { records, skipped } = logged(folder);
    expect(skipped).toBe(0);
    expect(
      records
        .filter((r) => r.k === 'vote')
        .map((r) => (r.k === 'vote' ? r.o : -1))
        .sort(),
    ).toEqual(Array.from({ length: 40 }, (_, i) => i % 3).sort());
  }, 60_000);
});
