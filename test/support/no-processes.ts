/**
 * The fast tier's guard (vitest.config.ts setupFiles): a test there computes, so starting a process or opening a
 * port fails it at once, naming the call. A test that needs either belongs to the slow tier (the config's
 * SPAWNS list), whatever its folder. esbuild's own service process is a library's, started once a worker:
 * allowed, so that the bundles' tests stay fast.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const GUARDED = Symbol.for('poll.fastTierGuard');

function refuse(what: string): never {
  throw new Error(`The fast tier starts no process and opens no port (${what}): list the test in SPAWNS.`);
}

if (!(globalThis as Record<symbol, unknown>)[GUARDED]) {
  (globalThis as Record<symbol, unknown>)[GUARDED] = true;
  const cp = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    const original = cp[name];
    cp[name] = (...args: unknown[]) => {
      if (/[\\/]esbuild(\.exe)?$/.test(String(args[0]))) return original(...args);
      return refuse(`child_process.${name} ${String(args[0])}`);
    };
  }
  net.Server.prototype.listen = () => refuse('listen');
  syncBuiltinESMExports();
}
