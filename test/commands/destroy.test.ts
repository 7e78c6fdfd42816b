/**
 * npm run destroy (bin/destroy.ts): it says what it would delete and asks, refuses in one line where it cannot
 * ask or has no credentials, and leaves cdk.out/ (the design npm run deploy made, which npm run cost prices) as it
 * was: cdk's synth before it deletes goes to a folder of its own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { credentialSource } from '../../node/aws-credentials';

/** A machine with no credentials but these: a home of its own, nothing of this one's AWS set-up. */
function destroy(args: string[], aws: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'home-'));
  const temporary = mkdtempSync(join(tmpdir(), 'tmp-'));
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bin/destroy.ts', ...args], {
    encoding: 'utf8',
    // No terminal: stdin is a pipe. The SDK's Node 22 notice is not turned off here, as in a person's shell.
    env: { PATH: process.env.PATH ?? '', HOME: home, TMPDIR: temporary, AWS_EC2_METADATA_DISABLED: 'true', ...aws },
    timeout: 170_000,
  });
  return { ...result, temporary };
}

/** Dummy keys, and an endpoint where nothing answers: no request of cdk's reaches AWS. */
const DUMMY = {
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'example',
  AWS_REGION: 'us-east-1',
  AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
};

/** Every file under cdk.out/ with its size and time of change; null where there is no cdk.out/. */
function cdkOut(folder = 'cdk.out'): Record<string, string> | null {
  if (!existsSync(folder)) return null;
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      const { size, mtimeMs } = statSync(path);
      files[path] = `${size} ${mtimeMs}`;
    }
  return files;
}

const onEc2 = credentialSource({ env: {}, home: tmpdir(), read: () => undefined }) !== undefined;

describe('npm run destroy', () => {
  it.skipIf(onEc2)('without credentials: says what to run in one line, exits 1, synthesizes nothing', () => {
    const result = destroy(['--force']);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^No AWS credentials found .*aws configure .*aws sso login.*docs\/deploy\.md\.$/),
    ]);
    expect(result.stdout).toBe('');
  });

  it('with no terminal to ask on and no --force: refuses in one line naming the stack and region, exit 2', () => {
    const result = destroy([], DUMMY);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'Not deleting stack ServerlessPoll in us-east-1 (AWS_REGION), with the credentials of AWS_ACCESS_KEY_ID and ' +
        'AWS_SECRET_ACCESS_KEY: there is no terminal to ask on; add --force to delete it unasked. ' +
        'Run npm run destroy -- --help for the usage.',
    ]);
  });

  it("leaves cdk.out/ as it was: cdk's synth goes to a temporary folder, removed after", () => {
    const before = cdkOut();
    const result = destroy(['--force'], DUMMY);
    // cdk got as far as asking AWS who the credentials are: nothing answers there.
    expect(result.status, result.stderr).not.toBe(0);
    expect(result.stdout).toMatch(/^Deleting stack ServerlessPoll in us-east-1 \(AWS_REGION\)/);
    expect(`${result.stdout}${result.stderr}`).toMatch(/ServerlessPoll: destroy failed/);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/NodeVersionSupportWarning/);
    expect(cdkOut()).toEqual(before);
    // Nothing left in the temporary folder but tsx's cache.
    expect(readdirSync(result.temporary).filter((name) => !name.startsWith('tsx-'))).toEqual([]);
  });
});
