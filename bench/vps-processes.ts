/**
 * The processes npm run bench:vps starts and reads: a server started until it prints its URL, stopped
 * with Ctrl-C; the CPU time of a process tree and of the machine from /proc; a tree pinned to cores; a free
 * port; a JSON request that takes the bench's self-signed certificate.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Starts a server process and resolves with the URL it prints. */
export function startServer(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /on (https?:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
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

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.removeAllListeners('exit');
    child.once('exit', () => done());
    child.kill('SIGINT');
  });
}

/** Every process's parent and CPU ticks (utime + stime), from /proc (Linux). */
function processStats(): Array<{ pid: number; ppid: number; ticks: number }> {
  return readdirSync('/proc')
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
}

/** `roots` and all their descendants (or `roots` alone). */
function treeOf(stats: ReturnType<typeof processStats>, roots: number[], alone = false): Set<number> {
  const tree = new Set(roots);
  for (let grew = !alone; grew; ) {
    grew = false;
    for (const s of stats)
      if (tree.has(s.ppid) && !tree.has(s.pid)) {
        tree.add(s.pid);
        grew = true;
      }
  }
  return tree;
}

/** The server's own CPU time: its processes and all their descendants, from /proc (Linux). */
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
export function cpuSeconds(roots: number[], alone = false): number {
  const stats = processStats();
  const tree = treeOf(stats, roots, alone);
  return stats.filter((s) => tree.has(s.pid)).reduce((sum, s) => sum + s.ticks, 0) / TICKS_PER_SECOND;
}

/**
 * CPU seconds the machine's cores have spent busy since boot, from /proc/stat: user, nice, system, irq and
 * softirq (not idle, iowait nor steal, the hypervisor's; guest time is counted in user already).
 */
export function machineCpuSeconds(): number {
  const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
    .slice(4, 200)
    .trim()
    .split(/\s+/)
    .map(Number);
  return (user + nice + system + irq + softirq) / TICKS_PER_SECOND;
}

/**
 * Pins every thread of `roots` and their descendants (or of `roots` alone) to `cores` (taskset); false where
 * that failed (no taskset, or a core outside this process's own set).
 */
export function pin(roots: number[], cores: number[], alone = false): boolean {
  const list = cores.join(',');
  return [...treeOf(processStats(), roots, alone)].every(
    (pid) => spawnSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' }).status === 0,
  );
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

/** A JSON request (a POST with `body`), over the bench's self-signed certificate where it is https. */
export function call(url: string, body?: unknown): Promise<unknown> {
  const sent = body === undefined ? undefined : JSON.stringify(body);
  const options = {
    method: sent ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' },
    rejectUnauthorized: false,
  };
  return new Promise((resolveCall, reject) => {
    const req = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, options, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolveCall(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end(sent);
  });
}
