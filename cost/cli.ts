/**
 * `npm run cost -- --profile seed`: the monthly AWS bill for a traffic profile,
 * beside the VPS baseline. Options:
 *   --profile <name|file.json>   a preset (seed, club, tv-show) or a JSON file over the seed preset
 *   --from <results folder>      measured mode: per-operation usage from a load test's usage.json
 *   --template <file>            the synthesized template to read (default: cdk.out/, else the checked snapshot)
 *   --new-account                count the free tiers that only new accounts get
 *   --out <folder>               where report.{json,md,html} and chart.svg go (default cost-report/)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MeasuredRunError, unitCostsFromUsage } from './measured';
import { DEFAULT_UNIT_COSTS } from './model';
import { PROFILES, ProfileError, validateProfile, type TrafficProfile } from './profiles';
import { buildReport, renderChart, renderHtml, renderMarkdown, renderText } from './report';
import { readStackConfig, type StackConfig } from './stack-config';

const COST_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(COST_DIR, '..');
const STACK_SNAPSHOT = join(COST_DIR, 'stack-config.json');
const CDK_OUT_TEMPLATE = join(ROOT, 'cdk.out', 'ServerlessPoll.template.json');

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function loadProfile(value: string): TrafficProfile {
  if (PROFILES[value]) return PROFILES[value];
  if (!existsSync(value)) fail(`Unknown profile "${value}". Use one of ${Object.keys(PROFILES).join(', ')}, or a JSON file.`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(value, 'utf8'));
  } catch (error) {
    fail(`${value} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return validateProfile({ name: value, description: `from ${value}`, ...(raw as object) });
  } catch (error) {
    if (error instanceof ProfileError) fail(`${value}: ${error.message}`);
    throw error;
  }
}

function loadStack(options: { template?: string }): { stack: StackConfig; source: string } {
  const template = options.template ?? (existsSync(CDK_OUT_TEMPLATE) ? CDK_OUT_TEMPLATE : undefined);
  if (template) return { stack: readStackConfig(JSON.parse(readFileSync(template, 'utf8'))), source: template.replace(`${ROOT}/`, '') };
  return { stack: JSON.parse(readFileSync(STACK_SNAPSHOT, 'utf8')), source: 'cost/stack-config.json (kept equal to the stack by the tests: npm run cost:snapshot; `npx cdk synth` to read cdk.out/)' };
}

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'seed' },
    from: { type: 'string' },
    template: { type: 'string' },
    'new-account': { type: 'boolean', default: false },
    out: { type: 'string', default: join(ROOT, 'cost-report') },
  },
});

const profile = loadProfile(values.profile!);
const { stack, source } = loadStack(values);
let units = DEFAULT_UNIT_COSTS;
let measured;
if (values.from) {
  const usageFile = join(values.from, 'usage.json');
  if (!existsSync(usageFile)) fail(`${usageFile} not found: --from takes a load-test results folder (npm run load writes one).`);
  try {
    const result = unitCostsFromUsage(JSON.parse(readFileSync(usageFile, 'utf8')), values.from);
    units = result.units;
    measured = { label: values.from, votes: result.observed.votes, apiRequests: result.observed.apiRequests };
  } catch (error) {
    if (error instanceof MeasuredRunError) fail(error.message);
    throw error;
  }
}

const report = buildReport({ profile, stack, stackSource: source, units, options: { newAccount: values['new-account'] }, measured });
console.log(renderText(report));
const out = resolve(values.out!);
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'report.json'), JSON.stringify(report, null, 2));
writeFileSync(join(out, 'chart.svg'), renderChart(report));
writeFileSync(join(out, 'report.md'), renderMarkdown(report, 'chart.svg'));
writeFileSync(join(out, 'report.html'), renderHtml(report));
console.log(`\nReports: ${join(out, 'report.html')} (with the chart), report.md, report.json, chart.svg`);
