/** The VPS edition started as a person starts it, in a process of its own, for the tests that kill or restart it. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface StartedProcess {
  child: ChildProcess;
  /** Its URL once it listens (rejects if it exits first, or prints none in 30 s), and what it printed. */
  ready: Promise<{ url: string; output: () => string }>;
}

/** `command args`, its output read until it prints the URL it serves on. */
export function startProcess(command: string, args: string[], options: SpawnOptions = {}): StartedProcess {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise<{ url: string; output: () => string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the VPS edition did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /on (https?:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url: url.replace('0.0.0.0', '127.0.0.1'), output: () => output });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', () => reject(new Error(`the VPS edition exited:\n${output}`)));
  });
  return { child, ready };
}

/** `npm run vps` as node runs it, without npm: the arguments after `bin/vps.ts`. */
export const VPS_CLI = ['--import', 'tsx', 'bin/vps.ts'];
