/**
 * The estimate as a person reads it: a terminal table, Markdown, and HTML with
 * a chart of monthly cost against monthly votes. Pure string building.
 */
import { BASELINE_VPS, VPS_MAX_UTILISATION, VPS_TIERS } from './vps';
import { breakEven, designRps, PEAK_TO_AVERAGE, scaleProfile, vpsCost, type BreakEven, type VpsCost } from './compare';
import { estimate, type Bill, type BillOptions, type UnitCosts } from './model';
import { PRICE_SHEET_CHECKED, PRICE_SHEET_REGION, PRICE_SHEET_SOURCE, PRICES } from './prices';
import type { TrafficProfile } from './profiles';
import type { StackConfig } from './stack-config';
import { whatIfs, type WhatIf } from './what-ifs';

export interface CostReport {
  profile: TrafficProfile;
  stack: StackConfig;
  stackSource: string;
  options: BillOptions;
  units: UnitCosts;
  bill: Bill;
  /** The same stack deployed with no traffic at all: what it costs to leave it up. */
  idle: Bill;
  vps: VpsCost[];
  designRps: number;
  breakEven: BreakEven[];
  whatIfs: WhatIf[];
  assumptions: string[];
  measured?: { label: string; votes: number; apiRequests: number };
}

/** Below this many votes, per-vote figures measured by a load test are rough: the report says so. */
export const MIN_MEASURED_VOTES = 1000;

export function buildReport(input: {
  profile: TrafficProfile;
  stack: StackConfig;
  stackSource: string;
  units: UnitCosts;
  options: BillOptions;
  measured?: CostReport['measured'];
}): CostReport {
  const { profile, stack, units, options } = input;
  const bill = estimate(profile, stack, units, options);
  const assumptions = [
    ...new Set([
      ...bill.lines.filter((l) => l.assumption).map((l) => `${l.service} ${l.item}: ${l.assumption}`),
      ...Object.entries(units.sources)
        .filter(([, source]) => source.startsWith('assumption'))
        .map(([key, source]) => `${key}: ${source.replace(/^assumption: /, '')}`),
      `VPS sizing: at most ${VPS_MAX_UTILISATION * 100}% of measured capacity at the design rate, which is the larger of the profile's peak and ${PEAK_TO_AVERAGE}x the month's average`,
      options.newAccount ? 'new-account free tiers (12 months) are counted' : 'free tiers for new accounts only are not counted (--new-account to count them); permanent free tiers are',
      ...(input.measured && input.measured.votes < MIN_MEASURED_VOTES
        ? [
            `measured from only ${input.measured.votes} vote(s) (${input.measured.label}): per-vote figures from fewer than ${MIN_MEASURED_VOTES.toLocaleString('en-US')} votes are rough, and are scaled here to ${quantity(bill.votes)}; run a longer scenario (npm run load -- vote-storm)`,
          ]
        : []),
    ]),
  ];
  return {
    ...input,
    bill,
    idle: estimate({ ...profile, pollsPerDay: 0 }, stack, units, options),
    vps: VPS_TIERS.map((tier) => vpsCost(tier, profile, bill)),
    designRps: designRps(profile, bill),
    breakEven: VPS_TIERS.map((tier) => breakEven(tier, profile, stack, units, options)),
    whatIfs: whatIfs(profile, stack, units, options, bill),
    assumptions,
  };
}

// ---------- formatting ----------

export function usd(value: number): string {
  if (value > 0 && value < 0.005) return '<$0.01';
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

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

function table(head: string[], rows: string[][], rightAligned: number[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const cell = (text: string, i: number) => (rightAligned.includes(i) ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  return [head.map(cell).join('  '), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map((r) => r.map(cell).join('  '))].join('\n');
}

function billRows(report: CostReport): string[][] {
  return report.bill.lines.map((l) => [
    l.service,
    l.item + (l.assumption ? ' *' : ''),
    `${quantity(l.usage)} ${l.unit}${l.billable < l.usage ? ` (${quantity(l.billable)} billed)` : ''}`,
    l.unitPrice,
    usd(l.usd),
  ]);
}

function largest(report: CostReport, n: number) {
  return [...report.bill.lines].sort((a, b) => b.usd - a.usd).slice(0, n);
}

/** What an idle deployment still uses, and why it costs what it does. */
function idleLines(idle: Bill): string {
  if (idle.lines.length === 0) return 'nothing is billed without requests';
  return idle.lines.map((l) => `${l.service} ${l.item}: ${quantity(l.usage)} ${l.unit}${l.usd === 0 ? ', inside the free tier' : `, ${usd(l.usd)}`}`).join('; ');
}

function headline(report: CostReport): string[] {
  const { bill, profile } = report;
  const baseline = report.vps.find((v) => v.tier === BASELINE_VPS)!;
  const even = report.breakEven.find((b) => b.tier === BASELINE_VPS)!;
  return [
    `Serverless: ${usd(bill.totalUsd)} a month for ${votesLabel(bill.votes)} (${usd(bill.usdPerMillionVotes)} per million votes).`,
    `${BASELINE_VPS.name}: ${usd(baseline.totalUsd)} a month (${baseline.boxes} box${baseline.boxes > 1 ? 'es' : ''} for ${quantity(report.designRps)} req/s).`,
    even.votes
      ? `Break-even with it: ${votesLabel(even.votes)} a month (${usd(even.usd!)}); below that, serverless costs less.`
      : 'No break-even between 1,000 and 100 B votes a month.',
    `Idle, with no traffic at all: ${usd(report.idle.totalUsd)} a month (${idleLines(report.idle)}).`,
    `Largest lines: ${largest(report, 3)
      .map((l) => `${l.service} ${l.item} ${usd(l.usd)}`)
      .join('; ')}.`,
    `Profile "${profile.name}": ${profile.description}`,
  ];
}

export function renderText(report: CostReport): string {
  const { bill } = report;
  const out: string[] = [];
  out.push(`Monthly AWS bill: profile "${report.profile.name}", ${report.stack.apiKind.toUpperCase()} API, stack from ${report.stackSource}`);
  if (report.measured) out.push(`Per-operation usage measured by ${report.measured.label} (${report.measured.votes} votes, ${report.measured.apiRequests} API requests)`);
  out.push('');
  out.push(table(['Service', 'Item', 'Usage', 'Unit price', 'Monthly'], billRows(report), [4]));
  out.push(`${'Total'.padEnd(20)} ${usd(bill.totalUsd)}   (${usd(bill.usdPerMillionVotes)} per million votes)`);
  out.push('');
  out.push(
    table(
      ['VPS', 'Boxes', 'Transfer', 'Monthly', 'Break-even'],
      report.vps.map((v, i) => [v.tier.name, String(v.boxes), `${quantity(v.transferGb)} GB`, usd(v.totalUsd), report.breakEven[i].votes ? votesLabel(report.breakEven[i].votes!) : '—']),
      [1, 2, 3, 4],
    ),
  );
  out.push('');
  out.push(table(['What if…', 'Monthly', 'Change'], report.whatIfs.map((w) => [w.name, usd(w.bill.totalUsd), `${w.deltaUsd >= 0 ? '+' : '-'}${usd(Math.abs(w.deltaUsd))}`]), [1, 2]));
  out.push('');
  out.push(...headline(report));
  out.push('');
  out.push('Assumptions (* in the table):');
  for (const a of report.assumptions) out.push(`  - ${a}`);
  out.push(`Prices: ${PRICE_SHEET_REGION}, list prices checked ${PRICE_SHEET_CHECKED} (cost/prices.ts; gathered in ${PRICE_SHEET_SOURCE}).`);
  return out.join('\n');
}

export function renderMarkdown(report: CostReport, chartFile: string): string {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const out: string[] = [];
  out.push(`# Monthly AWS bill: profile "${report.profile.name}"`, '');
  out.push(...headline(report).map((line) => `- ${line}`), '');
  out.push(`![Monthly cost against monthly votes](${chartFile})`, '');
  out.push('## The bill', '', row(['Service', 'Item', 'Usage', 'Unit price', 'Monthly']), row(['---', '---', '---:', '---', '---:']));
  out.push(...billRows(report).map(row), row(['**Total**', '', '', '', `**${usd(report.bill.totalUsd)}**`]), '');
  out.push('## Against a VPS', '', row(['VPS', 'Boxes', 'Transfer', 'Monthly', 'Break-even']), row(['---', '---:', '---:', '---:', '---:']));
  out.push(...report.vps.map((v, i) => row([v.tier.name, String(v.boxes), `${quantity(v.transferGb)} GB`, usd(v.totalUsd), report.breakEven[i].votes ? votesLabel(report.breakEven[i].votes!) : '—'])), '');
  out.push('## What if…', '', row(['Change', 'Monthly', 'Difference']), row(['---', '---:', '---:']));
  out.push(...report.whatIfs.map((w) => row([w.name, usd(w.bill.totalUsd), `${w.deltaUsd >= 0 ? '+' : '−'}${usd(Math.abs(w.deltaUsd))}`])), '');
  out.push('## Assumptions', '', ...report.assumptions.map((a) => `- ${a}`), '');
  out.push('## Prices', '', row(['Item', 'Price', 'Source', 'Checked']), row(['---', '---', '---', '---']));
  out.push(...Object.values(PRICES).map((p) => row([`${p.service} ${p.item}`, p.tiers.map((t) => `$${t.price}`).join(' → ') + ` per ${p.unit}`, p.source, p.checked])));
  return out.join('\n') + '\n';
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Monthly cost against monthly votes, both on log scales: serverless as a line, each VPS tier as steps. */
export function renderChart(report: CostReport): string {
  const width = 760;
  const height = 420;
  const pad = { left: 70, right: 190, top: 20, bottom: 50 };
  const baseVotes = report.bill.votes;
  const [xMin, xMax] = [1e4, 1e10];
  const [yMin, yMax] = [1, 1e6];
  const x = (v: number) => pad.left + ((Math.log10(v) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))) * (width - pad.left - pad.right);
  const y = (usdValue: number) => {
    const clamped = Math.min(Math.max(usdValue, yMin), yMax);
    return height - pad.bottom - ((Math.log10(clamped) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * (height - pad.top - pad.bottom);
  };
  const points = Array.from({ length: 61 }, (_, i) => 10 ** (4 + i / 10));
  const scaled = points.map((votes) => {
    const profile = scaleProfile(report.profile, baseVotes > 0 ? votes / baseVotes : 0);
    const bill = estimate(profile, report.stack, report.units, report.options);
    return { votes, bill, profile };
  });
  const path = (values: number[]) => values.map((v, i) => `${i ? 'L' : 'M'}${x(points[i]).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const colors = ['#8e44ad', '#16a085', '#c0392b', '#d35400', '#2c3e50'];
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="12">`);
  parts.push(`<rect width="${width}" height="${height}" fill="#fff"/>`);
  for (let e = 4; e <= 10; e++) {
    parts.push(`<line x1="${x(10 ** e)}" x2="${x(10 ** e)}" y1="${pad.top}" y2="${height - pad.bottom}" stroke="#eee"/>`);
    parts.push(`<text x="${x(10 ** e)}" y="${height - pad.bottom + 16}" text-anchor="middle">${quantity(10 ** e)}</text>`);
  }
  for (let e = 0; e <= 6; e++) {
    parts.push(`<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#eee"/>`);
    parts.push(`<text x="${pad.left - 6}" y="${y(10 ** e) + 4}" text-anchor="end">$${quantity(10 ** e)}</text>`);
  }
  parts.push(`<text x="${(pad.left + width - pad.right) / 2}" y="${height - 12}" text-anchor="middle">votes per month (profile "${escapeHtml(report.profile.name)}" scaled)</text>`);
  parts.push(`<text transform="rotate(-90)" x="${-(height - pad.bottom + pad.top) / 2}" y="16" text-anchor="middle">USD per month</text>`);
  VPS_TIERS.forEach((tier, i) => {
    const costs = scaled.map((s) => vpsCost(tier, s.profile, s.bill).totalUsd);
    parts.push(`<path d="${path(costs)}" fill="none" stroke="${colors[i % colors.length]}" stroke-width="1.5" stroke-dasharray="5 3"/>`);
    parts.push(`<text x="${width - pad.right + 8}" y="${pad.top + 16 + i * 16}" fill="${colors[i % colors.length]}">- - ${escapeHtml(tier.name)}</text>`);
  });
  parts.push(`<path d="${path(scaled.map((s) => s.bill.totalUsd))}" fill="none" stroke="#1f5fd1" stroke-width="3"/>`);
  parts.push(`<text x="${width - pad.right + 8}" y="${pad.top + 16 + VPS_TIERS.length * 16}" fill="#1f5fd1" font-weight="bold">── serverless (this stack)</text>`);
  if (baseVotes >= xMin && baseVotes <= xMax) {
    parts.push(`<line x1="${x(baseVotes)}" x2="${x(baseVotes)}" y1="${pad.top}" y2="${height - pad.bottom}" stroke="#999" stroke-dasharray="2 2"/>`);
    parts.push(`<text x="${x(baseVotes) + 4}" y="${pad.top + 12}" fill="#555">this profile</text>`);
  }
  const even = report.breakEven.find((b) => b.tier === BASELINE_VPS);
  if (even?.votes && even.votes >= xMin && even.votes <= xMax) {
    parts.push(`<circle cx="${x(even.votes)}" cy="${y(even.usd!)}" r="6" fill="none" stroke="#c0392b" stroke-width="2"/>`);
    parts.push(`<text x="${x(even.votes) + 9}" y="${y(even.usd!) + 18}" fill="#c0392b">break-even with the $15 VPS: ${votesLabel(even.votes)}</text>`);
  }
  parts.push('</svg>');
  return parts.join('\n');
}

export function renderHtml(report: CostReport): string {
  const md = renderMarkdown(report, '');
  // A small Markdown subset (headings, lists, tables) is all the report uses.
  const lines = md.split('\n');
  const html: string[] = [];
  let inTable = false;
  for (const line of lines) {
    if (line.startsWith('|')) {
      const cells = line.slice(1, -1).split('|').map((c) => c.trim());
      if (cells.every((c) => /^-+:?$/.test(c))) continue;
      if (!inTable) html.push('<table>');
      const tag = inTable ? 'td' : 'th';
      html.push(`<tr>${cells.map((c) => `<${tag}>${escapeHtml(c).replace(/\*\*(.+?)\*\*/g, '<b>$1</b>')}</${tag}>`).join('')}</tr>`);
      inTable = true;
      continue;
    }
    if (inTable) html.push('</table>');
    inTable = false;
    if (line.startsWith('![')) html.push(renderChart(report));
    else if (line.startsWith('## ')) html.push(`<h2>${escapeHtml(line.slice(3))}</h2>`);
    else if (line.startsWith('# ')) html.push(`<h1>${escapeHtml(line.slice(2))}</h1>`);
    else if (line.startsWith('- ')) html.push(`<li>${escapeHtml(line.slice(2))}</li>`);
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(`Cost: ${report.profile.name}`)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d232b}table{border-collapse:collapse;margin:1rem 0}td,th{border-bottom:1px solid #ddd;padding:.3rem .6rem;text-align:left}th{background:#f3f5f8}li{margin:.2rem 0}</style>
</head><body>${html.join('\n')}</body></html>\n`;
}
