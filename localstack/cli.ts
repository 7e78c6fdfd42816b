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
import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { badContextPair, contextOption, exitWithUsageError, parseCommandLine, runCommand } from '../bin/command-line';
import { SITE_CACHE_CONTROL } from '../config/caching';
import type { SiteConfig } from '../config/site';
import { buildSite } from '../frontend/build';
import { pageWithConfig } from '../frontend/page';
import { stackPropsFrom, synthesizeTemplate } from '../lib/app';
import { OUTPUTS_FILES, stackOutputs } from '../config/targets';
import { freePlanViolations } from './free-plan';
import { EMULATED_ACCOUNT as ACCOUNT, EMULATED_REGION as REGION, LOCALSTACK } from '../config/emulated-aws';
import { probe, problems, readDotEnv, type Step } from './preflight';
import { localstackApiUrl } from './urls';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { credentials } = LOCALSTACK;
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
// Its own assembly folder: cdk.out/ stays the AWS template that npm run cost prices.
const CDK_ARGS = [
  '-c',
  'target=localstack',
  ...extraContext.flatMap((pair) => ['-c', pair]),
  '--output',
  'cdk.out.localstack',
];
/** The same context for the checks made in-process (the flags, the free-plan synth). */
const contextObject: Record<string, string> = {
  ...Object.fromEntries(
    extraContext.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  ),
  target: 'localstack',
};

/** What cdklocal needs: endpoints that work where localhost.localstack.cloud does not resolve. */
const cdkEnv = {
  ...process.env,
  AWS_ENDPOINT_URL: LOCALSTACK.endpoint,
  AWS_ENDPOINT_URL_S3: LOCALSTACK.endpoint,
  AWS_ACCESS_KEY_ID: credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  AWS_REGION: REGION,
  AWS_DEFAULT_REGION: REGION,
  // cdklocal drops other AWS_* variables unless listed.
  AWS_ENVAR_ALLOWLIST: 'AWS_REGION,AWS_DEFAULT_REGION,AWS_ACCESS_KEY_ID,AWS_SECRET_ACCESS_KEY',
  CDK_DISABLE_CLI_TELEMETRY: '1',
  CDK_DISABLE_VERSION_CHECK: '1',
};

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

const s3 = () => new S3Client({ region: REGION, endpoint: LOCALSTACK.endpoint, forcePathStyle: true, credentials });

/**
 * CloudFront and BucketDeployment are paid LocalStack features: upload the page to the website
 * bucket directly. The bucket answers every other path with the page too (its error document),
 * which then says "not found" itself.
 */
async function uploadSite(bucket: string, config: SiteConfig): Promise<void> {
  const client = s3();
  await client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: 'index.html',
      Body: pageWithConfig(buildSite().page, config),
      ContentType: 'text/html; charset=utf-8',
      CacheControl: SITE_CACHE_CONTROL,
    }),
  );
  client.destroy();
  console.log(`Uploaded the page to s3://${bucket}`);
}

async function emptyBucket(bucket: string): Promise<void> {
  const client = s3();
  for (let page = 0; page < 100; page++) {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    const keys = (listed.Contents ?? []).map((o) => ({ Key: o.Key! }));
    if (keys.length === 0) break;
    await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
  }
  client.destroy();
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
  run(join(ROOT, 'node_modules/.bin/cdklocal'), ['bootstrap', `aws://${ACCOUNT}/${REGION}`, ...CDK_ARGS], cdkEnv);
  run(
    join(ROOT, 'node_modules/.bin/cdklocal'),
    ['deploy', '--all', '--require-approval', 'never', ...CDK_ARGS, '--outputs-file', OUTPUTS_FILES.localstack],
    cdkEnv,
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
  run(join(ROOT, 'node_modules/.bin/cdklocal'), ['destroy', '--all', '--force', ...CDK_ARGS], cdkEnv);
  rmSync(OUTPUTS_FILES.localstack, { force: true });
}
