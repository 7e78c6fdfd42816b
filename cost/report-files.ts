/**
 * The files a cost report is read from and written to: the profile, the stack's template, the designs, a
 * measured run, the price books, a deployed stack's metrics; report.json, report.md, chart.svg and the explorer
 * (whose default page the servers show at /cost). `npm run cost` (cost/cli.ts holds its command line) and the
 * page's servers read them here; each reader is exported (the tests call them).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../domain/errors';
import { callerPath, makeFolder, PROJECT_ROOT, shownPath } from '../node/folders';
import { STACK_NAME } from '../config/stack';
import { MeasuredRunError, unitCostsFromUsage } from './usage/measured';
import {
  measureStack,
  type MetricsClient,
  type StackResourcesClient,
  windowHours,
  windowText,
} from './estimate/cloudwatch';
import { type CloudWatchBill, fitProfile, measuredLines, sqsCounted } from './estimate/cloudwatch-bill';
import { type CloudWatchTarget, cloudWatchFailure, parseWindow, stackNameFor } from './cloudwatch-command';
import { DEFAULT_STACK_SOURCE } from './estimate/designs';
import { estimate } from './estimate/model';
import type { BillOptions } from './estimate/bill';
import { readPriceBook, readPriceBooks, withViewersIn } from '../pricing/price-book';
import { DEFAULT_REGION } from '../pricing/regions';
import { DEFAULT_UNIT_COSTS, type UnitCosts } from './usage/unit-costs';
import { presetProfile, profileFromJson, PROFILES, ProfileError } from './usage/profiles';
import { boxOptions } from './usage/own-box';
import type { TrafficProfile } from './usage/traffic-profile';
import { renderChart } from './report/chart';
import { explorerHtml } from './report/explorer';
import { renderMarkdown } from './report/render-markdown';
import type { CostReport, ReportInput } from './estimate/build-report';
import { type NotPriced, readStack, type StackConfig } from './estimate/stack-config';
import { checkWorkerCurve, type ObservedLoad, type VpsCapacity, type VpsMeasurement } from './estimate/vps';

const COST_DIR = dirname(fileURLToPath(import.meta.url));
const DESIGNS_FILE = join(COST_DIR, 'estimate', 'designs.json');
const VPS_CAPACITY_FILE = join(COST_DIR, 'estimate', 'vps-capacity.json');
export const CDK_OUT_TEMPLATE = join(PROJECT_ROOT, 'cdk.out', `${STACK_NAME}.template.json`);
/** What npm run localstack:deploy synthesized (its own assembly: bin/localstack.ts). */
const LOCALSTACK_TEMPLATE = join(PROJECT_ROOT, 'cdk.out.localstack', `${STACK_NAME}.template.json`);

/** The profile `--profile` names: a preset, or a JSON file over the seed; a UsageError for anything else. */
export function loadProfile(value: string): TrafficProfile {
  const preset = presetProfile(value);
  if (preset) return preset;
  const file = callerPath(value);
  if (!existsSync(file)) {
    throw new UsageError(
      /[\\/]|\.json$/i.test(value)
        ? `--profile ${value}: no such file.`
        : `Unknown profile "${value}": use one of ${Object.keys(PROFILES).join(', ')}, or a JSON file.`,
    );
  }
  if (statSync(file).isDirectory()) throw new UsageError(`--profile ${value} is a folder: give a profile's JSON file.`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--profile ${value} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  try {
    // Named by its file, as a preset is by its name: the report's heading, the explorer's download.
    return profileFromJson(raw, basename(value).replace(/\.json$/i, ''));
  } catch (error) {
    if (error instanceof ProfileError) throw new UsageError(`--profile ${value}: ${error.message}`, { cause: error });
    throw error;
  }
}

/**
 * Each deployable design's template, read (cost/estimate/designs.json: npm run cost:snapshot writes it, a
 * test keeps it equal to the stack).
 */
export const loadDesigns = (): Record<string, StackConfig> => JSON.parse(readFileSync(DESIGNS_FILE, 'utf8'));

/** The stack to bill: --template, else cdk.out/, else the default design; a UsageError if it is not this stack. */
function loadStack(
  template: string | undefined,
  designs: Record<string, StackConfig>,
): { stack: StackConfig; source: string; notPriced?: NotPriced[] } {
  const file = template ?? (existsSync(CDK_OUT_TEMPLATE) ? CDK_OUT_TEMPLATE : undefined);
  if (!file)
    return {
      stack: designs.api,
      source: DEFAULT_STACK_SOURCE,
    };
  if (!existsSync(file)) throw new UsageError(`--template ${file}: no such file.`);
  try {
    // A template of this app changed in any way is priced for what it knows; the rest is named, never $0.
    const { stack, notPriced } = readStack(JSON.parse(readFileSync(file, 'utf8')));
    return { stack, source: shownPath(file), notPriced };
  } catch (error) {
    throw new UsageError(`${file} is not this stack's template: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * This app's capacity on a VPS: a bench:vps file; or the committed one beside what a load test of a
 * VPS showed (a floor). A UsageError for a missing file, another file, or a folder of a failed run.
 */
export function loadVpsCapacity(from: string | undefined): VpsCapacity {
  const source = from ?? VPS_CAPACITY_FILE;
  if (!existsSync(source))
    throw new UsageError(`--vps-from ${source}: no such file or folder (npm run bench:vps writes one).`);
  if (statSync(source).isDirectory()) return { ...loadVpsCapacity(undefined), observed: observedLoad(source) };
  try {
    const measurement = JSON.parse(readFileSync(source, 'utf8')) as VpsMeasurement;
    if (!measurement.routes?.options?.requestsPerSecond) throw new Error('it has no routes.options.requestsPerSecond');
    if (!measurement.cpu?.plain?.workers || !measurement.cpu.tls)
      throw new Error(
        'it has no cpu.plain and cpu.tls (the CPU a request costs by set-up: run npm run bench:vps again)',
      );
    // A bench of one box measures two workers at most: how more grow comes from the committed many-core run.
    const curve = measurement.workerCurve ?? (from ? loadVpsCapacity(undefined).measurement.workerCurve : undefined);
    return { measurement: { ...measurement, workerCurve: checkWorkerCurve(curve) }, source: shownPath(source) };
  } catch (error) {
    throw new UsageError(`--vps-from ${source} is not what npm run bench:vps writes: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** What a load test's folder says about its run (summary.json), if it has one. */
function runSummary(folder: string) {
  const summaryFile = join(folder, 'summary.json');
  return existsSync(summaryFile)
    ? (JSON.parse(readFileSync(summaryFile, 'utf8')) as {
        scenario?: string;
        target?: string;
        url?: string;
        ratePerSecond?: number;
        latencyMs?: { p99?: number };
        artilleryExitCode?: number;
        votes?: { ok?: boolean };
      })
    : undefined;
}

/** A load test's folder of the VPS edition: what it ran, where, and what it reached. A failed run shows nothing. */
function observedLoad(folder: string): ObservedLoad {
  const summary = runSummary(folder);
  if (summary?.target !== 'vps' || !summary.ratePerSecond)
    throw new UsageError(
      `--vps-from ${folder} is not a load test of the VPS edition ` +
        '(npm run load -- <scenario> --target vps writes one).',
    );
  if (summary.artilleryExitCode !== 0 || summary.votes?.ok === false)
    throw new UsageError(
      `--vps-from ${folder} is a failed run (see its summary.json): it shows nothing about the box.`,
    );
  return {
    source: folder,
    scenario: summary.scenario ?? 'a scenario',
    url: summary.url ?? 'the VPS',
    ratePerSecond: summary.ratePerSecond,
    p99Ms: summary.latencyMs?.p99 ?? 0,
  };
}

/** Why a run has no usage.json, from what its summary.json recorded. */
function unmeteredCause(summary: ReturnType<typeof runSummary>): string {
  const again = `npm run load -- ${summary?.scenario ?? '<scenario>'}`;
  switch (summary?.target) {
    // The runtime npm run load starts is metered; one it only reached (--url) keeps its usage to itself.
    case 'local':
      return `it was run with --url ${summary.url}, a runtime it did not start: ${again} without --url meters one.`;
    case 'vps':
      return 'it is a load test of the VPS edition, whose cost is its box: give it to --vps-from instead.';
    case 'aws':
    case 'localstack':
      return `it ran against a deployed stack (${summary.target}), whose usage is on its bill: ${again} meters one.`;
    default:
      return 'only a run of npm run load against the runtime it starts (the local target, no --url) is metered.';
  }
}

/** Per-operation usage measured by a load test's run folder; a UsageError if it has none to give. */
export function loadMeasured(folder: string): { units: UnitCosts; measured: NonNullable<CostReport['measured']> } {
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new UsageError(`--from ${folder}: no such folder (npm run load writes one under load-tests/results/).`);
  const usageFile = join(folder, 'usage.json');
  if (!existsSync(usageFile)) {
    if (readdirSync(folder).length === 0) throw new UsageError(`--from ${folder} is empty: its run did not finish.`);
    throw new UsageError(`--from ${folder} has no usage.json: ${unmeteredCause(runSummary(folder))}`);
  }
  try {
    const result = unitCostsFromUsage(JSON.parse(readFileSync(usageFile, 'utf8')), folder);
    return {
      units: result.units,
      measured: { label: folder, votes: result.observed.votes, apiRequests: result.observed.apiRequests },
    };
  } catch (error) {
    if (error instanceof MeasuredRunError || error instanceof SyntaxError)
      throw new UsageError(error.message, { cause: error });
    throw error;
  }
}

/** What a report's input holds whatever its usage came from: the profile, the stacks, the VPS's figures. */
function pricedOn(
  profile: TrafficProfile,
  { stack, source, notPriced }: ReturnType<typeof loadStack>,
  designStacks: ReturnType<typeof loadDesigns>,
  values: { 'vps-from'?: string; 'new-account': boolean; region?: string; books?: string },
  units: UnitCosts,
): ReportInput {
  return {
    profile,
    stack,
    stackSource: source,
    ...(notPriced?.length ? { notPriced } : {}),
    designStacks,
    vpsCapacity: loadVpsCapacity(values['vps-from']),
    units,
    options: billOptions(values, stack, profile),
  };
}

/**
 * The bill's options: a new account or not, and the book of the region asked for (--region, else the profile's),
 * else of the stack's region; CloudFront where the profile's viewers are.
 */
export function billOptions(
  values: { 'new-account': boolean; region?: string; books?: string },
  stack: StackConfig,
  profile?: TrafficProfile,
): BillOptions {
  const region = values.region ?? profile?.region ?? stack.region ?? DEFAULT_REGION;
  const book = readPriceBook(region, values.books);
  const viewers = profile?.viewersIn;
  return { newAccount: values['new-account'], book: viewers ? withViewersIn(book, viewers, values.books) : book };
}

/** The options a report is read as (npm run cost's: cost/cli.ts COST_COMMAND). */
export interface ReportOptions {
  profile: string;
  from?: string;
  template?: string;
  'vps-from'?: string;
  'new-account': boolean;
  region?: string;
  books?: string;
  currency?: string;
  vps?: string;
}

/** Everything the report needs, read as the options say; a UsageError for any input it cannot use. */
export function reportInput(values: ReportOptions): ReportInput {
  const yours = boxOptions(values);
  const designStacks = loadDesigns();
  const run = values.from ? loadMeasured(values.from) : undefined;
  const input = pricedOn(
    { ...loadProfile(values.profile), ...yours },
    loadStack(values.template, designStacks),
    designStacks,
    values,
    run?.units ?? DEFAULT_UNIT_COSTS,
  );
  return { ...input, measured: run?.measured };
}

/** The options --from-cloudwatch reads: a report's, and the window and stack it measures. */
export interface CloudWatchOptions extends ReportOptions {
  'from-cloudwatch': boolean;
  target: string;
  stack?: string;
  since?: string;
  hours?: string;
  out: string;
}

/**
 * --from-cloudwatch: the deployed stack's measured month, and the report of the profile that fits it,
 * its file written to `out`. Clients are injected by the tests; a failure of theirs is one line (CommandFailure).
 */
export async function cloudWatchInput(
  values: CloudWatchOptions,
  clients?: {
    stacks: StackResourcesClient;
    metrics: MetricsClient;
    globalMetrics: MetricsClient;
    /** The region the metrics are read in (AWS's): the one the bill is priced for. */
    region?: () => Promise<string>;
  },
  now = new Date(),
): Promise<ReportInput> {
  const target = values.target as CloudWatchTarget;
  const yours = boxOptions(values);
  const window = parseWindow(values, now);
  const stackName = stackNameFor(target, values.stack);
  const designStacks = loadDesigns();
  // LocalStack's stack is the one its deploy synthesized, where there is one.
  const template =
    values.template ?? (target === 'localstack' && existsSync(LOCALSTACK_TEMPLATE) ? LOCALSTACK_TEMPLATE : undefined);
  const priced = loadStack(template, designStacks);
  const { stack, source } = priced;
  let measurement: Awaited<ReturnType<typeof measureStack>>;
  let readIn: string | undefined;
  try {
    // The SDK only when it is asked for: cost/ loads none.
    const sdk = clients ? undefined : await import('../node/cloudwatch-sdk');
    const used = clients ?? sdk!.cloudWatchClients(target);
    measurement = await measureStack(used, stackName, window);
    // LocalStack's region is an emulator's: the stack's own says where it would run.
    readIn = target === 'aws' ? await used.region?.() : undefined;
  } catch (error) {
    throw cloudWatchFailure(error, { target, stackName });
  }
  const profile = fitProfile(measurement, stack, `measured-${stackName}`);
  const profilePath = join(makeFolder(values.out), 'fitted-profile.json');
  writeFileSync(profilePath, `${JSON.stringify(profile, null, 2)}\n`);
  const profileFile = shownPath(profilePath);
  const priceAs = { ...values, region: values.region ?? readIn };
  const options = billOptions(priceAs, stack);
  const fitted = estimate(profile, stack, DEFAULT_UNIT_COSTS, options);
  const lines = measuredLines(measurement, stack, fitted, options);
  const measuredOnly = lines.filter((l) => l.measured);
  const cloudWatch: CloudWatchBill = {
    label: `measured over ${windowText(window)}, projected to a month`,
    stackName,
    target,
    window: { start: window.start.toISOString(), end: window.end.toISOString(), hours: windowHours(window) },
    measurement,
    sqsCounted: sqsCounted(measurement),
    lines,
    measuredUsd: measuredOnly.reduce((sum, l) => sum + l.measured!.usd, 0),
    estimatedUsdOfMeasuredLines: measuredOnly.reduce((sum, l) => sum + l.estimate.usd, 0),
    profile,
    profileFile,
    reproduce: `npm run cost -- --profile ${profileFile}${template ? ` --template ${source}` : ''}`,
  };
  return { ...pricedOn({ ...profile, ...yours }, priced, designStacks, priceAs, DEFAULT_UNIT_COSTS), cloudWatch };
}

/**
 * Writes report.json, chart.svg, report.md and report.html (the explorer, opened on this report's
 * profile) into `folder` (made if missing); returns its path.
 */
export function writeReports(input: ReportInput, report: CostReport, folder: string): string {
  const out = makeFolder(folder);
  writeFileSync(join(out, 'report.json'), JSON.stringify(report, null, 2));
  writeFileSync(join(out, 'chart.svg'), renderChart(report));
  writeFileSync(join(out, 'report.md'), renderMarkdown(report, 'chart.svg'));
  // The explorer offers each book beside the one priced, from the same folder.
  writeFileSync(join(out, 'report.html'), explorerHtml(input, readPriceBooks(dirname(input.options.book.file))));
  return out;
}

let defaultExplorer: string | undefined;
/** The explorer as `npm run cost` with no options writes it: what the servers show at /cost (built once). */
export function defaultExplorerPage(): string {
  defaultExplorer ??= explorerHtml(reportInput({ profile: 'seed', 'new-account': false }), readPriceBooks());
  return defaultExplorer;
}
