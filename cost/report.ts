/**
 * The estimate as a person reads it: a terminal table, Markdown, and HTML with a chart of
 * monthly cost against monthly votes. It opens with the answer: the cheapest AWS design you can
 * deploy for the profile, the floor no AWS design can go under, and the VPS beside them.
 */
import {
  awsFloor,
  cheapestDeployable,
  DEPLOY_SCRIPT,
  designOf,
  floodCeiling,
  priceDesigns,
  type FloodCeiling,
  type PricedDesign,
} from './designs';
import { breakEven, designRps, PEAK_TO_AVERAGE, scaleProfile, vpsCost, type BreakEven, type VpsCost } from './compare';
import { estimate, type Bill, type BillOptions, type UnitCosts } from './model';
import { PRICE_SHEET_CHECKED, PRICE_SHEET_REGION, PRICE_SHEET_SOURCE, PRICES } from './prices';
import type { TrafficProfile } from './profiles';
import type { StackConfig } from './stack-config';
import {
  BASELINE_VPS,
  CAPACITY_REFERENCES,
  PROCESSES_PER_BOX,
  VPS_MAX_UTILISATION,
  VPS_TIERS,
  type ObservedLoad,
  type VpsCapacity,
} from './vps';
import { whatIfs, type WhatIf } from './what-ifs';

export interface DesignRow extends PricedDesign {
  usdPerMillionRequests: number;
  /** The design's bill over the AWS floor. */
  overFloor: number;
  breakEven: BreakEven;
}

export interface CostReport {
  profile: TrafficProfile;
  /** The stack the bill is for: what cdk.out/ (or --template) holds, else the default design. */
  stack: StackConfig;
  stackSource: string;
  /** The deployable design that stack is, when it is one. */
  design?: string;
  options: BillOptions;
  units: UnitCosts;
  bill: Bill;
  /** The same stack deployed with no traffic at all: what it costs to leave it up. */
  idle: Bill;
  /** Every design, its price per million of the requests browsers send (the same denominator for all). */
  designs: DesignRow[];
  recommended: DesignRow;
  floor: ReturnType<typeof awsFloor>;
  /** The function-URL design's worst case: a flood at its concurrency cap. */
  flood?: FloodCeiling;
  vpsCapacity: VpsCapacity;
  vps: VpsCost[];
  designRps: number;
  /** Break-even of this stack with each VPS tier. */
  breakEven: BreakEven[];
  whatIfs: WhatIf[];
  assumptions: string[];
  measured?: { label: string; votes: number; apiRequests: number };
}

/** Below this many votes, per-vote figures measured by a load test are rough: the report says so. */
export const MIN_MEASURED_VOTES = 1000;

/** What a report is built from: the profile, the stack to bill, every design's stack, the VPS, the figures. */
export interface ReportInput {
  profile: TrafficProfile;
  stack: StackConfig;
  stackSource: string;
  /** Each deployable design's stack, read from its own template. */
  designStacks: Record<string, StackConfig>;
  vpsCapacity: VpsCapacity;
  units: UnitCosts;
  options: BillOptions;
  measured?: CostReport['measured'];
}

export function buildReport(input: ReportInput): CostReport {
  const { profile, stack, units, options, vpsCapacity } = input;
  const bill = estimate(profile, stack, units, options);
  const design = designOf(stack);
  // The stack read (cdk.out/) stands for its design: the bill and its row agree.
  const stacks = design ? { ...input.designStacks, [design.id]: stack } : input.designStacks;
  const floor = awsFloor(bill);
  const designs: DesignRow[] = priceDesigns(profile, stacks, units, options).map((d) => ({
    ...d,
    usdPerMillionRequests: (d.bill.totalUsd / floor.requests) * 1e6,
    overFloor: d.bill.totalUsd / floor.usd,
    breakEven: breakEven(BASELINE_VPS, profile, d.stack, vpsCapacity, units, options),
  }));
  const assumptions = [
    ...new Set([
      ...bill.lines.filter((l) => l.assumption).map((l) => `${l.service} ${l.item}: ${l.assumption}`),
      ...Object.entries(units.sources)
        .filter(([, source]) => source.startsWith('assumption'))
        .map(([key, source]) => `${key}: ${source.replace(/^assumption: /, '')}`),
      `VPS sizing: at most ${VPS_MAX_UTILISATION * 100}% of measured capacity at the design rate, which is the larger of the profile's peak and ${PEAK_TO_AVERAGE}x the month's average`,
      `VPS capacity: the VPS edition is one process, as the seed's platform is: it uses ${PROCESSES_PER_BOX} vCPU whatever the box has, and more than one box would need polls sharded across them (not built)`,
      options.newAccount
        ? 'new-account free tiers (12 months) are counted'
        : 'free tiers for new accounts only are not counted (--new-account to count them); permanent free tiers are',
      ...(input.measured && input.measured.votes < MIN_MEASURED_VOTES
        ? [
            `measured from only ${input.measured.votes} vote(s) (${input.measured.label}): per-vote figures from fewer than ${MIN_MEASURED_VOTES.toLocaleString('en-US')} votes are rough, and are scaled here to ${quantity(bill.votes)}; run a longer scenario (npm run load -- vote-storm)`,
          ]
        : []),
    ]),
  ];
  return {
    ...input,
    design: design?.id,
    bill,
    idle: estimate({ ...profile, pollsPerDay: 0 }, stack, units, options),
    designs,
    recommended: cheapestDeployable(designs) as DesignRow,
    floor,
    flood: designs.map((d) => floodCeiling(d.stack, profile, units)).find(Boolean),
    vps: VPS_TIERS.map((tier) => vpsCost(tier, profile, bill, vpsCapacity)),
    designRps: designRps(profile, bill),
    breakEven: VPS_TIERS.map((tier) => breakEven(tier, profile, stack, vpsCapacity, units, options)),
    whatIfs: whatIfs(profile, stack, units, options, bill),
    assumptions,
  };
}

// ---------- formatting ----------

export function usd(value: number): string {
  if (value > 0 && value < 0.005) return '<$0.01';
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Prices per million requests go well below a cent: keep three significant digits. */
const usdSmall = (value: number) => (value >= 0.1 ? usd(value) : `$${value.toPrecision(2)}`);

export function quantity(value: number): string {
  const units: [number, string][] = [
    [1e9, ' B'],
    [1e6, ' M'],
  ];
  for (const [size, suffix] of units) if (value >= size) return `${(value / size).toPrecision(3)}${suffix}`;
  if (value >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toPrecision(3).replace(/\.?0+$/, '');
}

const votesLabel = (votes: number) => `${quantity(votes)} votes`;
const percent = (share: number) => `${share < 0.01 ? '<1' : Math.round(share * 100)}%`;

/** Prose for a terminal: lines of at most `width` columns, continued with an indent. */
function wrap(text: string, width = 100, indent = '  '): string {
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

function table(head: string[], rows: string[][], rightAligned: number[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const cell = (text: string, i: number) =>
    rightAligned.includes(i) ? text.padStart(widths[i]) : text.padEnd(widths[i]);
  return [
    head.map(cell).join('  '),
    widths.map((w) => '─'.repeat(w)).join('  '),
    ...rows.map((r) => r.map(cell).join('  ')),
  ].join('\n');
}

function billRows(report: CostReport): string[][] {
  return report.bill.lines.map((l) => [
    l.service,
    l.item + (l.assumption ? ' *' : ''),
    // In the unit of the price beside it.
    `${quantity(l.usage)}${l.billable < l.usage ? ` (${quantity(l.billable)} billed)` : ''}`,
    l.unitPrice,
    usd(l.usd),
  ]);
}

const DESIGNS_INTRO = `Every AWS design, each priced from its own template; break-even is with ${BASELINE_VPS.name}; deploy with ${DEPLOY_SCRIPT} -- and the flags:`;
const designHead = ['AWS design (← the bill above)', 'Monthly', '$ per M req', 'x floor', 'Break-even', 'Deploy'];
/** The deploy cell: the whole command, or (in the terminal, where width is short) only its flags. */
const deployCell = (d: DesignRow, flagsOnly: boolean) =>
  d.deploy
    ? flagsOnly
      ? d.deploy.replace(`${DEPLOY_SCRIPT} -- `, '').replace(DEPLOY_SCRIPT, '') || '(no flags)'
      : d.deploy
    : 'not built';
const designRows = (report: CostReport, flagsOnly = false) =>
  report.designs.map((d) => [
    d.name + (d.id === report.design ? ' ←' : ''),
    usd(d.bill.totalUsd),
    usdSmall(d.usdPerMillionRequests),
    `${d.overFloor.toFixed(1)}x`,
    d.breakEven.votes ? votesLabel(d.breakEven.votes) : '—',
    deployCell(d, flagsOnly),
  ]);

const vpsHead = [
  'VPS (the VPS edition)',
  'Boxes',
  'Load',
  'Transfer',
  'Monthly',
  'Per M requests at 50%',
  'Break-even with this stack',
];
const vpsRows = (report: CostReport) =>
  report.vps.map((v, i) => [
    v.tier.name,
    v.boxes > 1 ? `${v.boxes} (sharded: not built)` : '1',
    percent(v.utilisation),
    `${quantity(v.transferGb)} GB`,
    usd(v.totalUsd),
    usdSmall(v.usdPerMillionAtCeiling),
    report.breakEven[i].votes ? votesLabel(report.breakEven[i].votes!) : '—',
  ]);

function largest(report: CostReport, n: number) {
  return [...report.bill.lines].sort((a, b) => b.usd - a.usd).slice(0, n);
}

/** What an idle deployment still uses, and why it costs what it does. */
function idleLines(idle: Bill): string {
  if (idle.lines.length === 0) return 'nothing is billed without requests';
  return idle.lines
    .map(
      (l) =>
        `${l.service} ${l.item}: ${quantity(l.usage)} ${l.unit}${l.usd === 0 ? ', inside the free tier' : `, ${usd(l.usd)}`}`,
    )
    .join('; ');
}

/** What a load test of the user's VPS showed, beside what this profile needs: a floor, not a capacity. */
function observedLine(observed: ObservedLoad, designRps: number): string {
  const verdict =
    observed.ratePerSecond >= designRps
      ? `at least this profile's design rate of ${quantity(designRps)} req/s`
      : `a floor, below this profile's design rate of ${quantity(designRps)} req/s: a load test runs at its scenario's rate, so this says nothing of the box's maximum; npm run bench:vps on the box measures that (pass its file to --vps-from to size from it)`;
  return `Your VPS (${observed.url}, ${observed.scenario}, ${observed.source}): served ${quantity(observed.ratePerSecond)} req/s at p99 ${observed.p99Ms} ms, ${verdict}.`;
}

/** The answer, first: the cheapest design to deploy, the floor, and the VPS. */
function opening(report: CostReport): string[] {
  const { recommended, floor } = report;
  const cheapestVps = [...report.vps].sort((a, b) => a.totalUsd - b.totalUsd)[0];
  const measured = report.vpsCapacity.measurement;
  return [
    `Cheapest AWS design you can deploy for this profile: ${recommended.name}, ${usd(recommended.bill.totalUsd)} a month (${usd(recommended.bill.usdPerMillionVotes)} per million votes). Deploy it: ${recommended.deploy}`,
    `AWS floor: ${usd(floor.usd)} a month: the ${quantity(floor.requests)} requests browsers send, each at ${usd(floor.pricePerMillion)} per million (a Lambda request, the least AWS charges to answer one), and nothing else. The cheapest design is ${recommended.overFloor.toFixed(1)}x the floor.`,
    `On a VPS: ${usd(cheapestVps.totalUsd)} a month on ${cheapestVps.tier.name}: one process of the VPS edition serves this profile's mix at ${quantity(cheapestVps.capacityRps)} req/s (npm run bench:vps on ${measured.date}, ${measured.machine.model}), and the design rate of ${quantity(report.designRps)} req/s loads it ${percent(cheapestVps.utilisation)}.`,
    ...(report.vpsCapacity.observed ? [observedLine(report.vpsCapacity.observed, report.designRps)] : []),
  ];
}

function headline(report: CostReport): string[] {
  const { bill, profile } = report;
  const baseline = report.vps.find((v) => v.tier === BASELINE_VPS)!;
  const even = report.breakEven.find((b) => b.tier === BASELINE_VPS)!;
  return [
    `This stack: ${usd(bill.totalUsd)} a month for ${votesLabel(bill.votes)} (${usd(bill.usdPerMillionVotes)} per million votes).`,
    `${BASELINE_VPS.name}: ${usd(baseline.totalUsd)} a month (${baseline.boxes} box${baseline.boxes > 1 ? 'es' : ''} for ${quantity(report.designRps)} req/s).`,
    even.votes
      ? `Break-even of this stack with it: ${votesLabel(even.votes)} a month (${usd(even.usd!)}); below that, serverless costs less.`
      : 'No break-even between 1,000 and 100 B votes a month.',
    `Idle, with no traffic at all: ${usd(report.idle.totalUsd)} a month (${idleLines(report.idle)}).`,
    `Largest lines: ${largest(report, 3)
      .map((l) => `${l.service} ${l.item} ${usd(l.usd)}`)
      .join('; ')}.`,
    `Profile "${profile.name}": ${profile.description}`,
  ];
}

/** What a flood of the function URL costs at most, where the designs include one. */
const floodLines = ({ flood }: CostReport) =>
  flood
    ? [
        `A flood of the results function URL: at most ${quantity(flood.requestsPerSecond)} req/s (its ${flood.concurrency} concurrent instances), ${usd(flood.usdPerHour)} an hour; beyond that callers get 429, and the page keeps its last results and says they will catch up. -c resultsConcurrency=<n> moves the cap.`,
      ]
    : [];

const capacityLines = (report: CostReport) => {
  const { measurement, source } = report.vpsCapacity;
  const r = measurement.routes;
  return [
    `This app's capacity (${source}, ${measurement.date}, ${measurement.machine.cpus} cores of ${measurement.machine.model}, Node ${measurement.machine.node}, ${measurement.command}): options ${quantity(r.options.requestsPerSecond)} req/s, page ${quantity(r.page.requestsPerSecond)}, vote ${quantity(r.vote.requestsPerSecond)} (on disk before each answer), results ${quantity(r.results.requestsPerSecond)}; a bare node:http server ${quantity(measurement.bare.requestsPerSecond)} in the same run.`,
    ...CAPACITY_REFERENCES.map(
      (ref) =>
        `Reference, another program (not used for sizing): ${ref.name}: ${quantity(ref.requestsPerSecond)} req/s (${ref.source}).`,
    ),
  ];
};

export function renderText(report: CostReport): string {
  const { bill } = report;
  const out: string[] = [];
  const prose = (...lines: string[]) => out.push(...lines.map((line) => wrap(line)));
  out.push(`Profile "${report.profile.name}"`, '');
  prose(...opening(report));
  out.push('');
  prose(
    `Monthly AWS bill of this stack (${report.design ? `results=${report.stack.results}, ` : ''}${report.stack.apiKind.toUpperCase()} API; read from ${report.stackSource})`,
  );
  if (report.measured)
    prose(
      `Per-operation usage measured by ${report.measured.label} (${report.measured.votes} votes, ${report.measured.apiRequests} API requests)`,
    );
  out.push('');
  // Service and item in one column: the table fits a terminal.
  out.push(
    table(
      ['Item', 'Usage', 'Unit price', 'Monthly'],
      billRows(report).map(([service, item, ...rest]) => [`${service} ${item}`, ...rest]),
      [3],
    ),
  );
  out.push(`${'Total'.padEnd(20)} ${usd(bill.totalUsd)}   (${usd(bill.usdPerMillionVotes)} per million votes)`);
  out.push('');
  prose(DESIGNS_INTRO);
  out.push(table(designHead, designRows(report, true), [1, 2, 3, 4]));
  prose(...floodLines(report));
  out.push('');
  out.push(`The same month on a VPS, at this app's measured capacity (at most ${VPS_MAX_UTILISATION * 100}% load):`);
  out.push(table(vpsHead, vpsRows(report), [1, 2, 3, 4, 5, 6]));
  out.push('');
  out.push(
    table(
      ['What if… (this stack)', 'Monthly', 'Change'],
      report.whatIfs.map((w) => [
        w.name,
        usd(w.bill.totalUsd),
        `${w.deltaUsd >= 0 ? '+' : '-'}${usd(Math.abs(w.deltaUsd))}`,
      ]),
      [1, 2],
    ),
  );
  out.push('');
  prose(...headline(report));
  out.push('');
  prose(...capacityLines(report));
  out.push('');
  out.push('Assumptions (* in the table):');
  for (const a of report.assumptions) out.push(wrap(`  - ${a}`, 100, '    '));
  prose(
    `Prices: ${PRICE_SHEET_REGION}, list prices checked ${PRICE_SHEET_CHECKED} (cost/prices.ts; gathered in ${PRICE_SHEET_SOURCE}).`,
  );
  return out.join('\n');
}

export function renderMarkdown(report: CostReport, chartFile: string): string {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const align = (head: string[], right: number[]) => row(head.map((_, i) => (right.includes(i) ? '---:' : '---')));
  const out: string[] = [];
  out.push(`# Monthly AWS bill: profile "${report.profile.name}"`, '');
  out.push(
    ...opening(report).map(
      (line) => `- **${line.slice(0, line.indexOf(':') + 1)}**${line.slice(line.indexOf(':') + 1)}`,
    ),
    '',
  );
  out.push(`![Monthly cost against monthly votes](${chartFile})`, '');
  out.push(
    '## Every AWS design',
    '',
    DESIGNS_INTRO,
    '',
    row(designHead),
    align(designHead, [1, 2, 3, 4]),
    ...designRows(report).map(row),
    '',
    ...floodLines(report).map((l) => `- ${l}`),
    '',
  );
  out.push(
    '## On a VPS',
    '',
    row(vpsHead),
    align(vpsHead, [1, 2, 3, 4, 5, 6]),
    ...vpsRows(report).map(row),
    '',
    ...capacityLines(report).map((l) => `- ${l}`),
    '',
  );
  out.push(
    `## The bill of this stack`,
    '',
    `Read from ${report.stackSource}.`,
    '',
    row(['Service', 'Item', 'Usage', 'Unit price', 'Monthly']),
    row(['---', '---', '---:', '---', '---:']),
  );
  out.push(...billRows(report).map(row), row(['**Total**', '', '', '', `**${usd(report.bill.totalUsd)}**`]), '');
  out.push(...headline(report).map((line) => `- ${line}`), '');
  out.push('## What if… (this stack)', '', row(['Change', 'Monthly', 'Difference']), row(['---', '---:', '---:']));
  out.push(
    ...report.whatIfs.map((w) =>
      row([w.name, usd(w.bill.totalUsd), `${w.deltaUsd >= 0 ? '+' : '−'}${usd(Math.abs(w.deltaUsd))}`]),
    ),
    '',
  );
  out.push('## Assumptions', '', ...report.assumptions.map((a) => `- ${a}`), '');
  out.push('## Prices', '', row(['Item', 'Price', 'Source', 'Checked']), row(['---', '---', '---', '---']));
  out.push(
    ...Object.values(PRICES).map((p) =>
      row([
        `${p.service} ${p.item}`,
        `${p.tiers.map((t) => `$${t.price}`).join(' → ')} per ${p.unit}`,
        p.source,
        p.checked,
      ]),
    ),
  );
  return `${out.join('\n')}\n`;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Cool colours for AWS designs (solid), warm ones for VPS tiers (dashed): the two families never mix. */
const DESIGN_COLORS = ['#1f5fd1', '#0a8f5a', '#0891b2', '#6d28d9', '#475569'];
const VPS_COLORS = ['#c0392b', '#e67e22', '#a0522d', '#b8860b', '#7f1d1d'];
/** Text over the lines: a white halo keeps it readable where it crosses one. */
const HALO = 'stroke="#fff" stroke-width="4" stroke-linejoin="round" paint-order="stroke"';

/**
 * Monthly cost against monthly votes, both on log scales: each AWS design as a line, each VPS
 * tier as steps. It scales to the width it is given (a phone included).
 */
export function renderChart(report: CostReport): string {
  const width = 820;
  const height = 470;
  const pad = { left: 70, right: 250, top: 46, bottom: 50 };
  const baseVotes = report.bill.votes;
  const [xMin, xMax] = [1e4, 1e10];
  const [yMin, yMax] = [1, 1e6];
  const plotRight = width - pad.right;
  const x = (v: number) =>
    pad.left + ((Math.log10(v) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))) * (plotRight - pad.left);
  const y = (usdValue: number) => {
    const clamped = Math.min(Math.max(usdValue, yMin), yMax);
    return (
      height -
      pad.bottom -
      ((Math.log10(clamped) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) *
        (height - pad.top - pad.bottom)
    );
  };
  const points = Array.from({ length: 61 }, (_, i) => 10 ** (4 + i / 10));
  const scaledProfiles = points.map((votes) => scaleProfile(report.profile, baseVotes > 0 ? votes / baseVotes : 0));
  const path = (values: number[]) =>
    values.map((v, i) => `${i ? 'L' : 'M'}${x(points[i]).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" style="max-width:${width}px;height:auto" role="img" aria-labelledby="chart-title" font-family="system-ui, sans-serif" font-size="12">`,
  );
  parts.push(`<rect width="${width}" height="${height}" fill="#fff"/>`);
  parts.push(
    `<text id="chart-title" x="${pad.left}" y="24" font-size="16" font-weight="bold">Monthly cost against monthly votes: profile “${escapeHtml(report.profile.name)}”, scaled</text>`,
  );
  for (let e = 4; e <= 10; e++) {
    parts.push(
      `<line x1="${x(10 ** e)}" x2="${x(10 ** e)}" y1="${pad.top}" y2="${height - pad.bottom}" stroke="#eee"/>`,
    );
    parts.push(
      `<text x="${x(10 ** e)}" y="${height - pad.bottom + 16}" text-anchor="middle">${quantity(10 ** e)}</text>`,
    );
  }
  for (let e = 0; e <= 6; e++) {
    parts.push(`<line x1="${pad.left}" x2="${plotRight}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#eee"/>`);
    parts.push(`<text x="${pad.left - 6}" y="${y(10 ** e) + 4}" text-anchor="end">$${quantity(10 ** e)}</text>`);
  }
  parts.push(`<text x="${(pad.left + plotRight) / 2}" y="${height - 12}" text-anchor="middle">votes per month</text>`);
  parts.push(
    `<text transform="rotate(-90)" x="${-(height - pad.bottom + pad.top) / 2}" y="16" text-anchor="middle">USD per month</text>`,
  );
  if (baseVotes >= xMin && baseVotes <= xMax) {
    parts.push(
      `<line x1="${x(baseVotes)}" x2="${x(baseVotes)}" y1="${pad.top}" y2="${height - pad.bottom}" stroke="#999" stroke-dasharray="2 2"/>`,
    );
    // At the foot of the line, clear of the series, which rise to the right.
    parts.push(`<text x="${x(baseVotes) + 4}" y="${height - pad.bottom - 6}" fill="#555" ${HALO}>this profile</text>`);
  }
  const legend: string[] = [];
  const legendItem = (i: number, color: string, dash: string, weight: number, label: string) => {
    const ly = pad.top + 8 + i * 20;
    legend.push(
      `<line x1="${plotRight + 14}" x2="${plotRight + 44}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="${weight}" stroke-dasharray="${dash}"/>`,
    );
    legend.push(`<text x="${plotRight + 50}" y="${ly + 4}" fill="${color}">${escapeHtml(label)}</text>`);
  };
  let row = 0;
  report.designs.forEach((design, i) => {
    const costs = scaledProfiles.map(
      (profile) => estimate(profile, design.stack, report.units, report.options).totalUsd,
    );
    const color = DESIGN_COLORS[i % DESIGN_COLORS.length];
    const dash = design.deploy ? '' : '2 3';
    parts.push(
      `<path d="${path(costs)}" fill="none" stroke="${color}" stroke-width="${design.deploy ? 2.5 : 1.5}" stroke-dasharray="${dash}"/>`,
    );
    legendItem(row++, color, dash, design.deploy ? 2.5 : 1.5, `AWS: ${design.id}${design.deploy ? '' : ' (estimate)'}`);
  });
  // The VPS carries what this stack's bill counts: priced once per point, for every tier.
  const stackBills = scaledProfiles.map((profile) => estimate(profile, report.stack, report.units, report.options));
  VPS_TIERS.forEach((tier, i) => {
    const costs = scaledProfiles.map(
      (profile, j) => vpsCost(tier, profile, stackBills[j], report.vpsCapacity).totalUsd,
    );
    const color = VPS_COLORS[i % VPS_COLORS.length];
    parts.push(`<path d="${path(costs)}" fill="none" stroke="${color}" stroke-width="1.5" stroke-dasharray="6 3"/>`);
    legendItem(row++, color, '6 3', 1.5, `VPS: ${tier.name}`);
  });
  const even = report.breakEven.find((b) => b.tier === BASELINE_VPS);
  if (even?.votes && even.votes >= xMin && even.votes <= xMax) {
    const cx = x(even.votes);
    const cy = y(even.usd!);
    parts.push(`<circle cx="${cx}" cy="${cy}" r="6" fill="none" stroke="#c0392b" stroke-width="2"/>`);
    // Its words go in the legend column, where no line or label of the plot runs through them.
    const ly = pad.top + 8 + (row + 1) * 20;
    legend.push(`<circle cx="${plotRight + 29}" cy="${ly}" r="6" fill="none" stroke="#c0392b" stroke-width="2"/>`);
    ['break-even of this stack', `with ${BASELINE_VPS.name}:`, `${votesLabel(even.votes)} a month`].forEach(
      (line, n) => {
        legend.push(`<text x="${plotRight + 50}" y="${ly + 4 + n * 15}" fill="#c0392b">${escapeHtml(line)}</text>`);
      },
    );
  }
  parts.push(...legend, '</svg>');
  return parts.join('\n');
}

export function renderHtml(report: CostReport): string {
  const md = renderMarkdown(report, '');
  // A small Markdown subset (headings, lists, tables, bold) is all the report uses.
  const inline = (text: string) => escapeHtml(text).replace(/\*\*(.+?)\*\*/g, '<b>$1</b>');
  const html: string[] = [];
  let inTable = false;
  let inList = false;
  for (const line of md.split('\n')) {
    // A list is its consecutive `- ` lines: open and close it around them.
    if (line.startsWith('- ') !== inList) {
      html.push(inList ? '</ul>' : '<ul>');
      inList = !inList;
    }
    if (line.startsWith('|')) {
      const cells = line
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim());
      if (cells.every((c) => /^-+:?$/.test(c))) continue;
      if (!inTable) html.push('<div class="scroll"><table>');
      const tag = inTable ? 'td' : 'th';
      html.push(`<tr>${cells.map((c) => `<${tag}>${inline(c)}</${tag}>`).join('')}</tr>`);
      inTable = true;
      continue;
    }
    if (inTable) html.push('</table></div>');
    inTable = false;
    if (line.startsWith('![')) html.push(renderChart(report));
    else if (line.startsWith('## ')) html.push(`<h2>${escapeHtml(line.slice(3))}</h2>`);
    else if (line.startsWith('# ')) html.push(`<h1>${escapeHtml(line.slice(2))}</h1>`);
    else if (line.startsWith('- ')) html.push(`<li>${inline(line.slice(2))}</li>`);
    else if (line.trim()) html.push(`<p>${inline(line)}</p>`);
  }
  if (inTable) html.push('</table></div>');
  if (inList) html.push('</ul>');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(`Cost: ${report.profile.name}`)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:62rem;margin:2rem auto;padding:0 1rem;color:#1d232b}.scroll{overflow-x:auto}table{border-collapse:collapse;margin:1rem 0}td,th{border-bottom:1px solid #ddd;padding:.3rem .6rem;text-align:left}th{background:#f3f5f8}ul{padding-left:1.25rem}li{margin:.2rem 0}</style>
</head><body>${html.join('\n')}</body></html>\n`;
}
