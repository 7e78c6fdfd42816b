/**
 * A data folder's lock: a live server's is respected (one line saying whose), and a dead one's is
 * taken over however it died: a zombie not reaped yet, a pid now another process's, another boot,
 * and a container's PID 1 restarted, which finds its own pid in the lock.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockFolder, thisProcess } from '../../node/folder-lock';
import { api } from '../support/local';
import { startProcess, VPS_CLI } from '../support/vps-process';

const folders: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  // A detached child leads a process group of its own (unshare and the server it forked): all of it goes.
  for (const child of children.splice(0)) {
    try {
      process.kill(child.spawnargs[0] === 'unshare' ? -child.pid! : child.pid!, 'SIGKILL');
    } catch {
      // Gone already (the test killed it).
    }
  }
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vps-lock-'));
  folders.push(dir);
  return dir;
}
const writeLock = (dir: string, holder: object) => writeFileSync(join(dir, LOCK_FILE), JSON.stringify(holder));
const EDITION = 'npm run vps';
const inUse = (dir: string, pid: number, by = EDITION) => `${dir} is in use by ${by} (pid ${pid})`;
const hasProc = thisProcess().start !== undefined;

/** The edition on a free port with one process, its data in `dir`: `npm run vps` without npm. */
const vpsArgs = (dir: string) => [...VPS_CLI, '--port', '0', '--data-dir', dir, '--workers', '1'];

/** Starts `command args` and remembers it for the clean-up; resolves once it listens. */
function run(command: string, args: string[], options: { detached?: boolean } = {}) {
  const started = startProcess(command, args, options);
  children.push(started.child);
  return started.ready;
}

describe('the data folder’s lock', () => {
  it('refuses a second holder while the first lives, in one line, and is free once it is released', () => {
    const dir = dataDir();
    const release = lockFolder(dir, EDITION);
    expect(() => lockFolder(dir, EDITION)).toThrow(inUse(dir, process.pid));
    // The holder is named as it named itself, whatever is refused: the other edition on the same folder.
    expect(() => lockFolder(dir, 'npm start')).toThrow(inUse(dir, process.pid));
    release();
    lockFolder(dir, EDITION)();
  });

  it('releases once, and only a lock that is still its own', () => {
    const dir = dataDir();
    const release = lockFolder(dir, EDITION);
    release();
    const next = lockFolder(dir, 'npm start');
    release(); // a second release (a stop called twice) leaves the next holder's lock alone
    expect(() => lockFolder(dir, EDITION)).toThrow(inUse(dir, process.pid, 'npm start'));
    next();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it.skipIf(!hasProc)('takes over a lock whose pid is another process now, or that was taken in another boot', () => {
    const dir = dataDir();
    const self = thisProcess();
    // This process's pid, with a start time that is not this process's: the pid was reused.
    writeLock(dir, { ...self, start: self.start! + 1 });
    lockFolder(dir, EDITION)();
    writeLock(dir, { ...self, boot: 'another-boot' });
    lockFolder(dir, EDITION)();
    // A lock in the format before start times (a bare pid) is still read, and respected while that pid lives.
    writeFileSync(join(dir, LOCK_FILE), String(process.pid));
    expect(() => lockFolder(dir, EDITION)).toThrow(inUse(dir, process.pid, 'another server'));
  });

  it.skipIf(!hasProc)(
    'starts at once on a folder whose server was killed and is a zombie not reaped yet',
    {
      timeout: 60_000,
    },
    async () => {
      const dir = dataDir();
      // The server is a child of `sleep`, which never reaps it: killed, it stays a zombie holding its pid.
      const script = `"${process.execPath}" ${vpsArgs(dir).join(' ')} & exec sleep 60`;
      const first = await run('sh', ['-c', script]);
      const poll = await api(first).createPoll();
      expect((await api(first).vote(poll.id, 2)).status).toBe(202);
      const pid = Number(/one process, pid (\d+)/.exec(first.output())![1]);
      process.kill(pid, 'SIGKILL');
      const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0];
      await expect.poll(state).toBe('Z');

      const second = await run(process.execPath, vpsArgs(dir));
      expect((await api(second).results(poll.id)).json.counts).toEqual([0, 0, 1]);
    },
  );

  const unshare = ['--pid', '--fork', '--mount-proc'];
  const canUnshare = spawnSync('unshare', [...unshare, 'true']).status === 0;
  if (!canUnshare)
    console.log('Skipping the PID 1 restart: `unshare --pid --fork --mount-proc` is not available here.');

  it.skipIf(!canUnshare)(
    'restarts as PID 1 (a container) right after its process group was killed',
    {
      timeout: 60_000,
    },
    async () => {
      const dir = dataDir();
      const asPid1 = () => run('unshare', [...unshare, process.execPath, ...vpsArgs(dir)], { detached: true });
      const first = await asPid1();
      expect(first.output()).toMatch(/one process, pid 1\b/);
      const poll = await api(first).createPoll();
      expect((await api(first).vote(poll.id, 1)).status).toBe(202);
      // As an OOM kill or a power cut leaves it: the whole group gone at once, the lock naming pid 1.
      process.kill(-children.at(-1)!.pid!, 'SIGKILL');
      expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: 1 });

      const second = await asPid1();
      expect(second.output()).toMatch(/one process, pid 1\b/);
      expect((await api(second).results(poll.id)).json.counts).toEqual([0, 1, 0]);
    },
  );
});
