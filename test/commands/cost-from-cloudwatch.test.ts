/**
 * npm run cost -- --from-cloudwatch against an endpoint where nothing answers: one line and exit 1,
 * well within a minute, never a stack trace, whether nothing listens on the port (the command itself)
 * or something accepts and never answers (the SDK clients it makes, their attempts and timeouts).
 * And its usage mistakes: one line, exit 2.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { measureStack } from '../../cost/estimate/cloudwatch';
import { cloudWatchClients } from '../../node/cloudwatch-sdk';
import { CLIENT_LIMITS, cloudWatchFailure, parseWindow } from '../../cost/cloudwatch-command';

let server: Server | undefined;
afterEach(() => server?.close());

/** A port on loopback: kept open by a server that accepts and never answers, or closed again. */
async function port(silent: boolean): Promise<number> {
  const s = createServer(() => {});
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  const { port } = s.address() as { port: number };
  if (silent) server = s;
  else await new Promise((done) => s.close(done));
  return port;
}

/** npm run cost with these arguments and environment: its exit code and what it printed. */
async function cost(args: string[], env: Record<string, string> = {}) {
  const out = mkdtempSync(join(tmpdir(), 'cost-cw-'));
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'bin/cost.ts', ...args, '--out', out],
      { timeout: 60_000, env: { ...process.env, ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe('npm run cost -- --from-cloudwatch', () => {
  it('nothing listening at the endpoint: one line saying which and what to do, exit 1', async () => {
    const endpoint = `http://127.0.0.1:${await port(false)}`;
    const answer = await cost(['--from-cloudwatch', '--target', 'localstack'], { LOCALSTACK_ENDPOINT: endpoint });
    expect(answer.code).toBe(1);
    expect(answer.stderr.trim().split('\n')).toEqual([
      `Nothing answers at ${endpoint} (ECONNREFUSED): start LocalStack (npm run localstack:up) ` +
        'or set LOCALSTACK_ENDPOINT to where it runs.',
    ]);
  });

  // Their time limits are the clients' own (wall clock, as any network client's): the test checks they are set
  // well within its own 60 s, and a client that never gave up would fail it by timing out.
  it('a port that accepts and never answers: the clients give up well within 60 s', async () => {
    const endpoint = `http://127.0.0.1:${await port(true)}`;
    const error = await measureStack(
      cloudWatchClients('localstack', endpoint),
      'ServerlessPoll',
      parseWindow({}),
    ).catch((e) => e);
    const failure = cloudWatchFailure(error, { target: 'localstack', stackName: 'ServerlessPoll', endpoint });
    expect(String(failure)).toMatch(/^CommandFailure: Nothing answers at .*: start LocalStack/);
    const limit = CLIENT_LIMITS.maxAttempts * (CLIENT_LIMITS.requestTimeout + CLIENT_LIMITS.connectionTimeout);
    expect(limit).toBeLessThan(45_000);
  });

  it('usage mistakes: one line, exit 2', async () => {
    for (const args of [
      ['--from-cloudwatch', '--since', '2026-11-25T09:00Z', '--hours', '2'],
      ['--from-cloudwatch', '--target', 'gcp'],
      ['--from-cloudwatch', '--profile', 'club'],
      ['--hours', '2'],
    ]) {
      const answer = await cost(args);
      expect(answer.code, args.join(' ')).toBe(2);
      expect(answer.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});
