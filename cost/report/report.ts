/**
 * The estimate as a person reads it: a terminal table, Markdown, and HTML with a chart of
 * monthly cost against monthly votes. It opens with the answer: the cheapest AWS design you can
 * deploy for the profile, the floor no AWS design can go under, and the VPS beside them.
 */
import {
  BUDGET_ALERT_PERCENTAGES,
  budgetFlagsFor,
  POLL_READ_CACHE_SECONDS,
  RESULTS_CACHE_SECONDS,
} from '../../config/app-config';
import { beforeThePeak, observedLine, raisesText, scaleUp, stageLoad, stageShare } from './answer';
import { carriesInTime, MAX_RAMP_SECONDS, RAISE_HEADROOM, type Stage } from '../estimate/capacity';
import { DEPLOY_SCRIPT } from '../estimate/designs';
import type { CloudWatchBill } from '../estimate/cloudwatch-bill';
import { CDN_PLANS } from '../estimate/cdn';
import type { VpsCost } from '../estimate/compare';
import { AWS_COLD_START_SHARE, coldStartShareOfAll, ENVIRONMENT_IDLE_LIFETIME } from '../estimate/cold-starts';
import { percent, percentFine, quantity, usd, usdSmall } from '../estimate/format';
import { MANAGED_INSTANCES, type ManagedInstancesWhatIf } from '../estimate/managed-instances';
import type { Bill, BillLine } from '../estimate/model';
import { batchCycleMs, type FunctionRole } from '../usage/unit-costs';
import { QUOTAS, raiseText, type QuotaId } from '../../config/aws-quotas';
import {
  CLOUDFRONT_FLAT_RATE_PLANS,
  CLOUDFRONT_FLAT_RATE_RULES,
  NEW_ACCOUNT_CREDITS,
  PRICES,
  type Price,
} from '../../config/aws-prices';
import { microsOfMix, pricedTls, requestsOf, VPS_MAX_UTILISATION, type RequestMix } from '../estimate/vps';
import { CAPACITY_REFERENCES, DEDICATED_VCPU, SHARED_VCPU } from '../estimate/vps-tiers';
import type { CostReport, DesignRow } from '../estimate/build-report';

/** Prose for a terminal: lines of at most `width` columns, continued with an indent. */
export function wrap(text: string, width = 100, indent = '  '): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

export function table(head: string[], rows: string[][], rightAligned: number[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const cell = (text: string, i: number) =>
    rightAligned.includes(i) ? text.padStart(widths[i]) : text.padEnd(widths[i]);
  return [
    head.map(cell).join('  '),
    widths.map((w) => '─'.repeat(w)).join('  '),
    ...rows.map((r) => r.map(cell).join('  ')),
  ].join('\n');
}

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

/** A signed difference in dollars: "+$1.20", "−$0.40". */
const signedUsd = (value: number) => `${value >= 0 ? '+' : '−'}${usd(Math.abs(value))}`;

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

export const DESIGNS_INTRO =
  'Every AWS design, each priced from its own template as its command deploys it; "x floor" is its month over ' +
  `the AWS floor; ← marks the cheapest that carries the busiest second; deploy with ${DEPLOY_SCRIPT} -- and the flags:`;
/** The mark on the recommended design's row, which the table's heading explains. */
export const RECOMMENDED_MARK = '←';
export const designHead = [
  `AWS design (${RECOMMENDED_MARK} the recommended)`,
  'Monthly',
  '$ per M req',
  'x floor',
  'Deploy',
];
/** The deploy cell: the whole command, or (in the terminal, where width is short) only its flags. */
const deployCell = (d: DesignRow, flagsOnly: boolean) =>
  d.deploy
    ? flagsOnly
      ? d.deploy.replace(`${DEPLOY_SCRIPT} -- `, '').replace(DEPLOY_SCRIPT, '') || '(no flags)'
      : d.deploy
    : 'not built';
export const designRows = (report: CostReport, flagsOnly = false) =>
  report.designs.map((d) => [
    d.name + (d.id === report.recommended.id ? ` ${RECOMMENDED_MARK}` : ''),
    usd(d.bill.totalUsd),
    orDash(d.usdPerMillionRequests, usdSmall),
    orDash(d.overFloor, (x) => `${x.toFixed(1)}x`),
    deployCell(d, flagsOnly),
  ]);

export const vpsHead = [
  'VPS (the VPS edition, one box)',
  'Processes',
  'Req/s at peak',
  'Capacity, req/s',
  'Carries? (load)',
  'Transfer',
  'Monthly',
  `Per M requests at ${percent(VPS_MAX_UTILISATION)}`,
];
/**
 * The columns a terminal has room for: the row (its vCPUs in its name; the prose under the table says
 * what runs on them), its load, capacity, verdict, month and break-even; and the transfer where a row pays
 * for going over its allowance (it can make a smaller box dearer).
 */
export const vpsTextColumns = (report: CostReport) =>
  report.vps.some((v) => v.overageUsd > 0) ? [0, 2, 3, 4, 5, 6] : [0, 2, 3, 4, 6];
/** A row's processes: one on a 1-vCPU box; on more, an HTTP worker per vCPU and the primary that owns the log. */
const processesOf = (v: VpsCost) => (v.box.workers ? `${v.box.workers} workers + primary` : 'one process');
/** Requests a second, route by route. */
const routesText = (mix: RequestMix) =>
  `pages ${quantity(mix.pages)}, poll reads ${quantity(mix.pollReads)}, votes and creates ${quantity(mix.votes)}, ` +
  `results ${quantity(mix.results)}: ${quantity(requestsOf(mix))} req/s`;
/**
 * How the VPS rows are worked out, in numbers: what reaches the box route by route, alone and behind a
 * CDN; the CPU a request of each mix costs; the capacity and the ceiling from them.
 */
export function vpsWorking(report: CostReport): string[] {
  const { cpu } = report.vpsCapacity.measurement;
  const tls = pricedTls(report.vpsCapacity.measurement);
  const alone = report.vps.find((v) => !v.cdn)!;
  const fronted = report.vps.find((v) => v.cdn);
  const micros = (mix: RequestMix) =>
    `${quantity(microsOfMix(tls.oneProcess, mix))} µs a request on one process, ` +
    `${quantity(microsOfMix(tls.workers, mix))} with workers, ` +
    `${quantity(microsOfMix(cpu.primaryMicrosPerRequest, mix))} of it in the primary`;
  return [
    'A box runs one process on 1 vCPU (npm run vps -- --workers auto), and on more an HTTP worker per vCPU ' +
      'and the primary that owns the log.',
    `What reaches the box at the peak, alone: ${routesText(alone.origin)}` +
      (fronted
        ? `; behind a CDN (each of a poll's caches asks for the page once, the poll once per ` +
          `${POLL_READ_CACHE_SECONDS} s, results once per ${RESULTS_CACHE_SECONDS} s): ${routesText(fronted.origin)}.`
        : '.'),
    `The CPU a request of that mix costs ${tls.says}, alone: ${micros(alone.origin)}` +
      (fronted ? `; behind a CDN: ${micros(fronted.origin)}.` : '.') +
      ` A box serves min(vCPUs × share × 1e6 / µs, share × 1e6 / the primary's µs) req/s, a ` +
      `${SHARED_VCPU.kind} counted at ${SHARED_VCPU.factor} and a ${DEDICATED_VCPU.kind} at ` +
      `${DEDICATED_VCPU.factor} (one process on one vCPU: no primary; a request's µs with workers as measured ` +
      'with 2, taken as the same with more), and carries ' +
      `at most ${percent(VPS_MAX_UTILISATION)} of it (1 / ${RAISE_HEADROOM}, the AWS side's headroom). The first ` +
      "term is the box's limit; the second, the writer's, is this edition's, whatever the box (\"(writer)\" in " +
      `the table). CPU figures: ${cpu.what}.`,
  ];
}
/** The seed documents' own figures beside the rows: their program, their machine, their conditions. */
export const referenceHead = ['Their figure (not this app; not used for sizing)', 'req/s', 'Monthly', 'Conditions'];
export const referenceRows = () =>
  CAPACITY_REFERENCES.map((ref) => [
    ref.name,
    quantity(ref.requestsPerSecond),
    'monthlyUsd' in ref ? usd(ref.monthlyUsd) : '—',
    `${ref.conditions} (${ref.source})`,
  ]);
/**
 * Each VPS row: its load, its capacity and one ratio of the two (the verdict's); the prose under the table
 * says why a row does not carry.
 */
export const vpsRows = (report: CostReport) =>
  report.vps.map((v) => [
    v.name,
    processesOf(v),
    quantity(v.loadRps),
    `${quantity(v.box.requestsPerSecond)}${v.box.binds === 'writer' ? ' (writer)' : ''}`,
    `${v.carries ? 'yes' : 'no'} (${percent(v.utilisation)})`,
    `${quantity(v.transferGb)} GB${v.overageUsd > 0 ? `, ${usd(v.overageUsd)} overage` : ''}` +
      (v.cdn && v.cdn.plan.usdPerGb > 0 ? `; the CDN ${quantity(v.cdn.gb)} GB, ${usd(v.cdn.usd)}` : ''),
    usd(v.totalUsd),
    usdSmall(v.usdPerMillionAtCeiling),
  ]);

const flagsText = (flags: Record<string, string>) =>
  Object.entries(flags)
    .map(([key, value]) => `-c ${key}=${value}`)
    .join(' ');
/** What the credits line says of them: once, and the first month they leave. */
export const creditsNote = (bill: Bill) =>
  `once: the first month is ${usd(bill.totalUsd - bill.creditsUsd)} (AWS gives $${NEW_ACCOUNT_CREDITS.usd} at ` +
  `sign-up since ${NEW_ACCOUNT_CREDITS.since}; $${NEW_ACCOUNT_CREDITS.toEarnUsd} more for activities, not counted)`;

/** A figure, or a dash where there is none (a price per vote in a month with no votes). */
const orDash = (n: number | undefined, format: (n: number) => string) => (n === undefined ? '—' : format(n));
/** "$19.09 per million votes", or that there were no votes. */
export const perMillionVotes = (bill: Bill) =>
  bill.usdPerMillionVotes === undefined ? 'no votes' : `${usd(bill.usdPerMillionVotes)} per million votes`;

/** The stage that binds first, with its load (short: its share only), or why the design has none. */
function bindsFirst(d: DesignRow, short = false): string {
  const c = d.capacity;
  if (!d.deploy) return c.bottleneck ?? '';
  const stage = c.stages.find((st) => st.name === c.bottleneck) ?? (c.bottleneck ? undefined : c.tightest);
  if (!stage) return c.bottleneck ? `${c.bottleneck}: ${scaleUp(c.rampSeconds)} to reach the peak` : 'nothing: no load';
  return short ? `${stage.name} (${stageShare(stage)})` : `${stage.name}: ${stageLoad(stage)}`;
}

/** What carrying the peak takes: nothing, the flags, the quota raises and the scale-up, or that nothing does. */
export function toCarry(d: DesignRow): string {
  const c = d.capacity;
  if (!d.deploy) return '—';
  if (!c.carriesWith)
    return c.blockedBy
      ? `nothing the stack offers: with its flags, ${c.blockedBy.name} is still at ${stageLoad(c.blockedBy)}, ` +
          'and no quota raise lifts it'
      : 'nothing the stack offers';
  const { flags, quotaRaises, rampSeconds } = c.carriesWith;
  const parts = [
    ...(Object.keys(flags).length > 0 ? [flagsText(flags)] : []),
    ...(quotaRaises.length > 0 ? [`raise ${raisesText(quotaRaises)}`] : []),
    `Lambda reaches the peak ${scaleUp(rampSeconds) === 'at once' ? 'at once' : `after ${scaleUp(rampSeconds)}`}` +
      (rampSeconds > MAX_RAMP_SECONDS ? ` (over ${MAX_RAMP_SECONDS} s: callers get 429s meanwhile)` : ''),
  ];
  return c.carries ? 'carries as deployed' : parts.join('; ');
}

/**
 * Whether a design carries the peak: as deployed, with the stack's flags and AWS's quota raises (in time,
 * as the recommendation counts it), or not at all.
 */
function carriesText(d: DesignRow): string {
  if (!d.deploy) return 'not built';
  if (d.capacity.carries) return 'yes';
  const w = d.capacity.carriesWith;
  if (!w || !carriesInTime(d.capacity)) return 'no';
  const needs = [
    ...(Object.keys(w.flags).length > 0 ? ['its flags'] : []),
    ...(w.quotaRaises.length ? ['raises'] : []),
  ];
  return needs.length > 0 ? `with ${needs.join(' and ')}` : 'no';
}

export const capacityHead = ['AWS design', 'Carries the peak?', 'Binds first', 'What carrying it takes'];
export const capacityRows = (report: CostReport, short = false) =>
  report.designs.map((d) => [d.name, carriesText(d), bindsFirst(d, short), toCarry(d)]);

export const stageHead = ['Stage', 'Load at the peak', 'Limit from'];
export const stageRows = (d: DesignRow) => d.capacity.stages.map((s) => [s.name, stageLoad(s), s.limitFrom]);

/** The recommended deployment stage by stage: as its flags size it, and what to raise where that is not enough. */
export const deploymentHead = ['Stage', 'Load of its limit, as deployed', 'Limit once raised'];
export function deploymentRows(d: DesignRow): string[][] {
  const raises = d.capacity.carriesWith?.quotaRaises ?? [];
  return d.capacity.sizedStages.map((s) => {
    const raise =
      typeof s.fix === 'object' && 'quota' in s.fix
        ? raises.find((r) => r.quota === QUOTAS[(s.fix as { quota: QuotaId }).quota].name)
        : undefined;
    return [s.name, stageLoad(s), s.load > s.limit && raise ? raisedText(s, raise) : ''];
  });
}

/**
 * A stage's limit once its quota is raised, in the stage's own unit: the quota itself where the units are the
 * same, else the limit it sets (a requests/s row under a concurrency quota: "10 x account concurrency").
 */
function raisedText(s: Stage, raise: { quota: string; from: number; to: number }): string {
  const quota = Object.values(QUOTAS).find((q) => q.name === raise.quota);
  const limit = !quota || quota.unit === s.unit || raise.from <= 0 ? raise.to : (s.limit * raise.to) / raise.from;
  return `${quantity(limit)} ${s.unit}`;
}

/** The busiest second, with its working. */
export const peakLines = (report: CostReport) => [
  `The busiest second: ${quantity(report.peak.requestsPerSecond)} requests/s; the hottest poll ` +
    `${quantity(report.peak.hottestPoll.votesPerSecond)} votes/s and ` +
    `${quantity(report.peak.hottestPoll.resultsRequestsPerSecond)} results requests/s.`,
  ...report.peak.working,
];

/** "1 vote", "4.6 votes", as the figure prints. */
const votesText = (n: number) => `${quantity(n)} ${quantity(n) === '1' ? 'vote' : 'votes'}`;

/** How many writes, invocations and queue requests a vote brings, worked out (or measured) for the recommendation. */
export function voteRateWorking({ voteRates: { average, hottest }, recommended, units }: CostReport): string {
  if (!(average.votesPerSecond > 0)) return 'Writes a vote: no votes, so nothing to batch or write.';
  const measured = units.votesPerBatch !== undefined ? ` (votes a batch ${units.sources.votesPerBatch})` : '';
  const groups = recommended.stack.votePath.groupsPerPoll;
  const cycle = batchCycleMs(units);
  const arriving = (votesPerSecond: number) => (votesPerSecond / groups) * (cycle / 1000);
  return (
    'Writes a vote, as the recommended design is deployed: ' +
    `the average poll gets ${quantity(average.votesPerSecond)} votes/s over ` +
    `${groups} message groups; in the ${quantity(cycle)} ms a batch holds its group, ` +
    `${quantity(arriving(average.votesPerSecond))} votes reach the group, so a batch holds ` +
    `${votesText(average.votesPerBatch)}${measured}. A vote: ${quantity(average.counterWritesPerVote)} of a ` +
    `counter write and of an invocation, ${quantity(average.counterWriteUnitsPerVote)} of a write unit, ` +
    `${quantity(average.sqsRequestsPerVote)} SQS requests (its bill's rates). The hottest poll at ` +
    `${quantity(hottest.votesPerSecond)} votes/s: ${votesText(hottest.votesPerBatch)} a batch, ` +
    `${quantity(hottest.counterWriteUnitsPerVote)} of a write unit a vote (the capacity verdict's).` +
    (average.votesPerBatch < 1.5
      ? " A batching window would fill a sparse poll's batches, but Lambda allows none on a FIFO queue (AWS docs " +
        '"Lambda parameters for Amazon SQS event source mappings"); a standard queue would, at a guard write a ' +
        'vote for exactly-once (docs/hot-poll.md).'
      : '')
  );
}

/** What the verdicts rest on besides quotas and the template: the consumer's time per batch, the results cache. */
export function capacityBasis(report: CostReport): string {
  const { units, measured } = report;
  const source = (key: string) =>
    measured ? `measured by ${measured.label}` : (units.sources[key] ?? 'assumption').split(':')[0];
  const reads =
    units.readUnitsPerResultsRequest === undefined
      ? "each results environment reading a poll once per results max-age, the rest answered from the function's " +
        'cache'
      : `${quantity(units.readUnitsPerResultsRequest)} read units a results request, the rest answered from the ` +
        "results function's cache";
  return (
    `The verdicts rest on the consumer's ${quantity(batchCycleMs(units))} ms a batch ` +
    `(${source(units.batchCycleMs === undefined ? 'billedMs' : 'batchCycleMs')}) and ${reads} ` +
    `(${source('readUnitsPerResultsRequest')}); ` +
    (measured ? 'both from that run.' : '--from <a load test folder> measures both.')
  );
}

/**
 * After the deploy command: the same with a budget of this estimate (`-c monthlyBudgetUsd`), which e-mails as
 * actual or forecast spend nears it.
 */
function budgetLine(deploy: string | undefined, monthlyUsd: number): string[] {
  if (!deploy) return [];
  const flags = budgetFlagsFor(monthlyUsd);
  return [
    `With a monthly budget of this estimate, which e-mails you at ${BUDGET_ALERT_PERCENTAGES.join('% and ')}% ` +
      `of actual and of forecast spend (docs/deploy.md): ${deploy}${deploy.includes(' -- ') ? '' : ' --'} ${flags}`,
  ];
}

/** The recommendation: the cheapest design that carries the peak, what it needs, or that none carries. */
export function recommendation(report: CostReport): string[] {
  const { recommended: r } = report;
  const account = report.account === 'new' ? ' on a new account (its quotas: --new-account)' : '';
  if (!r.carries) {
    return [
      `No AWS design carries this profile's busiest second${account}, even with the stack's flags and quota ` +
        `raises, in time (within ${MAX_RAMP_SECONDS} s). The cheapest you can deploy: ${r.name}, ` +
        `${usd(r.bill.totalUsd)} a month, for a month it cannot serve at its peak. Deploy it: ${r.deploy}`,
      ...budgetLine(r.deploy, r.bill.totalUsd),
    ];
  }
  return [
    `Cheapest AWS design that carries this profile${account}: ${r.name}, ${usd(r.bill.totalUsd)} a month ` +
      `(${perMillionVotes(r.bill)}). Deploy it: ${r.deploy}`,
    ...budgetLine(r.deploy, r.bill.totalUsd),
    ...beforeThePeak(report),
    ...cheaperLine(report),
  ];
}

/** The design cheaper than the recommendation after quota raises, when there is one: what it saves, what it needs. */
function cheaperLine({ cheaperWithQuotaRaises: c, designs }: CostReport): string[] {
  if (!c) return [];
  const name = designs.find((d) => d.id === c.id)?.name ?? c.id;
  return [
    `Cheaper after quota raises: ${name}, ${usd(c.monthlyUsd)} a month (${usd(c.savingUsd)} less), once AWS ` +
      `grants ${raisesText(c.quotaRaises)}: a support request that can take days, and may be refused.`,
  ];
}

function largest(bill: Bill, n: number) {
  return [...bill.lines].sort((a, b) => b.usd - a.usd).slice(0, n);
}

/** What an idle deployment still uses, and why it costs what it does. */
function idleLines(idle: Bill): string {
  if (idle.lines.length === 0) return 'nothing is billed without requests';
  const cost = (l: BillLine) => (l.usd === 0 ? ', inside the free tier' : `, ${usd(l.usd)}`);
  return idle.lines.map((l) => `${l.service} ${l.item}: ${quantity(l.usage)} ${l.unit}${cost(l)}`).join('; ');
}

/** A VPS row in words: its month, what reaches it at the peak, and what its vCPUs serve of that. */
function vpsSentence(report: CostReport, v: VpsCost): string {
  const measured = report.vpsCapacity.measurement;
  return (
    `${usd(v.totalUsd)} a month on ${v.name}: ${quantity(v.loadRps)} req/s reach the box at the peak; ` +
    `it serves that mix at ${quantity(v.box.requestsPerSecond)} req/s on ${processesOf(v)}, ` +
    `${pricedTls(measured).says} (the CPU a request costs, npm run bench:vps on ${measured.date}, ` +
    `${measured.machine.model}), ` +
    (v.carries ? `loaded ${percent(v.utilisation)}` : `loaded ${percent(v.utilisation)}: ${v.why}`)
  );
}

/**
 * The VPS answer: the cheapest box that carries the peak; else the cheapest whose vCPUs would, held back
 * by this edition's writer (the edition's limit, said so); else plainly that no box on the list does,
 * the largest falling short on its cores.
 */
export function vpsLine(report: CostReport): string {
  const { vps, vpsCarries } = report.answer;
  if (vpsCarries) return `On a VPS: ${vpsSentence(report, vps)}.`;
  const aws = report.recommended.carries ? 'the AWS edition does' : 'nor does any AWS design';
  // Of the cheapest boxes whose cores carry it, the one nearest to carrying (behind a CDN, if one is).
  const cores = report.vps.filter((v) => v.coresCarry).sort((a, b) => a.totalUsd - b.totalUsd || a.needs - b.needs)[0];
  if (cores)
    return (
      `On a VPS: a box has the cores for this peak of ${quantity(report.designRps)} req/s, but this edition ` +
      `does not carry it (${aws}). ${vpsSentence(report, cores)}.`
    );
  const largest = [...report.vps].sort(
    (a, b) => b.box.coresRequestsPerSecond / b.loadRps - a.box.coresRequestsPerSecond / a.loadRps,
  )[0];
  return (
    `On a VPS: no single box on the list carries this peak of ${quantity(report.designRps)} req/s on its cores` +
    ` (${aws}). The nearest: ${vpsSentence(report, largest)}.`
  );
}

/** The AWS floor, before the designs are set beside it. */
export function floorLine({ floor }: CostReport): string {
  return (
    `AWS floor: ${usd(floor.usd)} a month: the ${quantity(floor.requests)} requests browsers send, each at ` +
    `${usd(floor.pricePerMillion)} per million (a Lambda request, the least AWS charges to answer one), and ` +
    'nothing else; no AWS design costs less, but for its free tiers and credits.'
  );
}

/** The answer in the full working: the recommendation and what it needs, then the VPS beside it. */
export function opening(report: CostReport): string[] {
  return [
    ...recommendation(report),
    vpsLine(report),
    ...(report.vpsCapacity.observed ? [observedLine(report.vpsCapacity.observed, report.designRps)] : []),
  ];
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

/** What a flood of the function URL costs at most, where the designs include one; uncapped, that it is not capped. */
export function floodLines({ flood, recommended }: CostReport): string[] {
  if (recommended.deploy?.includes('resultsConcurrency=off'))
    return [
      'The recommended command deploys the results function URL uncapped (-c resultsConcurrency=off): nothing but ' +
        "the account's concurrency stops a flood of it, and every request of one is billed.",
    ];
  if (!flood) return [];
  return [
    `The function-URL design with its default cap: a flood of its results URL is at most ` +
      `${quantity(flood.requestsPerSecond)} req/s (its ${flood.concurrency} concurrent instances), ` +
      `${usd(flood.usdPerHour)} an hour; beyond that callers get 429, and the page keeps its last results and says ` +
      'they will catch up. -c resultsConcurrency=<n> moves the cap.',
  ];
}

/** This app's measured capacity on a VPS, route by route, and other programs' figures as references. */
export const capacityLines = (report: CostReport) => {
  const { measurement, source } = report.vpsCapacity;
  const { machine, routes: r } = measurement;
  return [
    `This app's capacity (${source}, ${measurement.date}, ${machine.cpus} cores of ${machine.model}, ` +
      `Node ${machine.node}, ${measurement.command}): options ${quantity(r.options.requestsPerSecond)} req/s, ` +
      `page ${quantity(r.page.requestsPerSecond)}, vote ${quantity(r.vote.requestsPerSecond)} ` +
      `(on disk before each answer), results ${quantity(r.results.requestsPerSecond)}; ` +
      `a bare node:http server ${quantity(measurement.bare.requestsPerSecond)} in the same run.`,
    ...CDN_PLANS.map(
      (plan) =>
        `CDN in front of the VPS edition: ${plan.name}, $${plan.monthlyUsd} a month, $${plan.usdPerGb} per GB, ` +
        `$${plan.usdPerMillionRequests} per million requests, at least ${usd(plan.minimumMonthlyUsd)} a month ` +
        `(${plan.priceSource}; checked ${plan.checked}${plan.assumption ? '; assumption *' : ''}).`,
    ),
  ];
};

/**
 * results=cloudfront caches poll reads at the edge for the max-age their answers carry (lib/site.ts): how
 * many of the month's reach API Gateway and Lambda. None when no design fronts the API.
 */
export function cloudFrontPollReads(report: CostReport): string[] {
  const design = report.designs.find((d) => d.stack.results === 'cloudfront');
  if (!design) return [];
  const { pageLoads, polls, invocations } = design.bill.usage;
  return [
    `${design.name}: poll reads are cached at the edge for the max-age each answer carries (at most ` +
      `${design.stack.pollReadCacheSeconds} s, never past the poll's close; votes pass through uncached): ` +
      `${quantity(invocations.getPoll)} of their ${quantity(pageLoads - polls)} a month reach API Gateway and Lambda.`,
  ];
}

/**
 * Each design's CloudFront (the page's, and with results=cloudfront the API's): a flat-rate plan or pay as you
 * go, the cheaper, and why, with the plans' rules once. The recommended design's and the CloudFront design's.
 */
export function cloudFrontPlanLines(report: CostReport): string[] {
  const designs = [report.recommended, ...report.designs.filter((d) => d.stack.results === 'cloudfront')];
  const lines = [...new Map(designs.map((d) => [d.id, d])).values()].flatMap((d) => {
    const cf = d.bill.cloudFront;
    if (!cf) return [];
    const month = `${quantity(cf.requests)} requests and ${quantity(cf.transferGb)} GB a month`;
    return [
      cf.plan
        ? `${d.name}: CloudFront on the flat-rate ${cf.plan.name} plan, ${usd(cf.plan.usd)} a month for ${month}, ` +
          `where pay as you go costs ${usd(cf.paygUsd)}: ${cf.why}; so no CloudFront request quota to raise.`
        : `${d.name}: CloudFront pay as you go, ${usd(cf.paygUsd)} a month for ${month}: ${cf.why}.`,
    ];
  });
  if (lines.length === 0) return [];
  const rules = CLOUDFRONT_FLAT_RATE_RULES;
  return [
    ...lines,
    `Flat-rate plans (${CLOUDFRONT_FLAT_RATE_PLANS.map((p) => `${p.name} $${p.usd}`).join(', ')}): ${rules.counts}; ` +
      `${rules.overage}; ${rules.quota}; ${rules.eligible} (${rules.source}; checked ${rules.checked}).`,
  ];
}

/** The function-URL design's functions on Lambda Managed Instances: each scenario's month, and when it is cheaper. */
export function managedInstancesLines({ managedInstances: mi, vpsCapacity }: CostReport): string[] {
  if (!mi) return [];
  const fleet = MANAGED_INSTANCES;
  const instancesUsd = (w: ManagedInstancesWhatIf) =>
    w.bill.lines
      .filter((l) => l.priceId === 'managedInstanceHours' || l.priceId === 'managedInstanceFee')
      .reduce((sum, l) => sum + l.usd, 0);
  const scenarios = mi.whatIfs.map(
    (w) =>
      `${w.name}: ${w.instances} x ${fleet.instanceType} kept all month (the peak needs ${w.peakVcpus.toFixed(2)} ` +
      `vCPUs; at least ${fleet.minInstances}), ${usd(w.bill.totalUsd)} a month (${signedUsd(w.deltaUsd)}: ` +
      `${usd(instancesUsd(w))} of instances for ${usd(instancesUsd(w) - w.deltaUsd)} of GB-seconds saved)`,
  );
  const cheaper = mi.whatIfs.filter((w) => w.deltaUsd < 0);
  return [
    `What if ${mi.design} (${usd(mi.baselineUsd)} a month) ran on Lambda Managed Instances (per instance hour, ` +
      `plus 15%, plus $0.20 per million requests; no GB-seconds): ${scenarios.join('; ')}. ` +
      (cheaper.length > 0
        ? `Cheaper for this profile: ${cheaper.map((w) => w.name).join('; ')}.`
        : `Never cheaper for this profile: it pays off only where the moved functions bill more GB-seconds ` +
          `than the instances cost, ${usd(instancesUsd(mi.whatIfs[0]))} a month at AWS's floor of ` +
          `${fleet.minInstances}.`) +
      ` Sized at this app's CPU a request (npm run bench:vps, ${vpsCapacity.measurement.date}: its own work, not ` +
      `the AWS SDK's calls, so a floor); ${fleet.notPriced} (${fleet.source}; checked ${fleet.checked}).`,
  ];
}

export const mdRow = (cells: string[]) => `| ${cells.join(' | ')} |`;
export const mdAlign = (head: string[], right: number[]) =>
  mdRow(head.map((_, i) => (right.includes(i) ? '---:' : '---')));

/** Every price the model uses, with its tiers, its source and when it was checked. */
export const markdownPrices = () => [
  '## Prices',
  '',
  mdRow(['Item', 'Price', 'Source', 'Checked']),
  mdRow(['---', '---', '---', '---']),
  ...Object.values(PRICES).map((p: Price) =>
    mdRow([
      `${p.service} ${p.item}`,
      `${p.tiers.map((t) => `$${t.price}`).join(' → ')} per ${p.unit}` +
        (p.bytes ? ` of ${p.bytes.perUnit.toLocaleString('en-US')} bytes` : ''),
      p.bytes ? `${p.source}; the GB: ${p.bytes.source}` : p.source,
      p.checked,
    ]),
  ),
];

/** Every quota the capacity verdicts use, with how to raise it, its source and when it was checked. */
export const markdownQuotas = () => [
  '## Quotas',
  '',
  mdRow(['Quota', 'Value', 'Per', 'How to raise it', 'Source', 'Checked']),
  mdRow(['---', '---:', '---', '---', '---', '---']),
  ...(Object.keys(QUOTAS) as QuotaId[]).map((id) => {
    const q = QUOTAS[id];
    return mdRow([q.name, `${quantity(q.value)} ${q.unit}`, q.scope, raiseText(id), q.source, q.checked]);
  }),
];
