/**
 * `npm start`: the whole app on this machine (no Docker, no AWS account). `npm start -- --help` for the options.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseCommandLine, runCommand, UsageError } from '../node/command-line';
import { makeFolder, PROJECT_ROOT } from '../node/folders';
import {
  CAPTCHA_OPTIONS,
  fromOption,
  portFrom,
  RATE_LIMITS_OPTIONS,
  rateLimitsFrom,
  rateLimitsText,
  serverCaptchaFrom,
} from '../node/server-options';
import { startOrExit, stopOnSignals } from '../node/server-shell';
import { RESULTS_DELIVERIES } from '../config/results-delivery';
import { COST_PATH } from '../frontend/serve';
import { FLAGS } from '../config/flags';
import { API_RATE_FLAG, HOT_POLL_FLAG } from '../config/vote-path';
import { parseAwsLimitsScale } from '../local/aws-limits';
import { USAGE_PATH } from '../local/endpoints';

/** Powertools' log levels, which the handlers use. */
const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'];

const SPEC = {
  command: 'npm start --',
  summary:
    'The whole app on this machine: the synthesized stack served with emulated DynamoDB, SQS and API Gateway, ' +
    'and the site, on one origin.',
  options: {
    port: {
      type: 'string',
      default: process.env.PORT ?? '3000',
      value: '<port>',
      description: 'where to listen on 127.0.0.1; 0 picks a free port (or PORT)',
    },
    [FLAGS.apiKind.option]: {
      type: 'string',
      value: 'http|rest',
      description: 'the API Gateway flavour to emulate (default: http)',
    },
    [FLAGS.results.option]: {
      type: 'string',
      value: RESULTS_DELIVERIES.join('|'),
      description: 'how the page reads results, as -c results= deploys it (default: api)',
    },
    [FLAGS.hotPollVotesPerSecond.option]: {
      type: 'string',
      value: '<n>',
      description: `size the vote path for one poll of n votes a second, as -c ${HOT_POLL_FLAG}= deploys it`,
    },
    [FLAGS.apiRateLimit.option]: {
      type: 'string',
      value: '<n>',
      description: `the API stage's throttle in requests a second, as -c ${API_RATE_FLAG}= deploys it`,
    },
    'aws-limits': {
      type: 'string',
      value: '<scale>',
      description:
        "enforce AWS's limits that bind a hot poll (API throttles, Lambda concurrency, SQS sends per group, " +
        'writes per partition key) at this fraction of their value, in (0, 1]; e.g. 0.01',
    },
    'data-dir': {
      type: 'string',
      value: '<dir>',
      path: true,
      description: 'keep the table and queued votes here across restarts (default: in memory)',
    },
    'log-level': {
      type: 'string',
      default: 'WARN',
      value: '<level>',
      description: `the functions' log level: ${LOG_LEVELS.join(', ')}`,
    },
    'usage-file': {
      type: 'string',
      default: resolve(PROJECT_ROOT, '.local-data/usage.json'),
      value: '<file>',
      path: true,
      description: 'where the metered usage goes on exit',
    },
    ...RATE_LIMITS_OPTIONS,
    ...CAPTCHA_OPTIONS,
  },
  details: ['Stop with Ctrl-C: queued votes are counted first, then the usage is printed and written.'],
} as const;

const { values } = parseCommandLine(SPEC);
// Loaded once the command line is read: the emulators take seconds, which --help need not wait.
const { startLocalRuntime } = await import('../local/runtime');

function options() {
  const port = portFrom(values.port);
  const logLevel = values['log-level'].toUpperCase();
  if (!LOG_LEVELS.includes(logLevel))
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')} (got ${values['log-level']}).`);
  return {
    port,
    logLevel,
    apiKind: fromOption(FLAGS.apiKind, values['api-kind']),
    results: fromOption(FLAGS.results, values.results),
    hotPollVotesPerSecond: fromOption(FLAGS.hotPollVotesPerSecond, values['hot-poll-votes-per-second']),
    apiRateLimit: fromOption(FLAGS.apiRateLimit, values['api-rate-limit']),
    awsLimits: awsLimitsFrom(values['aws-limits']),
    dataDir: values['data-dir'] ? makeFolder(values['data-dir']) : undefined,
    rateLimits: rateLimitsFrom(values['rate-limits']),
    captcha: serverCaptchaFrom(values),
  };
}

/** --aws-limits: absent, or a scale in (0, 1]. */
function awsLimitsFrom(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseAwsLimitsScale(value);
  } catch (error) {
    throw new UsageError((error as Error).message, { cause: error });
  }
}

let chosen!: ReturnType<typeof options>;
await runCommand(SPEC, () => {
  chosen = options();
});

const started = performance.now();
const runtime = await startOrExit(() => startLocalRuntime(chosen));

const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `Poll platform (local, ${runtime.model.apiKind.toUpperCase()} API emulation, results=${chosen.results}) ` +
    `ready in ${seconds} s`,
);
console.log(`  open ${runtime.url} in a browser to create a poll`);
console.log(`  what it costs on AWS and on a VPS, for your traffic: ${runtime.url}${COST_PATH}`);
if (chosen.awsLimits !== undefined)
  console.log(`  AWS's limits enforced at ${chosen.awsLimits} of their value; refusals in ${USAGE_PATH} (awsLimits)`);
console.log(`  ${rateLimitsText(chosen.rateLimits)}`);
console.log('  API routes, from the synthesized template:');
for (const route of runtime.model.routes) console.log(`    ${route.method.padEnd(5)}${route.path}`);
if (runtime.resultsUrl) console.log(`  results function URL (its own origin, as on AWS): ${runtime.resultsUrl}`);
if (chosen.results === 'cloudfront')
  console.log(`  results are cached for the results max-age on this origin, as the CloudFront distribution does`);
console.log(`  usage as AWS would bill it: ${runtime.url}${USAGE_PATH}`);
console.log(`  votes that could not be counted: npm run dlq -- inspect --url ${runtime.url}`);
console.log(
  values['data-dir'] ? `  data kept in ${values['data-dir']}` : '  data in memory (use --data-dir to keep it)',
);
console.log('Ctrl-C to stop.');

stopOnSignals(async () => {
  console.log('\nStopping: counting the votes still in the queue…');
  try {
    await runtime.waitForDrain(15_000);
  } catch (error) {
    console.error((error as Error).message);
  }
  const usage = runtime.usage();
  await runtime.stop();
  mkdirSync(dirname(values['usage-file']!), { recursive: true });
  writeFileSync(values['usage-file']!, JSON.stringify(usage, null, 2));
  console.log(`API requests: ${usage.api.requests}; by status ${JSON.stringify(usage.api.byStatus)}`);
  for (const [name, fn] of Object.entries(usage.functions)) {
    if (fn.invocations > 0)
      console.log(
        `  ${name}: ${fn.invocations} invocation${fn.invocations === 1 ? '' : 's'}, ${fn.billedMs} ms billed`,
      );
  }
  for (const [name, table] of Object.entries(usage.tables))
    console.log(`  table ${name}: ${table.readUnits} read units, ${table.writeUnits} write units`);
  console.log(`Usage written to ${values['usage-file']}`);
});
