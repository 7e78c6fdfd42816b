/**
 * `npm run vps`: the VPS edition, the whole app on one box with its data in a log on disk: one
 * process, or a primary that owns the log with a worker per core (./cluster.ts). `npm run vps --
 * --help` for the options. A worker runs this file too, with the same options.
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseCommandLine, runCommand, UsageError } from '../node/command-line';
import { AUTO_WORKERS_RULE } from '../config/vps-workers';
import { makeFolder } from '../node/folders';
import {
  CAPTCHA_OPTIONS,
  portFrom,
  RATE_LIMITS_OPTIONS,
  rateLimitsFrom,
  rateLimitsText,
  serverCaptchaFrom,
} from '../node/server-options';
import { startOrExit, stopOnSignals } from '../node/server-shell';
import { COST_PATH } from '../frontend/serve';
import { runVpsWorker, startVpsCluster } from '../vps/cluster';
import { LOG_FILE } from '../vps/store';
import { startVpsServer, type VpsOptions, type VpsServer } from '../vps/server';
import { BUNDLED, loadSite } from '../vps/site';
import { autoWorkers, countLabel } from '../sizing/vps-workers';

/** The seed platform's port. */
export const VPS_PORT = 3081;

/** What --workers auto runs on this box. */
const AUTO_HERE = autoWorkers(availableParallelism());

/** More workers than this is a typo on any droplet sold today. */
const MAX_WORKERS = 64;

/** --workers: a whole number from 1 to MAX_WORKERS, or auto (sizing/vps-workers.ts: what this box's cores run). */
function workersFrom(value: string): number {
  if (value === 'auto') return AUTO_HERE;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_WORKERS)
    throw new UsageError(`--workers must be auto or a whole number from 1 to ${MAX_WORKERS} (got ${value}).`);
  return n;
}

const SPEC = {
  command: BUNDLED ? 'node poll-vps.mjs' : 'npm run vps --',
  summary:
    'The VPS edition: the same API and site as the serverless edition on one box, every core of it, ' +
    'every acknowledged change on disk before it is acknowledged.',
  options: {
    port: { type: 'string', default: String(VPS_PORT), value: '<port>', description: '0 picks a free port' },
    host: {
      type: 'string',
      default: '127.0.0.1',
      value: '<address>',
      description: '0.0.0.0 to be reachable from other machines (put a TLS proxy in front)',
    },
    'data-dir': {
      type: 'string',
      default: '.vps-data',
      value: '<dir>',
      path: true,
      description: `where the log (${LOG_FILE}) lives; restart with the same one and every poll and vote is back`,
    },
    workers: {
      type: 'string',
      default: 'auto',
      value: '<n|auto>',
      description:
        `processes serving HTTP, 1 to ${MAX_WORKERS}; auto: ${AUTO_WORKERS_RULE} ` +
        `(${countLabel({ workers: AUTO_HERE, auto: false })} here, on ${availableParallelism()} vCPUs). ` +
        'With more than one, a primary process owns the log and the workers reach it',
    },
    ...RATE_LIMITS_OPTIONS,
    'trust-proxy': {
      type: 'boolean',
      default: false,
      description: "behind a reverse proxy: take the client's address from X-Forwarded-For",
    },
    'tls-cert': {
      type: 'string',
      value: '<file>',
      path: true,
      description: "serve HTTPS with this certificate chain (PEM, e.g. certbot's fullchain.pem), with --tls-key",
    },
    'tls-key': { type: 'string', value: '<file>', path: true, description: "the certificate's private key (PEM)" },
    ...CAPTCHA_OPTIONS,
  },
  details: ['Stop with Ctrl-C: what is being written is finished first. Deploy to a droplet: docs/vps.md.'],
} as const;

const { values } = parseCommandLine(SPEC);

/** --tls-cert and --tls-key: both or neither, each a readable file; read by every process that serves HTTP. */
function tlsFrom(cert: string | undefined, key: string | undefined): VpsOptions['tls'] {
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) throw new UsageError('--tls-cert and --tls-key go together.');
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}.`);
    }
  };
  return { cert: read('--tls-cert', cert), key: read('--tls-key', key) };
}

function options(): Omit<VpsOptions, 'site'> & { workers: number } {
  const port = portFrom(values.port);
  return {
    workers: workersFrom(values.workers),
    port,
    host: values.host,
    dataDir: makeFolder(values['data-dir']),
    rateLimits: rateLimitsFrom(values['rate-limits']),
    trustProxy: values['trust-proxy'],
    tls: tlsFrom(values['tls-cert'], values['tls-key']),
    captcha: serverCaptchaFrom(values),
  };
}

let chosen!: ReturnType<typeof options>;
await runCommand(SPEC, () => {
  chosen = options();
});

if (cluster.isWorker)
  await runVpsWorker({ ...chosen, rateLimits: chosen.rateLimits !== false, site: await loadSite() });
else await runPrimary();

async function runPrimary(): Promise<void> {
  const { workers } = chosen;
  const server: VpsServer & { workerPids?: () => number[] } = await startOrExit(async () =>
    workers === 1 ? startVpsServer({ ...chosen, site: await loadSite() }) : startVpsCluster(chosen),
  );
  const processes =
    workers === 1
      ? `one process, pid ${process.pid}`
      : `${workers} workers (pids ${server.workerPids?.().join(', ')}), the log owned by pid ${process.pid}`;
  const { loaded } = server.store;
  console.log(`Poll platform (VPS edition, ${processes}) on ${server.url}`);
  console.log(`  what it costs on AWS and on a VPS, for your traffic: ${server.url}${COST_PATH}`);
  console.log(
    `  data: ${resolve(chosen.dataDir, LOG_FILE)}: ${loaded.polls} poll(s), ${loaded.votes} vote(s)` +
      (loaded.expiredDropped ? `, ${loaded.expiredDropped} expired poll(s) dropped` : ''),
  );
  if (loaded.skipped > 0)
    console.warn(
      `  ${loaded.skipped} line(s) of the log could not be read (torn by a crash or corrupt) ` +
        'and were skipped; the rest is loaded.',
    );
  const proxied = chosen.trustProxy ? ', client addresses from X-Forwarded-For' : '';
  console.log(`  ${rateLimitsText(chosen.rateLimits !== false)}${proxied}. Ctrl-C to stop.`);

  stopOnSignals(async () => {
    await server.stop();
    const { flushes, records, flushMs } = server.store.journal.stats;
    console.log(
      flushes > 0
        ? `\nStopped. ${records} change(s) written in ${flushes} flush(es): ` +
            `${(records / flushes).toFixed(1)} per flush, ${(flushMs / flushes).toFixed(2)} ms per flush.`
        : '\nStopped. Nothing was written.',
    );
  });
}
