/**
 * A bill in words, as the full working prints it (cost/report/working.ts): its lines as table rows, its
 * total's sentences (credits, a price per million votes), its largest lines, what it costs idle and how
 * often it starts cold; the measured bill of --from-cloudwatch beside its estimate; and the price sheet and
 * quotas it rests on.
 */
import type { CloudWatchBill } from '../estimate/cloudwatch-bill';
import { AWS_COLD_START_SHARE, coldStartShareOfAll, ENVIRONMENT_IDLE_LIFETIME } from '../estimate/cold-starts';
import { percent, percentFine, quantity, usd } from '../estimate/format';
import type { Bill, BillLine } from '../estimate/bill';
import type { FunctionRole } from '../usage/unit-costs';
import { QUOTAS, type QuotaId } from '../../config/aws-quotas';
import { quota } from '../../sizing/quotas';
import { howToRaise } from '../estimate/stages';
import type { Price, PriceBook } from '../../pricing/price-book';
import { NEW_ACCOUNT_CREDITS } from '../../pricing/plans-and-credits';
import { signedUsd } from '../estimate/format';

export function billRows(bill: Bill): string[][] {
  return bill.lines.map((l) => [
    l.service,
    l.item + (l.assumption ? ' *' : ''),
    // In the unit of the price beside it, named.
    `${quantity(l.usage)} ${l.unit}${l.billable < l.usage ? ` (${quantity(l.billable)} billed)` : ''}`,
    l.unitPrice,
    usd(l.usd),
  ]);
}

/** What the credits line says of them: once, and the first month they leave. */
export const creditsNote = (bill: Bill) =>
  `once: the first month is ${usd(bill.totalUsd - bill.creditsUsd)} (AWS gives $${NEW_ACCOUNT_CREDITS.usd} at ` +
  `sign-up since ${NEW_ACCOUNT_CREDITS.since}; $${NEW_ACCOUNT_CREDITS.toEarnUsd} more for activities, not counted)`;

/** "$19.09 per million votes", or that there were no votes. */
export const perMillionVotes = (bill: Bill) =>
  bill.usdPerMillionVotes === undefined ? 'no votes' : `${usd(bill.usdPerMillionVotes)} per million votes`;

function largest(bill: Bill, n: number) {
  return [...bill.lines].sort((a, b) => b.usd - a.usd).slice(0, n);
}

/** What an idle deployment still uses, and why it costs what it does. */
function idleLines(idle: Bill): string {
  if (idle.lines.length === 0) return 'nothing is billed without requests';
  const cost = (l: BillLine) => (l.usd === 0 ? ', inside the free tier' : `, ${usd(l.usd)}`);
  return idle.lines.map((l) => `${l.service} ${l.item}: ${quantity(l.usage)} ${l.unit}${cost(l)}`).join('; ');
}

/** The bill of a stack in a few sentences, after its table: idle, its largest lines. */
export function headline(bill: Bill, idle?: Bill): string[] {
  return [
    ...(idle ? [`Idle, with no traffic at all: ${usd(idle.totalUsd)} a month (${idleLines(idle)}).`] : []),
    `Largest lines: ${largest(bill, 3)
      .map((l) => `${l.service} ${l.item} ${usd(l.usd)}`)
      .join('; ')}.`,
    ...coldStartLine(bill),
  ];
}

/** The share of the month's invocations that start cold, per function, and AWS's figure beside it. */
function coldStartLine(bill: Bill): string[] {
  const { invocations, coldStartShares } = bill.usage;
  const share = coldStartShareOfAll(invocations, coldStartShares);
  if (!(share > 0)) return [];
  const perFunction = (Object.keys(invocations) as FunctionRole[])
    .filter((role) => invocations[role] > 0)
    .map((role) => `${role} ${percentFine(coldStartShares[role])}`)
    .join(', ');
  const aws = AWS_COLD_START_SHARE.below;
  return [
    `Cold starts: ${percentFine(share)} of the month's invocations start cold, each billing its INIT ` +
      `(${perFunction}): a function starts cold after ${ENVIRONMENT_IDLE_LIFETIME.seconds / 60} minutes ` +
      'without a request (AWS publishes no idle lifetime; the last measurement, 2019), and for each environment ' +
      `a poll needs when none was open. AWS: under ${percent(aws)} in production; ` +
      (share < aws ? 'this traffic is within it.' : 'this traffic is sparser than that.'),
  ];
}

/** The measured bill's heading: what, where, over which window. */
export const cloudWatchTitle = (cw: CloudWatchBill) =>
  `${cw.label[0].toUpperCase()}${cw.label.slice(1)}: stack ${cw.stackName} (${cw.target}), read from CloudWatch`;

export const cloudWatchHead = ['Item', 'In the window', 'A month', 'Unit price', 'Monthly', 'Estimate', 'Difference'];

/** The measured lines beside the fitted profile's estimate; a line with no datapoints says so, never $0.00. */
export function cloudWatchRows(cw: CloudWatchBill): string[][] {
  return cw.lines.map((l) => [
    `${l.service} ${l.item}`,
    l.measured ? `${quantity(l.measured.windowUsage)} ${l.unit}` : l.notMeasured!,
    l.measured ? `${quantity(l.measured.monthUsage)} ${l.unit}` : '',
    l.unitPrice,
    l.measured ? usd(l.measured.usd) : 'not measured',
    usd(l.estimate.usd),
    l.differenceUsd === undefined ? '' : signedUsd(l.differenceUsd),
  ]);
}

/** API requests route by route, where the stage has detailed metrics on. */
function routeLine(cw: CloudWatchBill): string[] {
  const routes = Object.entries(cw.measurement.api?.routes ?? {});
  if (routes.length === 0) return ['API requests by route: not measured (the stage has no detailed metrics).'];
  return [`API requests by route in the window: ${routes.map(([r, n]) => `${r} ${quantity(n)}`).join(', ')}.`];
}

/** What follows the measured table: the totals, how queue requests were counted, the fitted profile. */
export function cloudWatchNotes(cw: CloudWatchBill): string[] {
  const measured = cw.lines.filter((l) => l.measured).length;
  return [
    `Measured lines (${measured} of ${cw.lines.length}): ${usd(cw.measuredUsd)} a month; the estimate of the same ` +
      `lines ${usd(cw.estimatedUsdOfMeasuredLines)} (${signedUsd(cw.measuredUsd - cw.estimatedUsdOfMeasuredLines)}). ` +
      'Lines not measured are not in the measured total.',
    `SQS requests counted as ${cw.sqsCounted}.`,
    ...routeLine(cw),
    `Estimate: profile "${cw.profile.name}", the profile that best fits the measured mix` +
      (cw.profileFile ? ` (written to ${cw.profileFile}: ${cw.reproduce} reproduces it)` : '') +
      "; every estimate in this report is that profile's.",
  ];
}

/** Every price the model uses, with its tiers, its source and when it was checked. */
export const priceSheetHead = ['Item', 'Price', 'Source', 'Checked'];
export const priceSheetRows = (book: PriceBook) =>
  Object.values(book.prices).map((p: Price) => [
    `${p.service} ${p.item}`,
    `${p.tiers.map((t) => `$${t.price}`).join(' → ')} per ${p.unit}` +
      (p.bytes ? ` of ${p.bytes.perUnit.toLocaleString('en-US')} bytes` : ''),
    p.bytes ? `${p.source}; the GB: ${p.bytes.source}` : p.source,
    p.checked,
  ]);

/** Every quota the capacity verdicts use, its value in the Region priced, how to raise it, its source and date. */
export const quotaHead = ['Quota', 'Value', 'Per', 'How to raise it', 'Source', 'Checked'];
export const quotaRows = (region: string) =>
  (Object.keys(QUOTAS) as QuotaId[]).map((id) => {
    const q = QUOTAS[id];
    return [q.name, `${quantity(quota(id, region))} ${q.unit}`, q.scope, howToRaise(id), q.source, q.checked];
  });
