/**
 * One server a data folder: a second would rewrite the log at its start while the first goes on
 * appending to the file it replaced, and what the first acknowledged would be lost. The lock file
 * names its holder by what a pid alone does not: the boot (Linux's boot id) and the process's start
 * time (/proc/<pid>/stat). So a lock is taken over when its holder is gone however it went (kill -9,
 * an OOM kill, a power cut), when it is a zombie its parent has not reaped yet, and when its pid is
 * now another process's: a container's PID 1 restarted finds its own pid in the lock. Without /proc
 * (macOS) the pid alone says, checked with kill(pid, 0).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Who holds the data folder. */
export const LOCK_FILE = 'polls.lock';

/**
 * A lock's holder: its pid, and on Linux its start (clock ticks after boot) and the boot it started in;
 * what it is, as a refused server names it (`npm run vps`).
 */
export interface Holder {
  pid: number;
  start?: number;
  boot?: string;
  what?: string;
}

const readOr = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** This machine's boot, where Linux says it. */
const bootId = (): string | undefined => readOr('/proc/sys/kernel/random/boot_id')?.trim();

/** A process as /proc says it (undefined: no such process), or 'unknown' where there is no /proc. */
function processOf(pid: number): { state: string; start: number } | undefined | 'unknown' {
  const stat = readOr(`/proc/${pid}/stat`);
  if (stat === undefined) return readOr('/proc/self/stat') === undefined ? 'unknown' : undefined;
  // After the command name (which may hold spaces and parentheses): state, ppid, ... starttime (the 20th).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], start: Number(fields[19]) };
}

/** This process, as its lock names it. */
export function thisProcess(): Holder {
  const self = processOf(process.pid);
  return typeof self === 'object' ? { pid: process.pid, start: self.start, boot: bootId() } : { pid: process.pid };
}

/** Whether the process a lock names still runs: the same boot, the same start, not a zombie. */
export function holds(holder: Holder): boolean {
  if (holder.boot !== undefined && holder.boot !== bootId()) return false;
  const found = processOf(holder.pid);
  if (found === 'unknown') {
    try {
      return process.kill(holder.pid, 0);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  if (found === undefined || found.state === 'Z' || found.state === 'X') return false;
  return holder.start === undefined || holder.start === found.start;
}

/** A lock file's holder: JSON, or a bare pid (the format before start times). */
function parseHolder(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder> | number;
    const holder = typeof value === 'number' ? { pid: value } : value;
    return Number.isInteger(holder.pid) && holder.pid! > 0 ? (holder as Holder) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the folder for this process (`what` it is, e.g. 'npm run vps', which a refused server is told), or
 * throws the one line that says who has it. Returns the release: once, and only of a lock still this one's.
 */
export function lockFolder(dataDir: string, what: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  const mine = JSON.stringify({ ...thisProcess(), what });
  for (let tries = 0; tries < 3; tries++) {
    try {
      writeFileSync(path, mine, { flag: 'wx' });
      let held = true;
      return () => {
        if (held && readOr(path) === mine) rmSync(path, { force: true });
        held = false;
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const found = parseHolder(readOr(path) ?? '');
    if (found && holds(found))
      throw new Error(
        `${dataDir} is in use by ${found.what ?? 'another server'} (pid ${found.pid}): ` +
          'stop it, or give this one another --data-dir.',
      );
    rmSync(path, { force: true });
  }
  throw new Error(`Could not take ${path}: another server keeps taking it.`);
}
