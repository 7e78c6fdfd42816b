/**
 * The fast tier computes: its guard (test/support/no-processes.ts) fails any test of it that starts a process or
 * opens a port, so one that does is filed in the slow tier (vitest.config.ts SPAWNS), whatever its folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';

describe('the fast tier', () => {
  it('cannot start a process', () => {
    expect(() => spawnSync(process.execPath, ['--version'])).toThrow(/starts no process/);
    expect(() => execFileSync('git', ['--version'])).toThrow(/starts no process/);
  });

  it('cannot open a port', () => {
    expect(() => createServer().listen(0)).toThrow(/opens no port/);
  });
});
