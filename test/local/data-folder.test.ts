/**
 * The runtime's data folder (--data-dir): held by one runtime at a time, as the VPS edition's is
 * (node/folder-lock.ts), and a queue file it cannot read refused by name, never a stack trace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QUEUES_FILE } from '../../local/emulators';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { api } from '../support/local';

const folders: string[] = [];
const runtimes: LocalRuntime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.stop().catch(() => undefined)));
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'poll-data-'));
  folders.push(dir);
  return dir;
}

const start = async (dir: string) => {
  const runtime = await startLocalRuntime({ dataDir: dir, rateLimits: false });
  runtimes.push(runtime);
  return runtime;
};

describe('the runtime’s data folder', () => {
  it('refuses a second runtime in one line while the first serves on, and is free once the first stops', {
    timeout: 60_000,
  }, async () => {
    const dir = dataDir();
    const first = await start(dir);
    await expect(start(dir)).rejects.toThrow(
      `${dir} is in use by npm start (pid ${process.pid}): stop it, or give this one another --data-dir.`,
    );
    expect((await api(first).createPoll({ options: ['A', 'B'] })).id).toMatch(/^[\w-]{21}$/);
    await first.stop();
    runtimes.splice(runtimes.indexOf(first), 1);
    const second = await start(dir);
    expect((await api(second).createPoll({ options: ['A', 'B'] })).id).toMatch(/^[\w-]{21}$/);
  });

  it('names a queue file it cannot read, and leaves the folder free', { timeout: 60_000 }, async () => {
    const dir = dataDir();
    writeFileSync(join(dir, QUEUES_FILE), '{not json');
    await expect(start(dir)).rejects.toThrow(`${join(dir, QUEUES_FILE)} (the votes queued when the runtime last`);
    rmSync(join(dir, QUEUES_FILE));
    await start(dir);
  });
});
