/**
 * `npm start`: the whole app on this machine (no Docker, no AWS account).
 * Options: --port <n> (or PORT), --api-kind http|rest, --data-dir <dir>, --log-level <level>,
 * --captcha recaptcha|turnstile --captcha-site-key <key> (secret in CAPTCHA_SECRET).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { apiKindFrom } from '../lib/app';
import { USAGE_PATH } from './endpoints';
import { PROJECT_ROOT, startLocalRuntime, type LocalRuntime } from './runtime';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '3000' },
    'api-kind': { type: 'string' },
    'data-dir': { type: 'string' },
    'log-level': { type: 'string', default: 'WARN' },
    'usage-file': { type: 'string', default: resolve(PROJECT_ROOT, '.local-data/usage.json') },
    captcha: { type: 'string' },
    'captcha-site-key': { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a whole number from 0 to 65535 (got ${values.port}).`);
  process.exit(2);
}

/** --captcha recaptcha|turnstile --captcha-site-key <key>, with the secret in CAPTCHA_SECRET (not on the command line). */
function captchaOption() {
  const provider = values.captcha;
  if (!provider) return undefined;
  if (provider !== 'recaptcha' && provider !== 'turnstile') throw new Error('--captcha must be recaptcha or turnstile');
  const siteKey = values['captcha-site-key'];
  const secret = process.env.CAPTCHA_SECRET;
  if (!siteKey || !secret) throw new Error('--captcha needs --captcha-site-key <key> and the secret in the CAPTCHA_SECRET environment variable');
  return { provider, siteKey, secret } as const;
}

const started = performance.now();
let runtime: LocalRuntime;
try {
  runtime = await startLocalRuntime({
    port,
    apiKind: apiKindFrom(values['api-kind']),
    dataDir: values['data-dir'] ? resolve(values['data-dir']) : undefined,
    logLevel: values['log-level'],
    captcha: captchaOption(),
  });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

console.log(`Poll platform (local, ${runtime.model.apiKind.toUpperCase()} API emulation) ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`  open ${runtime.url} in a browser to create a poll`);
console.log('  API routes, from the synthesized template:');
for (const route of runtime.model.routes) console.log(`    ${route.method.padEnd(5)}${route.path}`);
console.log(`  usage as AWS would bill it: ${runtime.url}${USAGE_PATH}`);
console.log('  votes that could not be counted: npm run dlq -- inspect');
console.log(values['data-dir'] ? `  data kept in ${values['data-dir']}` : '  data in memory (use --data-dir to keep it)');
console.log('Ctrl-C to stop.');

let stopping = false;
async function shutdown(): Promise<void> {
  if (stopping) process.exit(130);
  stopping = true;
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
    if (fn.invocations > 0) console.log(`  ${name}: ${fn.invocations} invocations, ${fn.billedMs} ms billed`);
  }
  for (const [name, table] of Object.entries(usage.tables)) console.log(`  table ${name}: ${table.readUnits} read units, ${table.writeUnits} write units`);
  console.log(`Usage written to ${values['usage-file']}`);
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
