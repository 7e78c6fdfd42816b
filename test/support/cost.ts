/**
 * The cost model's test inputs, shared by its test files: a design's stack as the model reads it
 * (synthesized once per worker), a bill's line by price, and the report npm run cost builds,
 * built without starting the command.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiKind } from '../../config/stack';
import { reportInput } from '../../cost/report-files';
import type { Bill, BillLine } from '../../cost/estimate/bill';
import { QUOTAS, type QuotaId } from '../../config/aws-quotas';
import { buildReport, type CostReport } from '../../cost/estimate/build-report';
import { readStackConfig, type StackConfig } from '../../cost/estimate/stack-config';
import { synthesizeTemplate } from '../../lib/app';
import { templateFor } from './synth';

/** Changes a quota's value for the test that calls it; each file puts them back after each test (restoreQuotas). */
const changedQuotas = new Map<QuotaId, number>();
export const setQuota = (id: QuotaId, value: number) => {
  if (!changedQuotas.has(id)) changedQuotas.set(id, QUOTAS[id].value);
  (QUOTAS[id] as { value: number }).value = value;
};
export function restoreQuotas(): void {
  for (const [id, value] of changedQuotas) (QUOTAS[id] as { value: number }).value = value;
  changedQuotas.clear();
}

const stacks = new Map<string, StackConfig>();

/** A design's stack as the model reads it, from its template synthesized with these -c flags (`{}`: the default). */
export function designStack(context: Record<string, string> = {}): StackConfig {
  const key = JSON.stringify(context);
  let stack = stacks.get(key);
  if (!stack) {
    const apiKindOnly = Object.keys(context).every((flag) => flag === 'apiKind');
    // The API kinds' templates are cached already (the stack's tests use them too).
    const template = apiKindOnly
      ? templateFor((context.apiKind ?? 'http') as ApiKind).toJSON()
      : synthesizeTemplate(context);
    stack = readStackConfig(template);
    stacks.set(key, stack);
  }
  return stack;
}

/** The line of a bill that a price is billed on (a test fails on its absence where it reads it). */
export const billLine = (bill: Bill, priceId: string): BillLine => bill.lines.find((l) => l.priceId === priceId)!;

let templateFile: string | undefined;

/** The HTTP API template in a file, as --template reads it (so no cdk.out/ of the machine's decides the stack). */
export function httpTemplateFile(): string {
  if (!templateFile) {
    templateFile = join(mkdtempSync(join(tmpdir(), 'template-')), 'template.json');
    writeFileSync(templateFile, JSON.stringify(templateFor('http').toJSON()));
  }
  return templateFile;
}

/** The report npm run cost builds for these options (the seed profile and the HTTP API template unless given). */
export function costReport(
  options: {
    profile?: string;
    from?: string;
    'vps-from'?: string;
    'new-account'?: boolean;
    currency?: string;
    vps?: string;
  } = {},
): CostReport {
  return buildReport(reportInput({ profile: 'seed', template: httpTemplateFile(), 'new-account': false, ...options }));
}

/**
 * The text report as a person reads it, its prose unwrapped (renderText wraps at 100 columns,
 * continuing a line with two spaces, and an assumption with four).
 */
export const unwrapped = (text: string) => text.replace(/\n {4}(?=\S)/g, ' ').replace(/\n {2}(?!- )(?=\S)/g, ' ');
