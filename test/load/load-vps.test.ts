/**
 * The load tests against the VPS edition (npm run load -- <scenario> --target vps), in a file of
 * its own so it runs beside the local target's: the same scenario, the same conservation check.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkApi, LoadTestError, runLoadTest } from '../../load-tests/run';
import { startEdition } from '../support/editions';

const resultsRoot = mkdtempSync(join(tmpdir(), 'load-results-'));

describe('npm run load --target vps', () => {
  it('runs the same scenario against the VPS edition it starts itself, with the same conservation check', async () => {
    const result = await runLoadTest({ scenario: 'smoke', target: 'vps', resultsRoot, output: 'quiet' });
    expect(result.summary).toMatchObject({ target: 'vps', artilleryExitCode: 0, vusersFailed: 0 });
    expect(result.summary.votes.accepted).toBeGreaterThan(0);
    expect(result.conservation).toMatchObject({ ok: true, lost: 0, extra: 0 });
  });
});

describe('npm run load --url <a VPS edition>', () => {
  it('knows the VPS edition by its header, and refuses to run another target’s checks on it', async () => {
    const vps = await startEdition('vps');
    try {
      await expect(checkApi(vps.url)).resolves.toBe('vps');
      const run = runLoadTest({ scenario: 'smoke', target: 'local', url: vps.url, resultsRoot, output: 'quiet' });
      await expect(run).rejects.toThrow(LoadTestError);
      await expect(run).rejects.toThrow(
        'is the VPS edition (npm run vps), not the local runtime (npm start): ' +
          'use --target vps, with npm run vps -- --rate-limits off',
      );
    } finally {
      await vps.stop();
    }
  });
});
