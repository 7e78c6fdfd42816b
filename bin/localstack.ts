/**
 * LocalStack, one command per step (`--help` on each):
 *   npm run localstack:up       start LocalStack (docker compose) and wait until it is healthy
 *   npm run localstack:deploy   check, bootstrap and deploy the stack's LocalStack variant, upload the site
 *   npm run localstack:destroy  empty the site bucket and delete the stack
 * Each step first says, one line per problem, what is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  badContextPair,
  contextOf,
  contextOption,
  exitWithUsageError,
  parseCommandLine,
  runCommand,
} from '../node/command-line';
import { stackPropsFrom, synthesizeTemplate } from '../lib/app';
import { OUTPUTS_FILES } from '../config/targets';
import { freePlanViolations } from '../localstack/free-plan';
import { EMULATED_ACCOUNT as ACCOUNT, EMULATED_REGION as REGION, LOCALSTACK } from '../config/emulated-aws';
import { probe, problems, readDotEnv, type Step } from '../localstack/preflight';
import { localstackApiUrl } from '../localstack/urls';
import { cdklocalEnv, emptyBucket, uploadSite } from '../localstack/deploy';
import { stackOutputs } from '../node/cdk';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STEPS = {
  up: 'Starts LocalStack with docker compose (the image pinned in docker-compose.yml) and waits until it is healthy.',
  deploy:
    'Checks LocalStack, synthesizes the free-plan variant of the stack, bootstraps and deploys it with cdklocal, ' +
    'uploads the site, prints the URLs.',
  destroy: 'Empties the site bucket and deletes the stack from LocalStack.',
} as const;
type StepName = keyof typeof STEPS;

const step = process.argv[2] as StepName;
const SPEC = {
  command: `npm run localstack:${Object.hasOwn(STEPS, step) ? step : '<step>'} --`,
  summary: Object.hasOwn(STEPS, step) ? STEPS[step] : `One of: ${Object.keys(STEPS).join(', ')}.`,
  options: {
    context: contextOption(
      'CDK context for deploy and destroy, as with cdk (e.g. -c rateLimits=off to load-test); may be repeated',
    ),
  },
  details: ['The target is always LocalStack (-c target=localstack); see docs/localstack.md.'],
} as const;
if (!Object.hasOwn(STEPS, step))
  exitWithUsageError(SPEC, `Name a step: ${Object.keys(STEPS).join(', ')} (got ${JSON.stringify(step ?? '')}).`);
const { values } = parseCommandLine(SPEC, process.argv.slice(3));
const extraContext = values.context ?? [];
const badPair = badContextPair(extraContext);
if (badPair !== undefined) exitWithUsageError(SPEC, `-c takes key=value (got ${JSON.stringify(badPair)}).`);
if (extraContext.some((pair) => pair.startsWith('target=')))
  exitWithUsageError(SPEC, 'The target is always localstack here.');
if (step === 'up' && extraContext.length > 0)
  exitWithUsageError(SPEC, '-c is for deploy and destroy: up starts LocalStack, with no stack to give it to.');
// Its own assembly folder: cdk.out/ stays the AWS template that npm run cost prices.
const CDK_ARGS = [
  '-c',
  'target=localstack',
  ...extraContext.flatMap((pair) => ['-c', pair]),
  '--output',
  'cdk.out.localstack',
];
/** The same context for the checks made in-process (the flags, the free-plan synth). */
const contextObject: Record<string, string> = { ...contextOf(extraContext), target: 'localstack' };

function stop(lines: string[]): never {
  for (const line of lines) console.error(`✗ ${line}`);
  process.exit(1);
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  console.log(`$ ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: ROOT, env, stdio: 'inherit' });
  if (result.status !== 0) stop([`${command} ${args[0]} failed (exit ${result.status ?? result.signal}).`]);
}

async function preflight(step: Step): Promise<void> {
  const dotEnv = existsSync(join(ROOT, '.env')) ? readDotEnv(readFileSync(join(ROOT, '.env'), 'utf8')) : {};
  const found = problems(await probe({ ...dotEnv, ...process.env }), step);
  if (found.length) stop(found);
}

function checkFreePlan(): void {
  const violations = freePlanViolations(synthesizeTemplate(contextObject));
  if (violations.length) stop(['The LocalStack variant of the stack needs paid LocalStack features:', ...violations]);
}

const outputs = () => stackOutputs(OUTPUTS_FILES.localstack);

if (step === 'up') {
  await preflight('up');
  if ((await probe(process.env)).health) {
    console.log(`LocalStack already answers healthy on ${LOCALSTACK.endpoint}. Next: npm run localstack:deploy`);
    process.exit(0);
  }
  run('docker', ['compose', 'up', '-d']);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${LOCALSTACK.endpoint}/_localstack/health`, { signal: AbortSignal.timeout(2000) })).ok) {
        console.log(`LocalStack is up on ${LOCALSTACK.endpoint}. Next: npm run localstack:deploy`);
        process.exit(0);
      }
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
  stop(['LocalStack did not become healthy within 2 minutes: see docker compose logs localstack.']);
} else if (step === 'deploy') {
  // A flag LocalStack cannot take is said first, before anything is started or checked.
  await runCommand(SPEC, () => {
    stackPropsFrom((key) => contextObject[key]);
  });
  await preflight('deploy');
  await runCommand(SPEC, checkFreePlan);
  run(
    join(ROOT, 'node_modules/.bin/cdklocal'),
    ['bootstrap', `aws://${ACCOUNT}/${REGION}`, ...CDK_ARGS],
    cdklocalEnv(),
  );
  run(
    join(ROOT, 'node_modules/.bin/cdklocal'),
    ['deploy', '--all', '--require-approval', 'never', ...CDK_ARGS, '--outputs-file', OUTPUTS_FILES.localstack],
    cdklocalEnv(),
  );
  const out = outputs();
  const apiUrl = localstackApiUrl(out.ApiUrl);
  // results=function-url: the page reads results from the function URL, as on AWS.
  await uploadSite(out.SiteBucketName, { apiUrl, ...(out.ResultsUrl ? { resultsUrl: out.ResultsUrl } : {}) });
  console.log(`\nAPI:  ${apiUrl}`);
  if (out.ResultsUrl) console.log(`Results (function URL): ${out.ResultsUrl}`);
  console.log(
    `Site: ${out.SiteUrl} (or ${LOCALSTACK.endpoint}/${out.SiteBucketName}/index.html ` +
      'where *.localhost.localstack.cloud does not resolve)',
  );
  console.log('Load test it: npm run load -- vote-storm --target localstack');
} else {
  await preflight('deploy');
  const bucket = outputs().SiteBucketName;
  if (bucket) await emptyBucket(bucket);
  run(join(ROOT, 'node_modules/.bin/cdklocal'), ['destroy', '--all', '--force', ...CDK_ARGS], cdklocalEnv());
  rmSync(OUTPUTS_FILES.localstack, { force: true });
}
