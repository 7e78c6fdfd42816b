/**
 * Every command a person runs (each `tsx` script in package.json) answers --help with its
 * usage and exit 0, and a usage mistake with one line and exit 2, never a stack trace; and every
 * long option README.md and docs/ show with a command is one its --help lists.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { shownCommands } from '../support/docs';
import { pool } from '../support/local';
import { callerPath } from '../../node/folders';

const scripts = Object.entries(
  JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>,
).filter(([, command]) => command.startsWith('tsx '));

type Answer = { code: number; stdout: string; stderr: string };

async function run(command: string, extra: string[]): Promise<Answer> {
  const [, file, ...args] = command.split(' ');
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', file, ...args, ...extra],
      { timeout: 60_000, env: { ...process.env, PORT: '0' } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe('every command', () => {
  it('is more than a handful (the list comes from package.json)', () => {
    expect(scripts.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'start',
        'deploy',
        'destroy',
        'cost',
        'load',
        'dlq',
        'bench:votes',
        'localstack:up',
        'localstack:deploy',
        'localstack:destroy',
      ]),
    );
  });

  // Each command once, for both tests below.
  let answers: Promise<{ name: string; help: Answer; mistake: Answer }[]> | undefined;
  const answered = () => {
    answers ??= pool(scripts.length, 3, async (i) => {
      const [name, command] = scripts[i];
      return { name, help: await run(command, ['--help']), mistake: await run(command, ['--no-such-option']) };
    });
    return answers;
  };

  it('answers --help with its usage, and a mistake with one line and exit code 2', { timeout: 180_000 }, async () => {
    const results = await answered();
    for (const { name, help, mistake } of results) {
      expect(help.code, `${name} --help: ${help.stderr}`).toBe(0);
      expect(help.stdout, name).toMatch(new RegExp(`^Usage: npm (start|run ${name.replace(':', ':')}) --`));
      expect(help.stdout, name).toContain('-h, --help');
      // A terminal's width: no line of the help is wider than 100 columns.
      expect(Math.max(...help.stdout.split('\n').map((line) => line.length)), name).toBeLessThanOrEqual(100);
      expect(mistake.code, `${name} --no-such-option`).toBe(2);
      expect(mistake.stderr.trim().split('\n'), name).toEqual([
        expect.stringMatching(/^Unknown option '--no-such-option'\. Run npm .* --help for the usage\.$/),
      ]);
    }
  });

  it('takes every long option README.md and docs/ show with it', { timeout: 180_000 }, async () => {
    // The options its help lists: the lines under "Options:", up to the blank line after them.
    const listed = (help: string) => /\nOptions:\n([\s\S]*?)(\n\n|$)/.exec(help)?.[1].match(/--[a-z][\w-]*/g);
    const options = new Map((await answered()).map(({ name, help }) => [name, listed(help.stdout)]));
    const shown = shownCommands().filter(({ flags }) => flags.length > 0);
    expect(shown.length).toBeGreaterThan(20);
    // A script run by another tool (cdk deploy) has no --help here to check against: the docs show it none.
    const unknown = shown.flatMap(({ file, script, flags }) =>
      flags.filter((flag) => !options.get(script)?.includes(flag)).map((flag) => `${file}: npm run ${script} ${flag}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe('the CDK app (npx cdk synth)', () => {
  it('answers a wrong -c value with one line naming the valid ones and exit code 2', async () => {
    const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/poll-app.ts'], {
      timeout: 60_000,
      env: {
        ...process.env,
        CDK_CONTEXT_JSON: JSON.stringify({ results: 'bogus' }),
        CDK_OUTDIR: mkdtempSync(join(tmpdir(), 'synth-')),
      },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'results must be one of api, function-url, cloudfront (got "bogus"); e.g. npx cdk synth -c results=function-url',
    ]);
  });
});

describe('mistakes people make', () => {
  it.each([
    [
      'a value that starts with a dash',
      ['bin/vps.ts', '--host', '-x'],
      '--host needs a value, and what follows it starts with a dash (write --host=<value> if that is the value). ' +
        'Run npm run vps -- --help for the usage.',
    ],
    [
      'a negative number, checked as the value it is',
      ['bin/vps.ts', '--port', '-5'],
      '--port must be a whole number from 0 to 65535 (got -5). Run npm run vps -- --help for the usage.',
    ],
    ...['0', '-1', '1.5', '65'].map((count) => [
      `a worker count of ${count}`,
      ['bin/vps.ts', `--workers=${count}`],
      `--workers must be auto or a whole number from 1 to 64 (got ${count}). Run npm run vps -- --help for the usage.`,
    ]),
    [
      'a certificate without its key',
      ['bin/vps.ts', '--tls-cert', 'test/fixtures/tls/cert.pem'],
      '--tls-cert and --tls-key go together. Run npm run vps -- --help for the usage.',
    ],
    [
      'a certificate file that is not there',
      ['bin/vps.ts', '--tls-cert', 'nowhere.pem', '--tls-key', 'test/fixtures/tls/key.pem'],
      `--tls-cert ${callerPath('nowhere.pem')}: ENOENT. Run npm run vps -- --help for the usage.`,
    ],
    [
      'a TLS set-up bench:vps does not know',
      ['bench/bin/vps.ts', '--tls', 'apache'],
      '--tls must be all, off or some of caddy,caddy-keepalive,nginx,node (got apache). ' +
        'Run npm run bench:vps -- --help for the usage.',
    ],
    [
      'a worker count bench:vps cannot run on this machine (more than its vCPUs)',
      ['bench/bin/vps.ts', '--workers', `1,${availableParallelism() + 1}`],
      `--workers ${availableParallelism() + 1}: this machine has ${availableParallelism()} vCPU(s); a count needs ` +
        'as many as it has workers. Run npm run bench:vps -- --help for the usage.',
    ],
    [
      'a worker count of bench:vps that is none',
      ['bench/bin/vps.ts', '--workers', '1,two'],
      '--workers must be counts from 1 or auto, comma-separated (got 1,two). ' +
        'Run npm run bench:vps -- --help for the usage.',
    ],
    [
      'CDK context for a step that deploys nothing',
      ['bin/localstack.ts', 'up', '-c', 'rateLimits=off'],
      '-c is for deploy and destroy: up starts LocalStack, with no stack to give it to. ' +
        'Run npm run localstack:up -- --help for the usage.',
    ],
    [
      'a design LocalStack cannot deploy, said before anything is checked',
      ['bin/localstack.ts', 'deploy', '-c', 'results=cloudfront'],
      'LocalStack’s free plan has no CloudFront: use -c results=api or -c results=function-url there. ' +
        'Run npm run localstack:deploy -- --help for the usage.',
    ],
    [
      'a log level that is none',
      ['bin/start.ts', '--log-level', 'bogus'],
      '--log-level must be one of TRACE, DEBUG, INFO, WARN, ERROR, CRITICAL, SILENT (got bogus). ' +
        'Run npm start -- --help for the usage.',
    ],
    [
      'rate limits that are neither on nor off, on npm start as on npm run vps',
      ['bin/start.ts', '--rate-limits', 'bogus'],
      '--rate-limits must be "on" or "off" (got "bogus"). Run npm start -- --help for the usage.',
    ],
    [
      'a hot poll size that is no whole number of votes a second',
      ['bin/start.ts', '--hot-poll-votes-per-second', '0'],
      '--hot-poll-votes-per-second must be a whole number of votes a second from 1 to 70,000 ' +
        '(the FIFO queue\'s sends a second), or off (got "0"). Run npm start -- --help for the usage.',
    ],
    [
      "a scale of AWS's limits outside (0, 1]",
      ['bin/start.ts', '--aws-limits', '2'],
      "--aws-limits must be the fraction of AWS's limits to enforce, a number in (0, 1], e.g. 0.01 " +
        '(got "2"). Run npm start -- --help for the usage.',
    ],
    [
      'a hot poll beyond any quota raise, as CDK context for LocalStack',
      ['bin/localstack.ts', 'deploy', '-c', 'hotPollVotesPerSecond=1000000'],
      'hotPollVotesPerSecond must be a whole number of votes a second from 1 to 70,000 ' +
        '(the FIFO queue\'s sends a second), or off (got "1000000"); ' +
        'e.g. npx cdk synth -c hotPollVotesPerSecond=50000. ' +
        'Run npm run localstack:deploy -- --help for the usage.',
    ],
    ...[
      ['no credentials', { AWS_SHARED_CREDENTIALS_FILE: '/nowhere', AWS_CONFIG_FILE: '/nowhere' }],
      ['credentials', { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'example' }],
    ].map(([credentials, env]) => [
      `a design that is none, said before credentials are looked for or cdk starts (with ${credentials})`,
      ['bin/deploy.ts', '-c', 'results=fnurl'],
      // The SDK's notice that it will need Node 22 (seven lines on Node 20) is not said before it either.
      'results must be one of api, function-url, cloudfront (got "fnurl"); ' +
        'e.g. npx cdk synth -c results=function-url. Run npm run deploy -- --help for the usage.',
      { ...(env as Record<string, string>), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: undefined },
    ]),
    [
      'CDK context for LocalStack that is not key=value',
      ['bin/localstack.ts', 'deploy', '-c', 'rateLimits'],
      '-c takes key=value (got "rateLimits"). Run npm run localstack:deploy -- --help for the usage.',
    ],
    ...(
      [
        [
          'a budget of no dollars',
          { monthlyBudgetUsd: '0', budgetEmail: 'ops@example.com' },
          'monthlyBudgetUsd must be a positive number of dollars a month (got "0")',
        ],
        [
          'a budget amount that is no number',
          { monthlyBudgetUsd: '$300', budgetEmail: 'ops@example.com' },
          'monthlyBudgetUsd must be a positive number of dollars a month (got "$300")',
        ],
        [
          'a budget e-mail that is not one',
          { monthlyBudgetUsd: '300', budgetEmail: 'ops.example.com' },
          'budgetEmail must be an e-mail address (got "ops.example.com")',
        ],
        [
          'a budget without its e-mail',
          { monthlyBudgetUsd: '300' },
          '-c monthlyBudgetUsd and -c budgetEmail go together ' +
            '(the budget e-mails that address at 80% and 100% of the amount)',
        ],
      ] as const
    ).map(([name, context, reason]) => [
      `${name}, as CDK context (npx cdk synth)`,
      ['bin/poll-app.ts'],
      `${reason}; e.g. npx cdk synth -c monthlyBudgetUsd=320 -c budgetEmail=you@example.com`,
      { CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: mkdtempSync(join(tmpdir(), 'synth-')) },
    ]),
    [
      'a budget on LocalStack, which has no AWS Budgets',
      ['bin/localstack.ts', 'deploy', '-c', 'monthlyBudgetUsd=300', '-c', 'budgetEmail=ops@example.com'],
      'LocalStack’s free plan has no AWS Budgets: leave out -c monthlyBudgetUsd and -c budgetEmail there. ' +
        'Run npm run localstack:deploy -- --help for the usage.',
    ],
    [
      'a discard of votes a redrive would count',
      ['bin/dlq.ts', 'discard', '--verdict', 'unapplied'],
      'Only unknown, poll-missing, malformed letters can be discarded (not unapplied): ' +
        'redrive unapplied votes instead. Run npm run dlq -- --help for the usage.',
    ],
    [
      'a local runtime URL that is not one',
      ['bin/dlq.ts', 'inspect', '--url', 'not-a-url'],
      "--url not-a-url is not a URL: give the local runtime's, e.g. http://127.0.0.1:3000. " +
        'Run npm run dlq -- --help for the usage.',
    ],
  ] as [string, string[], string, Record<string, string | undefined>?][])(
    '%s: one line, exit 2',
    async (_name, args, expected, env) => {
      const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', ...args], {
        timeout: 60_000,
        env: { ...process.env, ...env },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([expected]);
    },
  );
});

describe('a command called right that cannot do its work', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'not-a-folder-')), 'file');
  writeFileSync(file, '');
  it.each([
    ['npm start', 'tsx bin/start.ts', ['--port', '0', '--data-dir', file], file],
    ['npm run vps', 'tsx bin/vps.ts', ['--port', '0', '--data-dir', file], file],
    ['npm run cost', 'tsx bin/cost.ts', ['--out', join(file, 'sub')], file],
    // A plain mkdir answers at once where Node 20's recursive one spins forever.
    ['npm run cost', 'tsx bin/cost.ts', ['--out', '/proc/no-such-folder/sub'], undefined],
  ])('%s with a folder it cannot make: one line, exit 1 (%#)', async (_name, command, args, isFile) => {
    const result = await run(command, args);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      isFile
        ? `Cannot use ${args.at(-1)} as a folder: ${isFile} is a file`
        : expect.stringMatching(/^Cannot use \/proc\/no-such-folder\/sub as a folder: ENOENT/),
    ]);
  });

  it.each([
    ['with a target', ['--target', 'aws']],
    // --url alone is that URL: the run does not start a runtime of its own and test that instead.
    ['with --url alone', []],
  ])('says why in one line and exits 1, not as a usage mistake (%s)', async (_name, target) => {
    const result = await run('tsx bin/load.ts', ['smoke', ...target, '--url', 'http://127.0.0.1:39999']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'Nothing answers at http://127.0.0.1:39999 (ECONNREFUSED): is the stack deployed there, or the runtime running?',
    ]);
  });
});
