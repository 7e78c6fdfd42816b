/**
 * `npm run load -- <scenario> [--target local|vps|localstack|aws] [--url <api url>]` (bin/load.ts runs it)
 *
 * Runs an artillery scenario against a target (starting the local runtime or the VPS edition
 * itself unless --url says where one runs), then checks that every accepted vote was counted,
 * prints a short summary, and writes one results folder: artillery.json, summary.json and, for
 * the runtime it starts, usage.json (what `npm run cost -- --from <folder>` reads). While it runs
 * it prints a line from each of artillery's periodic reports, its own output kept in artillery.log.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { CommandFailure, UsageError } from '../node/command-line';
import { shownPath } from '../node/folders';
import { DEPLOY_COMMANDS, EDITION_HEADER, LOAD_TARGETS, OUTPUTS_FILES, type LoadTarget } from '../config/targets';
import type { DeployTarget } from '../config/stack';
import { type LocalResources, RESOURCES_PATH } from '../local/endpoints';
import type { LocalRuntime } from '../local/runtime';
import { localstackApiUrl } from '../localstack/urls';
import { awsLimitsAt, formatHotPoll, HOT_POLL, type HotPollFigures, hotPollFigures, NO_LIMITS_HINT } from './hot-poll';
import { compareTallies, voteTallies, type Conservation, type Tally, type VoteTallies } from './conservation';
import { stackOutputs } from '../node/cdk';

const LOAD_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(LOAD_DIR, '..');
const SCENARIOS = join(LOAD_DIR, 'scenarios');
/** No scenario runs longer than this, whatever its phases say. */
const ARTILLERY_TIME_LIMIT_MS = 15 * 60_000;

/** The run could not be made (nothing answers, no outputs file, no artillery): one line, exit 1. */
export class LoadTestError extends CommandFailure {
  override readonly name = 'LoadTestError';
}

export const scenarioNames = () =>
  readdirSync(SCENARIOS)
    .filter((f) => f.endsWith('.yml'))
    .map((f) => f.replace(/\.yml$/, ''));

/** The API's base URL from a `cdk deploy --outputs-file` JSON file. */
export function apiUrlFromOutputs(file: string, target: DeployTarget = 'aws'): string {
  if (!existsSync(file))
    throw new LoadTestError(`${relative(ROOT, file)} not found: ${DEPLOY_COMMANDS[target]} writes it; or pass --url.`);
  const url = stackOutputs(file).ApiUrl;
  if (!url) throw new LoadTestError(`${relative(ROOT, file)} has no ApiUrl output.`);
  return url.replace(/\/$/, '');
}

/** A deployed target's API URL, from its outputs file; LocalStack's is rewritten to a path on its own port. */
export function deployedApiUrl(target: LoadTarget, file?: string): string {
  if (target === 'local' || target === 'vps') throw new LoadTestError(`The ${target} target needs no outputs file.`);
  file ??= OUTPUTS_FILES[target];
  const url = apiUrlFromOutputs(file, target);
  return target === 'localstack' ? localstackApiUrl(url) : url;
}

export interface Summary {
  scenario: string;
  target: LoadTarget;
  url: string;
  requests: number;
  durationSeconds: number;
  ratePerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  codes: Record<string, number>;
  errors: Record<string, number>;
  vusersFailed: number;
  artilleryExitCode: number;
  votes: Pick<Conservation, 'accepted' | 'unanswered' | 'counted' | 'lost' | 'extra' | 'ok'>;
  /** The hot-poll scenario against a runtime with --aws-limits: predicted and measured ceilings. */
  hotPoll?: HotPollFigures;
}

export interface LoadRunOptions {
  scenario: string;
  /** The kind of server to test; without it `local`, or with `url` whatever answers there. */
  target?: LoadTarget;
  /**
   * Where the app runs: `npm start`'s or `npm run vps`'s URL, or a deployed stack's API. Without
   * it, `local` and `vps` start their own and the others read their outputs file.
   */
  url?: string;
  /** A running local runtime to use (tests); otherwise `local` starts one. */
  runtime?: LocalRuntime;
  resultsRoot?: string;
  /** What to print while it runs: progress lines (the default, to `progress`), nothing, or artillery's own output. */
  output?: LoadOutput;
  progress?: (line: string) => void;
  /** How long to wait for the queue to drain before counting. */
  drainTimeoutMs?: number;
}

export type LoadOutput = 'progress' | 'quiet' | 'verbose';

export interface LoadRunResult {
  dir: string;
  /** artillery's own output, when it went to a file instead of the terminal. */
  log?: string;
  summary: Summary;
  conservation: Conservation;
  ok: boolean;
}

/**
 * Runs artillery. With progress, its output goes to `log` and a plugin (artillery-plugin-progress)
 * hands each of its periodic reports' counters (every 10 s) to `onStats` over a fourth descriptor.
 */
function runArtillery(
  args: string[],
  output: LoadOutput,
  log: string,
  onStats: (counters: Record<string, number>) => void,
): Promise<number> {
  const bin = join(ROOT, 'node_modules', '.bin', 'artillery');
  if (!existsSync(bin)) throw new LoadTestError('artillery is not installed: run npm ci.');
  const progress = output === 'progress';
  const logFd = progress ? openSync(log, 'w') : undefined;
  return new Promise((resolveExit, reject) => {
    const child = spawn(bin, output === 'quiet' ? [...args, '--quiet'] : args, {
      cwd: LOAD_DIR,
      env: {
        ...process.env,
        ARTILLERY_DISABLE_TELEMETRY: 'true',
        ...(progress ? { ARTILLERY_PLUGIN_PATH: LOAD_DIR, ARTILLERY_PLUGINS: JSON.stringify({ progress: {} }) } : {}),
      },
      stdio:
        output === 'verbose'
          ? 'inherit'
          : progress
            ? ['ignore', logFd, 'inherit', 'pipe']
            : ['ignore', 'ignore', 'inherit'],
    });
    if (progress)
      createInterface({ input: child.stdio[3] as Readable }).on('line', (line) => onStats(JSON.parse(line)));
    const timer = setTimeout(() => child.kill('SIGTERM'), ARTILLERY_TIME_LIMIT_MS);
    child.on('error', reject);
    // After its output's last line too (exit may come before the stats pipe is read to its end).
    child.on('close', (code) => {
      clearTimeout(timer);
      if (logFd !== undefined) closeSync(logFd);
      resolveExit(code ?? 1);
    });
  });
}

/** One progress line: the run's totals so far, from artillery's counters summed over its reports. */
export function progressLine(seconds: number, totals: Record<string, number>): string {
  const sum = (prefix: string) =>
    Object.entries(totals).reduce((total, [name, count]) => total + (name.startsWith(prefix) ? count : 0), 0);
  const n = (prefix: string) => sum(prefix).toLocaleString('en-US');
  const errors = sum('errors.');
  return (
    `  ${seconds.toFixed(0).padStart(4)} s  ${n('http.requests')} requests: ` +
    `2xx ${n('http.codes.2')}, 4xx ${n('http.codes.4')}, 5xx ${n('http.codes.5')}` +
    `${errors ? `, ${errors.toLocaleString('en-US')} errors` : ''}; ${n('votes.accepted.')} votes accepted`
  );
}

/** Counts as the API reports them; remote targets are polled until the accepted votes are counted. */
async function countedVotes(url: string, { accepted, possible }: VoteTallies, waitMs: number): Promise<Tally> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const counted: Tally = new Map();
    for (const pollId of possible.keys()) {
      const response = await fetch(`${url}/api/poll/${pollId}/results`, { headers: { 'cache-control': 'no-cache' } });
      counted.set(pollId, response.ok ? ((await response.json()) as { counts: number[] }).counts : []);
    }
    if (compareTallies(accepted, counted, possible).ok || Date.now() > deadline) return counted;
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** What can answer at a URL: the app's local runtime, its VPS edition, or a deployed stack. */
export type Server = 'local' | 'vps' | 'deployed';

const SERVER_NAMES: Record<Server, string> = {
  local: 'the local runtime (npm start)',
  vps: 'the VPS edition (npm run vps)',
  deployed: 'a deployed stack (AWS or LocalStack)',
};

/** How to load-test each kind of server, its limits off: said when --target names another kind. */
const LOAD_TEST_IT: Record<Server, string> = {
  local: 'use --target local, with npm start -- --rate-limits off (its limits are on by default)',
  vps: 'use --target vps, with npm run vps -- --rate-limits off (its limits are on by default)',
  deployed: 'use --target aws or --target localstack, deployed with -c rateLimits=off',
};

const serverOf = (target: LoadTarget): Server => (target === 'local' || target === 'vps' ? target : 'deployed');

/**
 * Before a run: is this app's API answering at `url`, and on what? A poll id nobody has answers
 * 404 in the API's error shape; anything else (nothing, another server, a stage missing from the
 * URL) is said in one line instead of a failed run. The VPS edition names itself in a header; the
 * local runtime serves its own endpoints beside the API.
 */
export async function checkApi(url: string): Promise<Server> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new UsageError(
      `--url ${url} is not a URL: give the API's base URL, e.g. https://<api-id>.execute-api.<region>.amazonaws.com`,
      { cause: error },
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UsageError(`--url ${url}: only http and https URLs can be load-tested.`);
  const probe = `${url}/api/poll/${'0'.repeat(21)}/results`;
  let response: Response;
  try {
    response = await fetch(probe, { signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    const { cause } = error as { cause?: { code?: string; message?: string } };
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new LoadTestError(
      `Nothing answers at ${url} (${why}): is the stack deployed there, or the runtime running?`,
      {
        cause: error,
      },
    );
  }
  const body = (await response.json().catch(() => undefined)) as { error?: { code?: string } } | undefined;
  if (response.status !== 404 || body?.error?.code !== 'poll_not_found') {
    const stage = /execute-api/.test(url) ? ' (with its stage, e.g. /prod, for a REST API)' : '';
    throw new LoadTestError(
      `${url} answered ${response.status} to GET /api/poll/<id>/results, not this app's 404: ` +
        `is it the API's base URL${stage}?`,
    );
  }
  if (response.headers.get(EDITION_HEADER) === 'vps') return 'vps';
  const local = await fetch(`${url}${RESOURCES_PATH}`, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
  const resources = (await local?.json().catch(() => undefined)) as Partial<LocalResources> | undefined;
  return local?.ok && typeof resources?.tableName === 'string' ? 'local' : 'deployed';
}

/** The target of a run at `url`: the one asked for if that kind of server answers there; if none, what answers. */
function targetAt(url: string, asked: LoadTarget | undefined, answering: Server): LoadTarget {
  if (asked === undefined) {
    if (answering === 'deployed')
      throw new UsageError(`${url} is ${SERVER_NAMES.deployed}: say which with --target aws or --target localstack.`);
    return answering;
  }
  if (serverOf(asked) !== answering)
    throw new LoadTestError(
      `${url} is ${SERVER_NAMES[answering]}, not ${SERVER_NAMES[serverOf(asked)]}: ${LOAD_TEST_IT[answering]}.`,
    );
  return asked;
}

export async function runLoadTest(options: LoadRunOptions): Promise<LoadRunResult> {
  const { scenario } = options;
  if (!scenarioNames().includes(scenario))
    throw new UsageError(`Unknown scenario "${scenario}". Scenarios: ${scenarioNames().join(', ')}.`);
  if (options.target !== undefined && !LOAD_TARGETS.includes(options.target))
    throw new UsageError(`Unknown target "${options.target}". Targets: ${LOAD_TARGETS.join(', ')}.`);
  // Without --url, the run starts what it tests (local, vps) or reads where it is (localstack, aws).
  const asked = options.target ?? (options.url ? undefined : 'local');

  let runtime = options.runtime;
  const ownRuntime = asked === 'local' && !runtime && !options.url;
  if (ownRuntime) {
    const { startLocalRuntime } = await import('../local/runtime');
    runtime = await startLocalRuntime({ host: '127.0.0.1', port: 0, rateLimits: false });
  }
  const ownVps = asked === 'vps' && !options.url ? await startOwnVps() : undefined;
  try {
    const url = (runtime?.url ?? options.url ?? ownVps?.url ?? deployedApiUrl(asked!)).replace(/\/$/, '');
    const target = targetAt(url, asked, await checkApi(url));
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const dir = join(options.resultsRoot ?? join(LOAD_DIR, 'results'), `${scenario}-${target}-${stamp}`);
    mkdirSync(dir, { recursive: true });
    const reportFile = join(dir, 'artillery.json');
    const limitsBefore = scenario === HOT_POLL.scenario ? await awsLimitsAt(url) : undefined;

    const output = options.output ?? 'progress';
    const log = join(dir, 'artillery.log');
    const progress = options.progress ?? console.log;
    if (output === 'progress')
      progress(`${scenario} on ${target} (${url}): a line every 10 s; artillery's output in ${relative(ROOT, log)}`);
    const totals: Record<string, number> = {};
    const started = Date.now();
    const exitCode = await runArtillery(
      ['run', '--environment', target, '--target', url, '--output', reportFile, join(SCENARIOS, `${scenario}.yml`)],
      output,
      log,
      (counters) => {
        for (const [name, count] of Object.entries(counters)) totals[name] = (totals[name] ?? 0) + count;
        progress(progressLine((Date.now() - started) / 1000, totals));
      },
    );
    const wallSeconds = (Date.now() - started) / 1000;
    if (!existsSync(reportFile)) {
      // What went wrong is in its output: shown here, for the folder goes (none half-made for npm run cost -- --from).
      if (output === 'progress') process.stderr.write(readFileSync(log, 'utf8'));
      rmSync(dir, { recursive: true, force: true });
      throw new LoadTestError(`artillery wrote no report (exit code ${exitCode}): see its output above.`);
    }
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    const aggregate = report.aggregate ?? {};
    const counters: Record<string, number> = aggregate.counters ?? {};

    const tallies = voteTallies(counters);
    if (runtime) await runtime.waitForDrain(options.drainTimeoutMs ?? 60_000);
    // The VPS edition counts a vote before it answers; a deployed stack counts through its queue, a little later.
    const settleMs = runtime || target === 'vps' ? 0 : (options.drainTimeoutMs ?? 60_000);
    const counted = await countedVotes(url, tallies, settleMs);
    const conservation = compareTallies(tallies.accepted, counted, tallies.possible);
    if (runtime) writeFileSync(join(dir, 'usage.json'), JSON.stringify(runtime.usage(), null, 2));

    const latency = aggregate.summaries?.['http.response_time'] ?? {};
    const pick = (prefix: string) =>
      Object.fromEntries(
        Object.entries(counters)
          .filter(([k]) => k.startsWith(prefix))
          .map(([k, v]) => [k.slice(prefix.length), v]),
      );
    const requests = counters['http.requests'] ?? 0;
    const durationSeconds =
      aggregate.firstMetricAt && aggregate.lastMetricAt
        ? (aggregate.lastMetricAt - aggregate.firstMetricAt) / 1000
        : wallSeconds;
    const summary: Summary = {
      scenario,
      target,
      url,
      requests,
      durationSeconds,
      ratePerSecond: durationSeconds > 0 ? requests / durationSeconds : 0,
      latencyMs: { p50: latency.p50 ?? 0, p95: latency.p95 ?? 0, p99: latency.p99 ?? 0, max: latency.max ?? 0 },
      codes: pick('http.codes.'),
      errors: pick('errors.'),
      vusersFailed: counters['vusers.failed'] ?? 0,
      artilleryExitCode: exitCode,
      votes: {
        accepted: conservation.accepted,
        unanswered: conservation.unanswered,
        counted: conservation.counted,
        lost: conservation.lost,
        extra: conservation.extra,
        ok: conservation.ok,
      },
    };
    const limitsAfter = limitsBefore && (await awsLimitsAt(url));
    if (limitsBefore && limitsAfter) summary.hotPoll = hotPollFigures(limitsBefore, limitsAfter, report);
    writeFileSync(join(dir, 'summary.json'), JSON.stringify({ ...summary, polls: conservation.polls }, null, 2));
    return {
      dir,
      ...(output === 'progress' ? { log } : {}),
      summary,
      conservation,
      ok: exitCode === 0 && conservation.ok,
    };
  } finally {
    if (ownRuntime) await runtime!.stop();
    await ownVps?.stop();
  }
}

/** The VPS edition with a throwaway data folder, rate limits off as for the local target. */
async function startOwnVps(): Promise<{ url: string; stop(): Promise<void> }> {
  const [{ startVpsServer }, { loadSite }, { mkdtempSync, rmSync }, { tmpdir }] = await Promise.all([
    import('../vps/server'),
    import('../vps/site'),
    import('node:fs'),
    import('node:os'),
  ]);
  const dataDir = mkdtempSync(join(tmpdir(), 'load-vps-'));
  const server = await startVpsServer({ dataDir, port: 0, rateLimits: false, site: await loadSite() });
  return {
    url: server.url,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A load test comes from one address: how to turn the per-address limits off on each target for it. */
const RATE_LIMITS_OFF: Record<LoadTarget, string> = {
  local: 'Start npm start with --rate-limits off for the test (the runtime npm run load starts has them off).',
  vps: 'Start the VPS edition with --rate-limits off for the test, then again without it (docs/vps.md).',
  localstack: 'Deploy with npm run localstack:deploy -- -c rateLimits=off to load-test (docs/localstack.md).',
  aws:
    "Deploy with npm run deploy -- -c rateLimits=off (and your design's flags) to load-test, " +
    'then deploy again without it (docs/deploy.md).',
};

export function formatSummary(result: LoadRunResult): string {
  const { summary: s, conservation } = result;
  const rate = `${s.requests} in ${s.durationSeconds.toFixed(1)} s = ${s.ratePerSecond.toFixed(0)}/s`;
  const errors = Object.keys(s.errors).length ? `; errors ${JSON.stringify(s.errors)}` : '';
  const { p50, p95, p99, max } = s.latencyMs;
  const counted = conservation.ok
    ? 'none lost, none counted twice'
    : `${s.votes.lost} LOST, ${s.votes.extra} COUNTED TWICE`;
  // Votes with no answer (or a 5xx) may be counted or not, as for any client that lost the answer.
  const unanswered = s.votes.unanswered > 0 ? `, ${s.votes.unanswered} unanswered (each may count)` : '';
  const lines = [
    `${s.scenario} on ${s.target} (${s.url})`,
    `  requests   ${rate}; status ${JSON.stringify(s.codes)}${errors}`,
    `  latency    p50 ${p50} ms, p95 ${p95} ms, p99 ${p99} ms (max ${max} ms)`,
    `  votes      ${s.votes.accepted} accepted (202)${unanswered}, ${s.votes.counted} counted: ${counted}`,
  ];
  for (const poll of conservation.polls.filter((p) => p.difference.some((d) => d !== 0))) {
    lines.push(
      `    poll ${poll.pollId}: accepted ${JSON.stringify(poll.accepted)}, counted ${JSON.stringify(poll.counted)}`,
    );
  }
  // A deployed stack keeps what it could not count: the local target's runtime is gone with the run.
  if (s.votes.lost > 0 && s.target !== 'local')
    lines.push(`  votes not counted may be in the dead-letter queue: npm run dlq -- inspect --target ${s.target}`);
  // Any 429 means the limits are on: even a few fail a scenario's checks.
  const limited = s.codes['429'] ?? 0;
  // With --aws-limits, the 429s are AWS's throttles at scale, which the hot-poll figures count by limit.
  if (limited > 0 && !s.hotPoll)
    lines.push(
      `  ${limited} of ${s.requests} requests were refused 429: the per-address rate limits are on. ` +
        RATE_LIMITS_OFF[s.target],
    );
  if (s.artilleryExitCode !== 0)
    lines.push(
      `  artillery exited ${s.artilleryExitCode}: a check or threshold failed ` +
        (result.log
          ? `(its output says which: ${shownPath(result.log)})`
          : "(artillery's output says which; --quiet hides most of it)"),
    );
  if (s.hotPoll) lines.push(...formatHotPoll(s.hotPoll));
  else if (s.scenario === HOT_POLL.scenario) lines.push(NO_LIMITS_HINT);
  lines.push(`  ${result.ok ? 'PASS' : 'FAIL'}; results in ${shownPath(result.dir)}`);
  return lines.join('\n');
}
