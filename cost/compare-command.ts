/**
 * `npm run cost -- --compare-to <base>`: the cost of a change between two synthesized templates of this app
 * (cost/estimate/compare-stacks.ts), printed as the terminal's cdk-diff-like view, markdown or JSON, with gates
 * that fail past a change in either direction. The options are cost/cli.ts's; this reads the files they name.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../node/command-line';
import { shownPath } from '../node/folders';
import { STACK_NAME } from '../config/stack';
import { billOptions, CDK_OUT_TEMPLATE, loadMeasured, loadProfile, loadVpsCapacity } from './report-files';
import { compareStacks, type SideInput, type StackComparison } from './estimate/compare-stacks';
import { usd } from './estimate/format';
import { readStack, TemplateError } from './estimate/stack-config';
import { compareJson, nothingChanged, renderCompareMarkdown, renderCompareText } from './report/compare-lines';
import { DEFAULT_UNIT_COSTS } from './usage/unit-costs';
import { boxOptions } from './usage/own-box';
import type { TrafficProfile } from './usage/traffic-profile';

export const COMPARE_FORMATS = ['text', 'markdown', 'json'] as const;

/** The options a comparison reads (cost/cli.ts COST_COMMAND defines them). */
export interface CompareOptions {
  'compare-to'?: string;
  template?: string;
  profile: string;
  from?: string;
  'vps-from'?: string;
  'new-account': boolean;
  region?: string;
  currency?: string;
  format: string;
  'fail-above'?: string;
  'fail-below'?: string;
  'quiet-if-unchanged': boolean;
}

/** The options that only a comparison takes. */
const COMPARE_ONLY = ['format', 'fail-above', 'fail-below', 'quiet-if-unchanged'] as const;

/** A gate: dollars a month, or a share of the base's month (`5%`). */
interface Gate {
  amount: number;
  percent: boolean;
}

function parseGate(option: string, value: string | undefined): Gate | undefined {
  if (value === undefined) return undefined;
  const match = /^([+-]?\d+(?:\.\d+)?)(%?)$/.exec(value.replace(/^\$/, ''));
  if (!match) throw new UsageError(`--${option} ${value}: give dollars a month (10, -5.50) or a percent (5%)`);
  return { amount: Number(match[1]), percent: match[2] === '%' };
}

/** The usage mistakes of a comparison's options, before any file is read; throws UsageError. */
export function checkCompareOptions(values: CompareOptions & { 'from-cloudwatch': boolean }, argv: string[]): void {
  const given = (name: string) => argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (values['compare-to'] === undefined) {
    const stray = COMPARE_ONLY.find(given);
    if (stray) throw new UsageError(`--${stray} is an option of --compare-to: give that too`);
    return;
  }
  if (values['from-cloudwatch']) throw new UsageError('--compare-to prices two templates, not a deployed stack');
  if (!(COMPARE_FORMATS as readonly string[]).includes(values.format))
    throw new UsageError(`--format ${values.format}: use ${COMPARE_FORMATS.join(', ')}`);
  parseGate('fail-above', values['fail-above']);
  parseGate('fail-below', values['fail-below']);
}

// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is JSON of any shape
type Json = any;

/** The template a path names: a file, or a cdk.out folder's template of this stack (or its only one). */
function templateAt(option: string, path: string): { template: Json; file: string } {
  if (!existsSync(path)) throw new UsageError(`${option} ${path}: no such file or folder`);
  let file = path;
  if (statSync(path).isDirectory()) {
    const templates = readdirSync(path).filter((name) => name.endsWith('.template.json'));
    const own = templates.find((name) => name === `${STACK_NAME}.template.json`);
    if (!own && templates.length !== 1)
      throw new UsageError(
        `${option} ${path} is not a cdk.out folder of this app: it has no ${STACK_NAME}.template.json ` +
          `(${templates.length} other templates)`,
      );
    file = join(path, own ?? templates[0]);
  }
  try {
    return { template: JSON.parse(readFileSync(file, 'utf8')), file };
  } catch (error) {
    throw new UsageError(`${option} ${path} is not a template: ${(error as Error).message}`, { cause: error });
  }
}

/** One side read and priced as npm run cost prices the profile: a UsageError for a file not a template of this app. */
function side(option: string, path: string, values: CompareOptions, profile: TrafficProfile): SideInput {
  const { template, file } = templateAt(option, path);
  try {
    const reading = readStack(template);
    return { template, reading, source: shownPath(file), options: billOptions(values, reading.stack, profile) };
  } catch (error) {
    if (error instanceof TemplateError) throw new UsageError(`${option} ${path}: ${error.message}`, { cause: error });
    throw error;
  }
}

/** Two templates of one app share the logical id of a function of theirs, or of the table or the queue. */
function sameApp(base: SideInput, head: SideInput): boolean {
  const ids = (s: SideInput) =>
    new Set(
      Object.entries(s.template.Resources as Record<string, Json>)
        .filter(([, r]) => ['AWS::DynamoDB::Table', 'AWS::SQS::Queue'].includes(r?.Type))
        .map(([id]) => id)
        .concat(Object.values(s.reading.functionIds)),
    );
  const baseIds = ids(base);
  return [...ids(head)].some((id) => baseIds.has(id));
}

/** The head: --template, else what npx cdk synth wrote to cdk.out/. */
function headPath(values: CompareOptions): string {
  if (values.template) return values.template;
  if (existsSync(CDK_OUT_TEMPLATE)) return CDK_OUT_TEMPLATE;
  throw new UsageError('--compare-to needs a head to compare: run npx cdk synth first, or give --template <file>');
}

/** The two templates priced for the profile; a UsageError for a base or head it cannot read as this app's. */
export function compareInput(values: CompareOptions): StackComparison {
  // The month's change in this currency too (--currency, else the profile's), its dollars beside.
  const currency = boxOptions({ currency: values.currency });
  const profile = { ...loadProfile(values.profile), ...currency };
  const base = side('--compare-to', values['compare-to']!, values, profile);
  const head = side('--template', headPath(values), values, profile);
  if (!sameApp(base, head))
    throw new UsageError(
      `--compare-to ${values['compare-to']} and ${head.source} are templates of two different apps: ` +
        'no function, table or queue of one is in the other',
    );
  return compareStacks({
    profile,
    units: values.from ? loadMeasured(values.from).units : DEFAULT_UNIT_COSTS,
    vpsCapacity: loadVpsCapacity(values['vps-from']),
    base,
    head,
  });
}

/** The line a gate fails with, if the change is past it; undefined when it passes. */
export function gateFailure(comparison: StackComparison, values: CompareOptions): string | undefined {
  const { old, deltaUsd } = comparison.total;
  const past = (option: 'fail-above' | 'fail-below', beyond: (delta: number, limit: number) => boolean) => {
    const gate = parseGate(option, values[option]);
    if (!gate) return undefined;
    const delta = gate.percent ? (old > 0 ? (deltaUsd / old) * 100 : 0) : deltaUsd;
    if (!beyond(delta, gate.amount)) return undefined;
    const shown = gate.percent ? `${delta.toFixed(1)}%` : `${delta < 0 ? '-' : '+'}${usd(Math.abs(delta))}`;
    const month = `${usd(old)} → ${usd(comparison.total.new)}`;
    return `The monthly bill moves ${shown} (${month}), past --${option} ${values[option]}.`;
  };
  return past('fail-above', (d, limit) => d > limit) ?? past('fail-below', (d, limit) => d < limit);
}

/** What the command prints (nothing, when asked to be quiet about no change) and the gate it fails, if any. */
export function compareOutput(comparison: StackComparison, values: CompareOptions): { text: string; failure?: string } {
  if (values['quiet-if-unchanged'] && nothingChanged(comparison)) return { text: '' };
  const text =
    values.format === 'json'
      ? JSON.stringify(compareJson(comparison), null, 2)
      : values.format === 'markdown'
        ? renderCompareMarkdown(comparison)
        : renderCompareText(comparison);
  return { text, failure: gateFailure(comparison, values) };
}
