/**
 * `npm run cost -- --profile seed`: the monthly AWS bill for a traffic profile, beside the VPS
 * baseline. `npm run cost -- --help` for the options. The only file of cost/ that touches files.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, runCommand, UsageError } from '../bin/command-line';
import { MeasuredRunError, unitCostsFromUsage } from './measured';
import { DEFAULT_UNIT_COSTS, type UnitCosts } from './model';
import { presetProfile, profileFromJson, PROFILES, ProfileError, type TrafficProfile } from './profiles';
import { buildReport, renderChart, renderHtml, renderMarkdown, renderText, type CostReport } from './report';
import { readStackConfig, type StackConfig } from './stack-config';

const COST_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(COST_DIR, '..');
const STACK_SNAPSHOT = join(COST_DIR, 'stack-config.json');
const CDK_OUT_TEMPLATE = join(ROOT, 'cdk.out', 'ServerlessPoll.template.json');

const SPEC = {
  command: 'npm run cost --',
  summary: 'The monthly AWS bill for a traffic profile, line by line with dated prices, beside the VPS it usually runs on.',
  options: {
    profile: { type: 'string', default: 'seed', value: '<name|file.json>', description: `a preset (${Object.keys(PROFILES).join(', ')}) or a JSON file of fields over the seed preset` },
    from: { type: 'string', value: '<results folder>', description: 'per-vote and per-view usage measured by a local load test (npm run load writes the folder)' },
    template: { type: 'string', value: '<file>', description: 'the synthesized template to price (default: cdk.out/ after npx cdk synth, else cost/stack-config.json)' },
    'new-account': { type: 'boolean', default: false, description: 'count the free tiers only accounts in their first 12 months get' },
    out: { type: 'string', default: 'cost-report', value: '<folder>', description: 'where report.json, report.md, report.html and chart.svg go' },
  },
  details: ['Examples:', '  npm run cost -- --profile club', '  npm run cost -- --from load-tests/results/vote-storm-local-<time>', '  npx cdk synth && npm run cost'],
} as const;

function loadProfile(value: string): TrafficProfile {
  const preset = presetProfile(value);
  if (preset) return preset;
  if (!existsSync(value)) {
    throw new UsageError(
      /[\\/]|\.json$/i.test(value)
        ? `--profile ${value}: no such file.`
        : `Unknown profile "${value}": use one of ${Object.keys(PROFILES).join(', ')}, or a JSON file.`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(value, 'utf8'));
  } catch (error) {
    throw new UsageError(`--profile ${value} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return profileFromJson(raw, value);
  } catch (error) {
    if (error instanceof ProfileError) throw new UsageError(`--profile ${value}: ${error.message}`);
    throw error;
  }
}

function loadStack(template: string | undefined): { stack: StackConfig; source: string } {
  const file = template ?? (existsSync(CDK_OUT_TEMPLATE) ? CDK_OUT_TEMPLATE : undefined);
  if (!file) return { stack: JSON.parse(readFileSync(STACK_SNAPSHOT, 'utf8')), source: 'cost/stack-config.json (kept equal to the stack by the tests; `npx cdk synth` to read cdk.out/)' };
  if (!existsSync(file)) throw new UsageError(`--template ${file}: no such file.`);
  try {
    return { stack: readStackConfig(JSON.parse(readFileSync(file, 'utf8'))), source: file.replace(`${ROOT}/`, '') };
  } catch (error) {
    throw new UsageError(`${file} is not this stack's template: ${(error as Error).message}`);
  }
}

/** Per-operation usage measured by a load test's run folder. */
function loadMeasured(folder: string): { units: UnitCosts; measured: NonNullable<CostReport['measured']> } {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`--from ${folder}: no such folder (npm run load writes one under load-tests/results/).`);
  const usageFile = join(folder, 'usage.json');
  if (!existsSync(usageFile)) {
    const files = readdirSync(folder);
    throw new UsageError(
      files.length === 0
        ? `--from ${folder} is empty: its run did not finish.`
        : `--from ${folder} has no usage.json: only runs against the local target are metered (a deployed stack's usage is on its AWS bill).`,
    );
  }
  try {
    const result = unitCostsFromUsage(JSON.parse(readFileSync(usageFile, 'utf8')), folder);
    return { units: result.units, measured: { label: folder, votes: result.observed.votes, apiRequests: result.observed.apiRequests } };
  } catch (error) {
    if (error instanceof MeasuredRunError || error instanceof SyntaxError) throw new UsageError(error.message);
    throw error;
  }
}

const { values } = parseCommandLine(SPEC);
let input!: { profile: TrafficProfile; stack: StackConfig; source: string; units: UnitCosts; measured?: CostReport['measured'] };
await runCommand(SPEC, () => {
  const profile = loadProfile(values.profile);
  const { stack, source } = loadStack(values.template);
  const run = values.from ? loadMeasured(values.from) : undefined;
  input = { profile, stack, source, units: run?.units ?? DEFAULT_UNIT_COSTS, measured: run?.measured };
});
const { profile, stack, source, units, measured } = input;

const report = buildReport({ profile, stack, stackSource: source, units, options: { newAccount: values['new-account'] }, measured });
console.log(renderText(report));
const out = resolve(values.out!);
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'report.json'), JSON.stringify(report, null, 2));
writeFileSync(join(out, 'chart.svg'), renderChart(report));
writeFileSync(join(out, 'report.md'), renderMarkdown(report, 'chart.svg'));
writeFileSync(join(out, 'report.html'), renderHtml(report));
console.log(`\nReports: ${join(out, 'report.html')} (with the chart), report.md, report.json, chart.svg`);
