/**
 * What npm run deploy and npm run destroy share (node/cdk.ts): the stack's flags checked before cdk starts, from
 * -c and the context files as cdk merges them, with the synth's own checks; and the question destroy asks.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askYesNo, checkStackFlags, contextFiles, envForRegion } from '../../../node/cdk';
import { UsageError } from '../../../node/command-line';

describe('the context files', () => {
  it("merge as cdk merges them: cdk.json's context over cdk.context.json over ~/.cdk.json's", () => {
    const root = mkdtempSync(join(tmpdir(), 'project-'));
    const home = mkdtempSync(join(tmpdir(), 'home-'));
    writeFileSync(join(home, '.cdk.json'), JSON.stringify({ context: { results: 'api', apiKind: 'rest', x: 'home' } }));
    writeFileSync(join(root, 'cdk.context.json'), JSON.stringify({ results: 'function-url', x: 'project' }));
    writeFileSync(
      join(root, 'cdk.json'),
      JSON.stringify({ app: 'npx tsx bin/poll-app.ts', context: { x: 'cdk.json' } }),
    );
    expect(contextFiles(root, home)).toEqual({ results: 'function-url', apiKind: 'rest', x: 'cdk.json' });
  });

  it('are nothing where missing or no JSON (cdk says so itself)', () => {
    const root = mkdtempSync(join(tmpdir(), 'project-'));
    writeFileSync(join(root, 'cdk.context.json'), '{ not json');
    expect(contextFiles(root, mkdtempSync(join(tmpdir(), 'home-')))).toEqual({});
  });
});

describe('the stack flags, checked before cdk starts', () => {
  it('refuses a wrong value in the synth’s words, from -c or a context file, -c winning', async () => {
    await expect(checkStackFlags(['results=fnurl'], {})).rejects.toThrow(
      new UsageError(
        'results must be one of api, function-url, cloudfront (got "fnurl"); ' +
          'e.g. npx cdk synth -c results=function-url',
      ),
    );
    await expect(checkStackFlags([], { apiKind: 'soap' })).rejects.toThrow(/^apiKind must be "http" or "rest"/);
    await expect(checkStackFlags(['apiKind=rest'], { apiKind: 'soap' })).resolves.toBeUndefined();
    // What joins two flags is checked too: a budget needs its e-mail.
    await expect(checkStackFlags(['monthlyBudgetUsd=300'], {})).rejects.toThrow(/go together/);
  });

  it('refuses a -c that is not key=value, and takes the defaults and flags that go together', async () => {
    await expect(checkStackFlags(['results'], {})).rejects.toThrow('-c takes key=value (got "results")');
    await expect(checkStackFlags([], {})).resolves.toBeUndefined();
    await expect(
      checkStackFlags(['captcha=turnstile', 'captchaSiteKey=0x4AAA', 'captchaSecretParameter=/poll/a=b'], {}),
    ).resolves.toBeUndefined();
  });
});

describe('the question npm run destroy asks', () => {
  const asked = async (typed: string | null) => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk) => {
      shown += chunk;
    });
    const answer = askYesNo('Delete it? (y/n) ', input, output);
    if (typed === null) input.end();
    else input.write(typed);
    return { answer: await answer, shown };
  };

  it('is yes for y or yes, and no for anything else or an input that ends', async () => {
    for (const typed of ['y\n', 'YES\n', ' yes \n']) expect((await asked(typed)).answer, typed).toBe(true);
    for (const typed of ['n\n', '\n', 'yep\n']) expect((await asked(typed)).answer, typed).toBe(false);
    expect(await asked(null)).toEqual({ answer: false, shown: 'Delete it? (y/n) \n' });
  });
});

describe('the region cdk deploys to and destroys in', () => {
  const env = { AWS_REGION: 'us-west-2', HOME: '/home/someone' };

  it('is -c region, else the context files', () => {
    expect(envForRegion(['region=eu-central-1'], {}, env)).toMatchObject({
      AWS_REGION: 'eu-central-1',
      AWS_DEFAULT_REGION: 'eu-central-1',
      HOME: '/home/someone',
    });
    expect(envForRegion([], { region: 'eu-west-1' }, env)).toMatchObject({ AWS_REGION: 'eu-west-1' });
    expect(envForRegion(['region=eu-central-1'], { region: 'eu-west-1' }, env).AWS_REGION).toBe('eu-central-1');
  });

  it("leaves the environment's where none is named", () => {
    expect(envForRegion(['results=function-url'], {}, env)).toBe(env);
  });
});
