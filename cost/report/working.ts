/**
 * The report's full working, in the order a reader needs it, nothing referring forward: the verdict, what
 * was measured, the traffic and its busiest second, every design, the recommended design's bill and its
 * capacity stage by stage, the stack in cdk.out/ where it is another design, the VPS boxes and the one
 * break-even, a domain's DNS, the what-ifs, the assumptions, and the verdict again. One list of blocks,
 * written for a terminal (`npm run cost -- --detail`) and as Markdown (report.md, the explorer's full report).
 */
import {
  answerLines,
  breakEvenText,
  closingSentence,
  consumerRampLine,
  measuredUsage,
  observedLine,
  verdictLines,
} from './answer';
import { renderChart } from './chart';
import { VPS_DNS, domainDns } from '../estimate/dns';
import { escapeHtml, percent, usd } from '../estimate/format';
import type { Bill } from '../estimate/model';
import { PRICE_SHEET_CHECKED, PRICE_SHEET_REGION, PRICE_SHEET_SOURCE } from '../../config/aws-prices';
import { VPS_MAX_UTILISATION } from '../estimate/vps';
import { CAPACITY_REFERENCES } from '../estimate/vps-tiers';
import type { CostReport } from '../estimate/build-report';
import {
  billRows,
  capacityBasis,
  capacityHead,
  capacityLines,
  capacityRows,
  cloudFrontPlanLines,
  cloudFrontPollReads,
  cloudWatchHead,
  cloudWatchNotes,
  cloudWatchRows,
  cloudWatchTitle,
  creditsNote,
  deploymentHead,
  deploymentRows,
  DESIGNS_INTRO,
  designHead,
  designRows,
  floodLines,
  floorLine,
  headline,
  managedInstancesLines,
  markdownPrices,
  markdownQuotas,
  mdAlign,
  mdRow,
  peakLines,
  perMillionVotes,
  recommendation,
  referenceHead,
  referenceRows,
  stageHead,
  stageRows,
  table,
  toCarry,
  voteRateWorking,
  vpsHead,
  vpsLine,
  vpsRows,
  vpsTextColumns,
  vpsWorking,
  wrap,
} from './report';

/** A part of the report: a heading, sentences, a list, a table, or lines for one of the two forms only. */
type Block =
  | { heading: string }
  | { verdict: string[] }
  | { prose: string[] }
  | { list: string[] }
  | {
      table: {
        head: string[];
        rows: string[][];
        right: number[];
        /** In a terminal, where width is short: other rows and headings, or only some columns. */
        textRows?: string[][];
        textHead?: string[];
        textRight?: number[];
        textColumns?: number[];
      };
    }
  | { text: string[] }
  | { markdown: string[] };

/** Whether the stack read (cdk.out/, --template, else the default design) is another bill than the recommended. */
export function stackDiffers({ design, recommended, bill }: CostReport): boolean {
  return design !== recommended.id || Math.abs(bill.totalUsd - recommended.bill.totalUsd) >= 0.005;
}

/** A bill as a table, then its total, its total without the always-free allowances and its credits. */
function billBlocks(bill: Bill): Block[] {
  const total = `${usd(bill.totalUsd)} a month (${perMillionVotes(bill)})`;
  const free = bill.withoutFreeUsd > bill.totalUsd ? `${usd(bill.withoutFreeUsd)} a month` : undefined;
  return [
    {
      table: {
        head: ['Service', 'Item', 'Usage', 'Unit price', 'Monthly'],
        rows: billRows(bill),
        right: [2, 4],
        // Service and item in one column: the table fits a terminal.
        textRows: billRows(bill).map(([service, item, ...rest]) => [`${service} ${item}`, ...rest]),
        textHead: ['Item', 'Usage', 'Unit price', 'Monthly'],
        textRight: [3],
      },
    },
    {
      prose: [
        `Total: ${total}.`,
        ...(free ? [`Without AWS's always-free allowances: ${free} (what it costs once usage is past them).`] : []),
        ...(bill.creditsUsd > 0 ? [`New-account credits: -${usd(bill.creditsUsd)}, ${creditsNote(bill)}.`] : []),
      ],
    },
  ];
}

/** The design of the stack read (cdk.out/, --template, else the default design). */
const designName = (report: CostReport) =>
  report.designs.find((d) => d.id === report.design)?.name ?? 'a stack of no listed design';
/** The name of the stack read, and where from. */
const stackName = (report: CostReport) =>
  `${designName(report)} (${report.stack.apiKind.toUpperCase()} API; read from ${report.stackSource})`;

/** The bill of the stack read, a section of its own, when it is not the recommended design's. */
function stackBlocks(report: CostReport): Block[] {
  if (!stackDiffers(report)) return [];
  const row = report.designs.find((d) => d.id === report.design);
  const warning =
    row && !row.capacity.carries
      ? [
          `It does not carry this profile's peak as deployed (${row.capacity.bottleneck}): this is the bill of a ` +
            'month it cannot serve.',
        ]
      : [];
  return [
    { heading: 'The stack read, another design than the recommended' },
    { prose: [`${stackName(report)}.`, ...warning] },
    ...billBlocks(report.bill),
    { prose: headline(report.bill, report.idle) },
  ];
}

/** Every block, in reading order; `where` (the terminal's: the report files) before the verdict again. */
function blocks(report: CostReport, where: string[] = []): Block[] {
  const { recommended: r, cloudWatch: cw, measured } = report;
  const dns = domainDns();
  const capacityQuestion = `Can each carry the busiest second${report.account === 'new' ? ' on a new account' : ''}?`;
  return [
    { heading: 'The answer' },
    { verdict: verdictLines(report) },
    ...(cw
      ? [
          { heading: cloudWatchTitle(cw) },
          { table: { head: cloudWatchHead, rows: cloudWatchRows(cw), right: [1, 2, 4, 5, 6] } },
          { list: cloudWatchNotes(cw) },
        ]
      : []),
    { heading: `The traffic: profile "${report.profile.name}"` },
    {
      list: [report.profile.description, ...(measured ? [measuredUsage(measured)] : []), ...peakLines(report)],
    },
    { heading: 'Every AWS design' },
    { prose: [floorLine(report), DESIGNS_INTRO] },
    {
      table: { head: designHead, rows: designRows(report), right: [1, 2, 3], textRows: designRows(report, true) },
    },
    { prose: [capacityQuestion] },
    {
      table: {
        head: capacityHead,
        rows: capacityRows(report),
        right: [],
        textRows: capacityRows(report, true),
        textColumns: [0, 1, 2],
      },
    },
    { text: report.designs.filter((d) => d.deploy && !d.capacity.carries).map((d) => `  - ${d.name}: ${toCarry(d)}`) },
    { prose: [...cloudFrontPollReads(report), ...cloudFrontPlanLines(report)] },
    { heading: `The recommended design: ${r.name}` },
    { list: [...recommendation(report), voteRateWorking(report), ...consumerRampLine(report)] },
    ...billBlocks(r.bill),
    { prose: headline(r.bill, stackDiffers(report) ? undefined : report.idle) },
    { prose: [`Stage by stage at the peak, ${r.name} as its command deploys it:`] },
    { table: { head: deploymentHead, rows: deploymentRows(r), right: [] } },
    ...report.designs
      .filter((d) => d.deploy && d.id !== r.id)
      .flatMap((d): Block[] => [
        { markdown: [`### ${d.name}, stage by stage at the peak, as deployed`, ''] },
        { markdown: [mdRow(stageHead), mdAlign(stageHead, []), ...stageRows(d).map(mdRow), ''] },
      ]),
    { list: [capacityBasis(report), ...floodLines(report)] },
    ...stackBlocks(report),
    { heading: 'On a VPS' },
    {
      prose: [
        `The same month on one box, at the CPU this app's requests cost; a box carries at most ` +
          `${percent(VPS_MAX_UTILISATION)} of its capacity, and "Carries?" gives its load as a share of that capacity:`,
      ],
    },
    {
      table: {
        head: vpsHead,
        rows: vpsRows(report),
        right: [2, 3, 5, 6, 7],
        textColumns: vpsTextColumns(report),
      },
    },
    // A row that does not carry says why: how far it is, and what bounds it.
    { list: report.vps.filter((v) => !v.carries).map((v) => `${v.name} does not carry it: ${v.why}.`) },
    { list: vpsWorking(report) },
    // The seed documents' own figures, for scale: their programs, machines and conditions, not this app's.
    {
      table: {
        head: referenceHead,
        rows: referenceRows(),
        right: [1, 2],
        textHead: referenceHead.slice(0, 3),
        textRows: referenceRows().map((row) => row.slice(0, 3)),
        textRight: [1, 2],
      },
    },
    { text: CAPACITY_REFERENCES.map((ref) => `  ${ref.name}: ${ref.conditions} (${ref.source}).`) },
    {
      prose: [
        vpsLine(report),
        ...(report.vpsCapacity.observed ? [observedLine(report.vpsCapacity.observed, report.designRps)] : []),
        `The one break-even, ${r.name} against ${report.answer.vps.name}: ${breakEvenText(report, 'that box')}`,
      ],
    },
    { list: capacityLines(report) },
    { markdown: ['![Monthly cost against monthly votes](chart)', ''] },
    { heading: 'A domain' },
    {
      prose: [
        `Your own domain adds: ${dns.text}. ${VPS_DNS.name}: ${VPS_DNS.source}, checked ${VPS_DNS.checked}; ` +
          `an assumption: ${VPS_DNS.assumption}.`,
      ],
    },
    { heading: `What if… (the stack read: ${designName(report)}, ${usd(report.bill.totalUsd)} a month)` },
    {
      table: {
        head: ['Change', 'Monthly', 'Difference'],
        rows: report.whatIfs.map((w) => [
          w.name,
          usd(w.bill.totalUsd),
          `${w.deltaUsd >= 0 ? '+' : '−'}${usd(Math.abs(w.deltaUsd))}`,
        ]),
        right: [1, 2],
      },
    },
    { prose: managedInstancesLines(report) },
    { heading: 'Assumptions (* in the tables)' },
    { list: report.assumptions },
    {
      prose: [
        `Prices: ${PRICE_SHEET_REGION}, list prices checked ${PRICE_SHEET_CHECKED} ` +
          `(config/aws-prices.ts; gathered in ${PRICE_SHEET_SOURCE}).`,
      ],
    },
    { markdown: [...markdownPrices(), '', ...markdownQuotas(), ''] },
    { heading: 'In short' },
    { text: where },
    { prose: [closingSentence(report)] },
  ];
}

/** `npm run cost -- --detail`: the full working for a terminal, prose wrapped at 100 columns. */
export function renderDetail(report: CostReport, where: string[] = []): string {
  const out: string[] = [];
  for (const block of blocks(report, where)) {
    if ('heading' in block) out.push('', block.heading, '═'.repeat(Math.min(block.heading.length, 100)));
    else if ('verdict' in block) out.push(indented(block.verdict));
    else if ('prose' in block) out.push(...block.prose.map((line) => wrap(line)));
    else if ('list' in block) out.push(...block.list.map((line) => wrap(`- ${line}`, 100, '    ')));
    else if ('text' in block) out.push(...block.text.map((line) => wrap(line, 100, '    ')));
    else if ('table' in block) {
      const { head, rows, right, textRows = rows, textHead = head, textRight = right, textColumns } = block.table;
      const pick = (row: string[]) => (textColumns ? textColumns.map((i) => row[i]) : row);
      const aligned = textColumns ? textColumns.flatMap((c, i) => (textRight.includes(c) ? [i] : [])) : textRight;
      out.push(table(pick(textHead), textRows.map(pick), aligned), '');
    }
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Lines wrapped at 100 columns, an indented one keeping its indent on each of its lines. */
const indented = (lines: string[]): string =>
  lines
    .map((line) => {
      // An indented line keeps its indent on each of its lines, and continues two further in.
      const indent = /^ */.exec(line)![0];
      const wrapped = wrap(line.trimStart(), 100 - indent.length, '  ');
      return wrapped
        .split('\n')
        .map((part) => indent + part)
        .join('\n');
    })
    .join('\n');

/** `npm run cost`: the answer, in at most ~30 lines at 100 columns (answer.ts), `where` naming the full working. */
export const renderAnswer = (report: CostReport, where: string[]): string => indented(answerLines(report, where));

/** The report in Markdown, the chart linked as `chartFile`. */
export function renderMarkdown(report: CostReport, chartFile: string): string {
  // A list item's lead, up to its first colon, bold where it is a short one ("Cheapest AWS design ...:").
  const boldLead = (line: string) => {
    const colon = line.indexOf(':');
    return colon > 0 && colon < 60 ? `**${line.slice(0, colon + 1)}**${line.slice(colon + 1)}` : line;
  };
  const out = [`# Monthly AWS bill: profile "${report.profile.name}"`, ''];
  for (const block of blocks(report)) {
    if ('heading' in block) out.push(`## ${block.heading}`, '');
    else if ('verdict' in block) {
      const [first, ...rest] = block.verdict;
      out.push(`**${first}**`, '', ...rest.map((line) => `- ${line.trim().replace(/ {2,}/g, ' ')}`), '');
    } else if ('prose' in block) out.push(...block.prose.flatMap((line) => [line, '']));
    else if ('list' in block) out.push(...block.list.map((line) => `- ${boldLead(line)}`), '');
    else if ('markdown' in block)
      out.push(...block.markdown.map((line) => line.replace('](chart)', `](${chartFile})`)));
    else if ('table' in block) {
      const { head, rows, right } = block.table;
      out.push(mdRow(head), mdAlign(head, right), ...rows.map(mdRow), '');
    }
  }
  return `${out.join('\n').trim()}\n`;
}

/** The report's body in HTML: the Markdown report, converted; the chart drawn in it unless `chart` is false. */
export function reportBodyHtml(report: CostReport, chart = true): string {
  const md = renderMarkdown(report, '');
  // A small Markdown subset (headings, lists, tables, bold) is all the report uses.
  const inline = (text: string) => escapeHtml(text).replace(/\*\*(.+?)\*\*/g, '<b>$1</b>');
  const html: string[] = [];
  // A table's headings, which each of its cells carries (a narrow screen shows its rows as cards: explorer.css).
  let head: string[] | undefined;
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
      if (head) {
        const tds = cells.map((c, i) => `<td data-label="${escapeHtml(head![i])}">${inline(c)}</td>`);
        html.push(`<tr>${tds.join('')}</tr>`);
      } else {
        head = cells;
        const ths = cells.map((c) => `<th>${inline(c)}</th>`).join('');
        html.push(`<div class="scroll"><table class="cards"><thead><tr>${ths}</tr></thead>`);
      }
      continue;
    }
    if (head) html.push('</table></div>');
    head = undefined;
    if (line.startsWith('![')) html.push(chart ? renderChart(report) : '');
    else if (line.startsWith('### ')) html.push(`<h3>${escapeHtml(line.slice(4))}</h3>`);
    else if (line.startsWith('## ')) html.push(`<h2>${escapeHtml(line.slice(3))}</h2>`);
    else if (line.startsWith('# ')) html.push(`<h1>${escapeHtml(line.slice(2))}</h1>`);
    else if (line.startsWith('- ')) html.push(`<li>${inline(line.slice(2))}</li>`);
    else if (line.trim()) html.push(`<p>${inline(line)}</p>`);
  }
  if (head) html.push('</table></div>');
  if (inList) html.push('</ul>');
  return html.join('\n');
}

/** The lines `npm run cost` prints (the answer, or with `detail` the full working), `where` naming the rest. */
export function renderForTerminal(report: CostReport, detail: boolean, where: string[]): string {
  return detail ? renderDetail(report, where) : renderAnswer(report, where);
}
