/**
 * npm run deploy's and npm run destroy's check for AWS credentials (node/aws-credentials.ts): found where the
 * SDK's default chain finds them, from files and the environment only; without any, one line saying what to
 * run, exit 1, and no synth (bin/deploy.ts runs cdk only after the check). And the region npm run destroy
 * names, found where the CDK CLI finds it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CredentialPlaces,
  credentialSource,
  noCredentialsMessage,
  regionInWords,
  requireCredentials,
} from '../../../node/aws-credentials';
import { CommandFailure } from '../../../node/command-line';

/** A machine with these environment variables and files (path → text), and nothing else. */
const machine = (env: Record<string, string> = {}, files: Record<string, string> = {}): CredentialPlaces => ({
  env,
  home: '/home/me',
  read: (file) => files[file],
});

describe('AWS credentials, found without a request', () => {
  it('finds keys in the environment, a container endpoint, a web identity', () => {
    expect(credentialSource(machine({ AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 's' }))).toMatch(
      /AWS_ACCESS_KEY_ID/,
    );
    expect(credentialSource(machine({ AWS_ACCESS_KEY_ID: 'AKIA' }))).toBeUndefined();
    expect(credentialSource(machine({ AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '/v2/creds' }))).toMatch(/container/);
    expect(credentialSource(machine({ AWS_WEB_IDENTITY_TOKEN_FILE: '/t', AWS_ROLE_ARN: 'arn' }))).toMatch(
      /WEB_IDENTITY/,
    );
  });

  it('finds the profile AWS_PROFILE names (else default) in ~/.aws/credentials or ~/.aws/config', () => {
    const credentials = '/home/me/.aws/credentials';
    const config = '/home/me/.aws/config';
    expect(credentialSource(machine({}, { [credentials]: '[default]\naws_access_key_id = AKIA\n' }))).toBe(
      `profile default in ${credentials}`,
    );
    const sso = '[profile work]\nsso_session = corp\nregion = us-east-1\n[sso-session corp]\nsso_start_url = x\n';
    expect(credentialSource(machine({ AWS_PROFILE: 'work' }, { [config]: sso }))).toBe(`profile work in ${config}`);
    // A profile with only a region gives no credentials; another profile's keys are not this one's.
    expect(credentialSource(machine({}, { [config]: '[default]\nregion = us-east-1\n' }))).toBeUndefined();
    expect(
      credentialSource(machine({ AWS_PROFILE: 'other' }, { [credentials]: '[default]\naws_access_key_id = A\n' })),
    ).toBeUndefined();
    // The files the environment names instead.
    const file = '/elsewhere/creds';
    expect(
      credentialSource(machine({ AWS_SHARED_CREDENTIALS_FILE: file }, { [file]: '[default]\naws_access_key_id=A' })),
    ).toBe(`profile default in ${file}`);
  });

  it('finds nothing on a bare machine, and says what to run', () => {
    expect(credentialSource(machine())).toBeUndefined();
    expect(noCredentialsMessage(machine())).toMatch(/^No AWS credentials found .*: run aws configure .* aws sso login/);
    expect(noCredentialsMessage(machine({ AWS_PROFILE: 'work' }))).toContain('aws sso login --profile work');
    expect(credentialSource(machine({}, { '/sys/devices/virtual/dmi/id/board_vendor': 'Amazon EC2\n' }))).toMatch(
      /EC2/,
    );
  });
});

describe('the region cdk would use, found without a request (npm run destroy names it)', () => {
  const config = '/home/me/.aws/config';
  const credentials = '/home/me/.aws/credentials';

  it('is the environment’s first, in the CDK CLI’s order', () => {
    expect(regionInWords(machine({ AWS_DEFAULT_REGION: 'eu-west-2', AWS_REGION: 'eu-west-1' }))).toBe(
      'eu-west-1 (AWS_REGION)',
    );
    expect(
      regionInWords(machine({ AWS_DEFAULT_REGION: 'eu-west-2' }, { [config]: '[default]\nregion=us-west-2' })),
    ).toBe('eu-west-2 (AWS_DEFAULT_REGION)');
  });

  it("is the profile's, in the credentials file before the config file, else the default profile's", () => {
    const both = { [credentials]: '[work]\nregion = ap-south-1\n', [config]: '[profile work]\nregion = eu-north-1\n' };
    expect(regionInWords(machine({ AWS_PROFILE: 'work' }, both))).toBe(`ap-south-1 (profile work in ${credentials})`);
    expect(regionInWords(machine({ AWS_PROFILE: 'work' }, { [config]: both[config] }))).toBe(
      `eu-north-1 (profile work in ${config})`,
    );
    expect(regionInWords(machine({ AWS_PROFILE: 'work' }, { [config]: '[default]\nregion = sa-east-1\n' }))).toBe(
      `sa-east-1 (profile default in ${config})`,
    );
  });

  it("is cdk's us-east-1 where none is configured, and an EC2 instance's own", () => {
    expect(regionInWords(machine())).toBe("us-east-1 (cdk's default: no region is configured)");
    expect(regionInWords(machine({}, { '/sys/devices/virtual/dmi/id/board_vendor': 'Amazon EC2\n' }))).toBe(
      "this EC2 instance's region",
    );
  });
});

describe('requireCredentials', () => {
  it('says where they are, or fails with the one line that says what to run', () => {
    expect(requireCredentials(machine({ AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 's' }))).toMatch(
      /AWS_ACCESS_KEY_ID/,
    );
    expect(() => requireCredentials(machine())).toThrow(CommandFailure);
    expect(() => requireCredentials(machine())).toThrow(noCredentialsMessage(machine()));
  });
});

/** An EC2 instance has its role to deploy with: there the command would go on to deploy. */
const onEc2 =
  credentialSource({ env: {}, home: tmpdir(), read: (f) => (existsSync(f) ? readFileSync(f, 'utf8') : undefined) }) !==
  undefined;

describe.skipIf(onEc2)('npm run deploy without credentials', () => {
  it('says so in one line naming what to run, exits 1, and starts no synth', () => {
    const home = mkdtempSync(join(tmpdir(), 'home-'));
    mkdirSync(join(home, '.aws'));
    writeFileSync(join(home, '.aws', 'config'), '[default]\nregion = us-east-1\n');
    const env = { PATH: process.env.PATH ?? '', HOME: home };
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'bin/deploy.ts', '-c', 'results=function-url'], {
      encoding: 'utf8',
      env,
    });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^No AWS credentials found .*aws configure .*aws sso login.*docs\/deploy\.md\.$/),
    ]);
    // cdk prints its synth's progress to stdout: nothing was run.
    expect(result.stdout).toBe('');
  });
});
