/**
 * The answer, as `npm run cost` prints it by default: the verdict first (the design to deploy, the VPS box
 * beside it, which costs less and by how much, the one break-even between them), whether each carries the
 * busiest second, what to do before the peak, and the verdict again in one sentence at the end. Every
 * figure is one the full working (working.ts, `--detail`) prints in its tables: report.answer's.
 */
import { pricesLine } from '../../pricing/book-words';
import { EXCHANGE_RATES, rateText, staleRatesText } from '../../pricing/exchange-rates';
import {
  bottleneckName,
  MAX_RAMP_SECONDS,
  type QuotaRaiseNeeded,
  RAISE_HEADROOM,
  type Capacity,
} from '../estimate/capacity';
import type { Stage } from '../estimate/stages';
import { DEFAULT_STACK_SOURCE, isWarmUp } from '../estimate/designs';
import { domainDns } from '../estimate/dns';
import { AWS_COLD_START_SHARE, coldStartShareOfAll, ENVIRONMENT_IDLE_LIFETIME } from '../estimate/cold-starts';
import { money, percent, percentFine, quantity, usd, votesLabel } from '../estimate/format';
import { QUOTAS } from '../../config/aws-quotas';
import { type ObservedLoad, VPS_MAX_UTILISATION } from '../estimate/vps';
import type { CostReport, DesignRow } from '../estimate/build-report';
import type { VpsCost } from '../estimate/compare';
import { pastCurveText } from './vps-lines';
import type { RampOutcome } from '../estimate/consumer-ramp';
import { quota } from '../../sizing/quotas';

/** A second total without the always-free allowances is shown where they take more than this share off. */
export const FREE_ALLOWANCE_SHARE = 0.05;

/** How long Lambda takes to reach the peak, as a person reads it. */
export const scaleUp = (seconds: number) =>
  seconds === 0 ? 'at once' : seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;

/** A quota raise in words: the quota's name, from its value to what the peak needs. */
export const raiseText = (r: QuotaRaiseNeeded) => `${QUOTAS[r.quota].name} ${quantity(r.from)} → ${quantity(r.to)}`;

export const raisesText = (raises: QuotaRaiseNeeded[]) => raises.map(raiseText).join('; ');

/** A stage's load as a share of its limit: "52%", "125x", or "none to give" for a limit of 0. */
export function stageShare(s: Stage): string {
  if (s.limit === 0) return 'none to give';
  const share = s.load / s.limit;
  return share > 1.5 ? `${quantity(share)}x` : percent(share);
}

/** A stage's load against its limit, in the stage's own unit: "1,042 of 2,000 requests/s (52%)". */
export const stageLoad = (s: Stage) => `${quantity(s.load)} of ${quantity(s.limit)} ${s.unit} (${stageShare(s)})`;

/** The design's month without the always-free allowances, where they change it by more than a few percent. */
export function withoutFree(d: DesignRow): number | undefined {
  const { totalUsd, withoutFreeUsd } = d.bill;
  return withoutFreeUsd - totalUsd > FREE_ALLOWANCE_SHARE * withoutFreeUsd && withoutFreeUsd >= 0.01
    ? withoutFreeUsd
    : undefined;
}

/** "$0.98 a month ($2.40 without AWS's always-free allowances)", in the answer's currency. */
const awsMonth = (d: DesignRow, currency?: string) => {
  const full = withoutFree(d);
  const note = full === undefined ? '' : ` (${money(full, currency)} without the always-free allowances)`;
  return `${money(d.bill.totalUsd, currency)} a month${note}`;
};

/**
 * Why no VPS row carries the peak: the boxes' cores (the VPS's limit) or, where a box has the cores for it,
 * this edition's writer (the edition's limit, not the VPS's).
 */
const noBox = ({ vps, answer }: CostReport): string =>
  answer.vps.tier.yours
    ? 'your box does not carry'
    : vps.some((v) => v.coresCarry)
      ? "this edition's writer, not the box, keeps one VPS box short of"
      : 'no single VPS box carries';

/** Whether the stack read (cdk.out/, --template, else the default design) is another bill than the recommended. */
export function stackDiffers({ design, recommended, bill }: CostReport): boolean {
  return design !== recommended.id || Math.abs(bill.totalUsd - recommended.bill.totalUsd) >= 0.005;
}

/** The design the stack read is, by its name. */
export const designName = (report: CostReport) =>
  report.designs.find((d) => d.id === report.design)?.name ?? 'a stack of no listed design';

/** The name of the stack read, and where from. */
export const stackName = (report: CostReport) =>
  `${designName(report)} (${report.stack.apiKind.toUpperCase()} API; read from ${report.stackSource})`;

/**
 * Where the stack synthesized (cdk.out/, --template) is not the design above: that it was read, and where its
 * bill is. Not its price: the answer gives one AWS price.
 */
function stackReadLines(report: CostReport): string[] {
  return [...otherDesignLines(report), ...notPricedLines(report)];
}

function otherDesignLines(report: CostReport): string[] {
  if (!stackDiffers(report) || report.stackSource === DEFAULT_STACK_SOURCE) return [];
  const which = report.design === report.recommended.id ? 'this design with other settings' : designName(report);
  return [`The stack you synthesized is another: ${which}. --detail bills it too.`];
}

/** What the stack read holds that nothing here prices: named, by type and logical id, never billed as $0. */
function notPricedLines({ notPriced = [] }: Pick<CostReport, 'notPriced'>): string[] {
  if (notPriced.length === 0) return [];
  const named = notPriced.map((n) => `${n.type} ${n.logicalId}`);
  return [`Not priced (the bills leave them out): ${named.join(', ')}.`];
}

/** Which side costs less, in words. */
function cheaperText(report: CostReport): string {
  const { answer, profile } = report;
  const vps = answer.vps.tier.yours ? 'your box' : 'the VPS';
  switch (answer.cheaper) {
    case 'vps':
      return answer.savingUsd === undefined
        ? `${answer.vps.tier.yours ? vps : 'a VPS'}, since no AWS design carries its busiest second`
        : `${vps} is cheaper, by ${money(answer.savingUsd, profile.currency)} a month`;
    case 'aws':
      return answer.savingUsd === undefined
        ? `AWS, since ${noBox(report)} its busiest second`
        : `AWS is cheaper, by ${money(answer.savingUsd, profile.currency)} a month`;
    default:
      return 'neither side carries its busiest second';
  }
}

/** The one break-even: the recommended design against the verdict's box (`that box` or `your box`, or named). */
export function breakEvenText(
  report: CostReport,
  against = report.answer.vps.tier.yours ? 'your box' : 'that box',
): string {
  const { answer } = report;
  const even = answer.breakEven;
  if (!answer.vpsCarries) return `No break-even: ${noBox(report)} this peak.`;
  if (even.votes)
    return answer.cheaper === 'vps'
      ? `AWS is the cheaper one only below ${votesLabel(even.votes)} a month, against ${against}.`
      : `AWS stays the cheaper one up to ${votesLabel(even.votes)} a month, against ${against}.`;
  if (even.notCarried)
    return `Against ${against} AWS stays the cheaper one: their bills cross only past what it carries.`;
  return `No break-even with ${against} between 1,000 and 100 B votes a month.`;
}

/** The verdict in at most five lines: the answer, AWS's month and deploy command, the VPS's month, the break-even. */
export function verdictLines(report: CostReport): string[] {
  const { recommended: r, answer, profile, bill } = report;
  const box = answer.vps;
  const cur = profile.currency;
  return [
    `${profile.name}, ${votesLabel(bill.votes)} a month: ${cheaperText(report)}.`,
    `  AWS  ${awsMonth(r, cur)}: ${r.name}${r.carries ? '' : ' (it does not carry the peak: nothing AWS offers does)'}`,
    `       ${r.deploy ?? 'not deployable'}`,
    box.tier.yours
      ? `  VPS  ${money(box.totalUsd, cur)} a month: ${box.name}; ${ownLoad(box)}`
      : answer.vpsCarries
        ? `  VPS  ${money(box.totalUsd, cur)} a month: ${box.name}`
        : `  VPS  ${noBox(report).replace(' VPS box', ' box')} the peak; the nearest: ${box.name}, ` +
          money(box.totalUsd, cur),
    `  ${breakEvenText(report)}`,
    ...(answer.listed
      ? [
          `  Cheaper on the list: ${answer.listed.name}, ${money(answer.listed.totalUsd, cur)} a month, ` +
            `${percent(answer.listed.utilisation)} loaded at the peak.`,
        ]
      : []),
  ];
}

/** Whether the user's box carries the busiest second, and by how much: its load, or how far it falls short. */
const ownLoad = (box: VpsCost) =>
  box.carries
    ? `it carries the busiest second, ${percent(box.utilisation)} loaded (up to ${percent(VPS_MAX_UTILISATION)})`
    : `it does not carry the busiest second: ${box.why}`;

/** The verdict in one sentence, for the last line. */
export function closingSentence(report: CostReport): string {
  const { recommended: r, answer } = report;
  const box = answer.vps;
  const cur = report.profile.currency;
  const aws = `AWS's ${r.name} at ${money(r.bill.totalUsd, cur)} a month`;
  const vps = `${box.name} at ${money(box.totalUsd, cur)}`;
  const even = answer.breakEven.votes ? ` (break-even: ${votesLabel(answer.breakEven.votes)} a month)` : '';
  if (answer.cheaper === 'vps' && answer.savingUsd !== undefined)
    return `In short: ${vps} costs ${money(answer.savingUsd, cur)} a month less than ${aws}${even}.`;
  if (answer.cheaper === 'aws' && answer.savingUsd !== undefined)
    return `In short: ${aws} costs ${money(answer.savingUsd, cur)} less than ${vps}${even}.`;
  if (answer.cheaper === 'aws') return `In short: ${aws}; ${noBox(report)} this peak.`;
  if (answer.cheaper === 'vps') return `In short: ${vps}; no AWS design carries this peak.`;
  return `In short: neither side carries this peak; the nearest are ${aws} and ${vps}.`;
}

/** Whether the recommended design carries the busiest second, and where it binds first. */
function awsCarries({ recommended: r }: CostReport): string {
  const c = r.capacity;
  if (!r.carries)
    return `AWS: does not carry it, with every flag and quota raise (${bottleneckName(c) ?? 'no design'}).`;
  // The stages over their limit as deployed are the raises below; of the others, the fullest.
  const within = c.sizedStages.filter((s) => s.load <= s.limit && s.limit > 0);
  const stage = within.reduce<Stage | undefined>(
    (top, s) => (!top || s.load / s.limit > top.load / top.limit ? s : top),
    undefined,
  );
  const raised = within.length < c.sizedStages.length;
  const binds = stage
    ? `; ${raised ? 'of the stages needing no raise, the fullest' : 'the fullest stage'}: ` +
      `${stage.name}, ${stageLoad(stage)}`
    : '';
  const how = c.carries ? 'as deployed' : `deployed with the command above${raised ? ' and the raises below' : ''}`;
  return `AWS: carries it ${how}${binds}.`;
}

/** Whether the verdict's box carries the busiest second: what reaches it, what it serves, one ratio. */
function vpsCarries({ answer }: CostReport): string {
  const v = answer.vps;
  const past = v.cdn ? ' past the CDN' : '';
  return (
    `VPS: ${v.name} serves this mix at up to ${quantity(v.box.requestsPerSecond)} requests/s` +
    `${v.box.pastCurve ? ` (${pastCurveText(v)})` : ''}; ` +
    `${quantity(v.loadRps)} requests/s reach it${past}, ${percent(v.utilisation)} of that ` +
    `(${v.carries ? 'it carries' : 'it would carry'} up to ${percent(VPS_MAX_UTILISATION)} busy, ` +
    "the AWS side's headroom)"
  );
}

/** What the recommended design needs before the peak: quota raises, the table's warm-up, the scale-up, the stage. */
export function beforeThePeak(report: CostReport): string[] {
  const { recommended: r } = report;
  const needs = r.capacity.carriesWith;
  if (!r.carries || !needs) return [];
  const quotas = needs.quotaRaises.filter((q) => !isWarmUp(q));
  const warmUps = needs.quotaRaises.filter(isWarmUp);
  const noneWithout = !report.designs.some((d) => d.deploy && d.capacity.carries);
  const lines = [
    ...(quotas.length > 0
      ? [
          `Before the peak, ask AWS for (Service Quotas; docs/cost.md "Quotas"): ${raisesText(quotas)}.` +
            (noneWithout ? ' No design carries it without a quota raise.' : '') +
            cloudFrontQuotaNote(r, quotas),
        ]
      : []),
    ...warmUps.map(
      (w) =>
        `Warm the table before the peak: ${raiseText(w)} (UpdateTable ` +
        'WarmThroughput, docs/cost.md "Quotas"; charged, and not in this bill).',
    ),
    ...(needs.rampSeconds > 0
      ? [
          `Lambda takes about ${scaleUp(needs.rampSeconds)} to scale to the peak from idle: callers get 429s ` +
            'meanwhile (the page retries a vote with its key; results keep their last answer)' +
            (needs.rampSeconds > MAX_RAMP_SECONDS ? `, over the ${MAX_RAMP_SECONDS} s the verdict allows.` : '.'),
        ]
      : []),
    ...stageCapLine(r.capacity, report.options.book.region),
    ...consumerRampShort(report),
  ];
  return lines.length > 0 ? lines : ['It needs no quota raise and no warm-up.'];
}

/** How a ramp meets the peak: when, the backlog, how far results lag. */
const rampText = (r: RampOutcome) =>
  `${r.reachSeconds > 0 ? `there after ${scaleUp(r.reachSeconds)}` : 'there at once'}; ` +
  (r.backlogPeak > 0
    ? `up to ${quantity(r.backlogPeak)} votes wait in the queue (each still counted once)` +
      (r.drainedSeconds === undefined ? ', not drained within the hour' : `, drained after ${r.drainedSeconds} s`) +
      `, and results lag by up to ${Math.ceil(r.maxLagSeconds)} s`
    : 'no votes wait');

/** The vote consumer's ramp in a sentence: when on demand, and in provisioned mode (the working has the rest). */
function consumerRampShort({ consumerRamp: ramp }: CostReport): string[] {
  if (!ramp) return [];
  const { peak, onDemand, provisionedMin: min, provisionedReady: ready } = ramp;
  const reach = (r: RampOutcome) => (r.reachSeconds > 0 ? `after ${scaleUp(r.reachSeconds)}` : 'at once');
  return [
    `The vote consumer reaches the ${quantity(peak.neededConcurrency)} batches at once the peak needs ` +
      `${reach(onDemand)} on demand (votes wait in the queue meanwhile, results up to ` +
      `${Math.ceil(onDemand.maxLagSeconds)} s behind); in provisioned mode ${reach(min)} at ${min.pollers} pollers, ` +
      `at once with ${ready.pollers} (${usd(ready.usdPerHour)} an hour).`,
  ];
}

/** The vote consumer's ramp to the peak: on demand as deployed, and in provisioned mode with its cost. */
export function consumerRampLine({ consumerRamp: ramp }: CostReport): string[] {
  if (!ramp) return [];
  const { peak, onDemand, provisionedMin: min, provisionedReady: ready } = ramp;
  return [
    `The vote consumer (the SQS event source) needs ${quantity(peak.neededConcurrency)} batches at once for ` +
      `${quantity(peak.votesPerSecond)} votes/s. On demand (as deployed) it starts at ` +
      `${QUOTAS.esmInitialConcurrency.value} and adds ${QUOTAS.esmScalingPerMinute.value} a minute: ` +
      `${rampText(onDemand)}. Provisioned mode adds ${quantity(QUOTAS.esmProvisionedScalingPerMinute.value)} a ` +
      'minute: at ' +
      `its ${min.pollers} pollers (${usd(min.usdPerMonth)} a month) ${rampText(min)}; ${ready.pollers} pollers ` +
      `kept from before the peak meet it at once, ${usd(ready.usdPerHour)} an hour (${usd(ready.usdPerMonth)} a ` +
      'month kept all month). The stack has no flag for it: AWS does not say that provisioned mode takes a FIFO ' +
      `queue (${QUOTAS.esmScalingPerMinute.source}; checked ${QUOTAS.esmScalingPerMinute.checked}).`,
  ];
}

/**
 * Where the recommendation asks for more CloudFront requests a second, why no flat-rate plan (which has no such
 * quota) is priced instead: the month is more than the largest plan allows, or pay as you go costs less.
 */
function cloudFrontQuotaNote(r: DesignRow, quotas: QuotaRaiseNeeded[]): string {
  const cf = r.bill.cloudFront;
  if (!cf || !quotas.some((q) => q.quota === 'cloudFrontRequestsPerSecond')) return '';
  return cf.covering
    ? ` CloudFront is priced pay as you go: ${cf.why}, where a plan would have no requests/s quota.`
    : ` No CloudFront flat-rate plan, which has no requests/s quota, covers ${quantity(cf.requests)} requests a month.`;
}

/**
 * What AWS's newer prices say of the recommended design, where they matter to it: the share of invocations that
 * start cold where it is above AWS's "under 1%" (sparse traffic), and Lambda Managed Instances for the
 * function-URL design (the working has both in full).
 */
function awsSince2025(report: CostReport): string[] {
  const { recommended: r, managedInstances: mi } = report;
  const cur = report.profile.currency;
  const cold = coldStartShareOfAll(r.bill.usage.invocations, r.bill.usage.coldStartShares);
  const [results] = mi?.whatIfs ?? [];
  return [
    ...(cold >= AWS_COLD_START_SHARE.below
      ? [
          `Cold starts: ${percentFine(cold)} of its invocations start cold (traffic this sparse leaves environments ` +
            `idle past ${ENVIRONMENT_IDLE_LIFETIME.seconds / 60} minutes), each billing its INIT; AWS: under ` +
            `${percent(AWS_COLD_START_SHARE.below)} in production.`,
        ]
      : []),
    ...(results && r.id === 'function-url'
      ? [
          `With its results function on Lambda Managed Instances (${results.instances} instances; AWS keeps ` +
            `at least 3) it would cost ${money(results.bill.totalUsd, cur)} a month: ` +
            `${money(Math.abs(results.deltaUsd), cur)} ${results.deltaUsd < 0 ? 'less' : 'more'}.`,
        ]
      : []),
  ];
}

/** When -c apiRateLimit is capped at the account's throttle (AWS caps a stage there), how full that leaves it. */
function stageCapLine(capacity: Capacity, region: string): string[] {
  const account = quota('apiAccountRequestsPerSecond', region);
  const stage = capacity.sizedStages.find((s) => s.id === 'apiStageThrottle');
  if (capacity.carriesWith?.flags.apiRateLimit !== String(account) || !stage) return [];
  if (stage.load * RAISE_HEADROOM <= account) return [];
  return [
    `The stage throttle is the account's ${quantity(account)} requests/s, where AWS caps a stage: the peak's ` +
      `${quantity(stage.load)} use ${percent(stage.load / account)} of it, less than the quarter of headroom the ` +
      'other flags keep; ask AWS for a higher account throttle to keep it.',
  ];
}

/**
 * The rates the answer's currency and the user's box were converted at: their day, and where the source is
 * (`pointer`), or in full (`--detail`) the source; that they are old and how to update them, past a year at
 * `now`; none where all is in dollars.
 */
export function rateLines(
  { profile }: Pick<CostReport, 'profile'>,
  { full = false, pointer = '--detail gives the source', now = Date.now() } = {},
): string[] {
  const codes = [...new Set([profile.currency, profile.vps?.currency])].filter((c) => c && c !== 'USD') as string[];
  if (codes.length === 0) return [];
  const rates = codes.map(rateText).join(', ');
  const stale = staleRatesText(now);
  const said = full
    ? `Currencies converted at ${rates}: ${EXCHANGE_RATES.source} (pricing/exchange-rates.json, checked ` +
      `${EXCHANGE_RATES.checked})`
    : `Converted at the ECB's reference rate of ${EXCHANGE_RATES.date}: ${rates} (${pointer})`;
  return [`${said}${stale ? `; ${stale}` : ''}.`];
}

/** What a load test of the user's VPS showed, beside what this profile needs: a floor, not a capacity. */
export function observedLine(observed: ObservedLoad, designRps: number): string {
  const verdict =
    observed.ratePerSecond >= designRps
      ? `at least this profile's design rate of ${quantity(designRps)} req/s`
      : `a floor, below this profile's design rate of ${quantity(designRps)} req/s: ` +
        "a load test runs at its scenario's rate, so this says nothing of the box's maximum; " +
        'npm run bench:vps on the box measures that (pass its file to --vps-from to size from it)';
  return (
    `Your VPS (${observed.url}, ${observed.scenario}, ${observed.source}): ` +
    `served ${quantity(observed.ratePerSecond)} req/s at p99 ${observed.p99Ms} ms, ${verdict}.`
  );
}

/** Where per-operation usage was measured (--from). */
export const measuredUsage = ({ label, votes, apiRequests }: NonNullable<CostReport['measured']>) =>
  `Per-operation usage measured by ${label} (${votes} votes, ${apiRequests} API requests)`;

/** What the short answer adds for a measured bill or measured usage: one line each. */
function measuredLines({ cloudWatch: cw, measured }: CostReport): string[] {
  return [
    ...(cw
      ? [
          `Measured by CloudWatch (stack ${cw.stackName}, ${cw.target}, ${cw.label}): ${usd(cw.measuredUsd)} a month ` +
            'on the lines it measures; the estimate of those lines ' +
            `${usd(cw.estimatedUsdOfMeasuredLines)}. The answer ` +
            `is for the profile fitted to it${cw.reproduce ? ` (${cw.reproduce})` : ''}.`,
        ]
      : []),
    ...(measured ? [`${measuredUsage(measured)}.`] : []),
  ];
}

/**
 * The default output: the region and the book it is priced from, the verdict, each side on the busiest second,
 * what to do before it, a domain's DNS, where the full working is (`where`: the command with --detail, the
 * report files), the verdict again.
 */
export function answerLines(report: CostReport, where: string[]): string[] {
  const dns = domainDns(report.options.book, report.profile.currency);
  const credits = report.recommended.bill.creditsUsd;
  return [
    pricesLine(report.options.book),
    ...verdictLines(report),
    '',
    ...stackReadLines(report),
    ...measuredLines(report),
    `The busiest second, ${quantity(report.peak.requestsPerSecond)} requests/s:`,
    `  ${awsCarries(report)}`,
    `  ${vpsCarries(report)}.`,
    ...(report.vpsCapacity.observed ? [observedLine(report.vpsCapacity.observed, report.designRps)] : []),
    ...rateLines(report),
    ...beforeThePeak(report),
    ...awsSince2025(report),
    `Your own domain adds: ${dns.text}.`,
    ...(credits > 0
      ? [`A new account's sign-up credits take ${money(credits, report.profile.currency)} off its first month only.`]
      : []),
    '',
    ...where,
    '',
    closingSentence(report),
  ];
}
