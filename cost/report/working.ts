/**
 * The report's full working, in the order a reader needs it, nothing referring forward: the verdict, what
 * was measured, the traffic and its busiest second, every design, the recommended design's bill and its
 * capacity stage by stage, the stack in cdk.out/ where it is another design, the VPS boxes and the one
 * break-even, a domain's DNS, the what-ifs, the assumptions, and the verdict again. One list of blocks, of
 * the sentences the *-lines.ts files write; each format renders it: render-text.ts (`npm run cost -- --detail`),
 * render-markdown.ts (report.md), render-html.ts (the explorer's full report).
 */
import { bookText } from '../../pricing/book-words';
import {
  breakEvenText,
  closingSentence,
  consumerRampLine,
  designName,
  measuredUsage,
  observedLine,
  rateLines,
  stackDiffers,
  stackName,
  verdictLines,
} from './answer';
import {
  billRows,
  cloudWatchHead,
  cloudWatchNotes,
  cloudWatchRows,
  cloudWatchTitle,
  creditsNote,
  headline,
  perMillionVotes,
  priceSheetHead,
  priceSheetRows,
  quotaHead,
  quotaRows,
} from './bill-lines';
import {
  capacityBasis,
  capacityHead,
  capacityRows,
  deploymentHead,
  deploymentRows,
  floodLines,
  peakLines,
  stageHead,
  stageRows,
  toCarry,
  voteRateWorking,
} from './capacity-lines';
import {
  cloudFrontPlanLines,
  cloudFrontPollReads,
  DESIGNS_INTRO,
  designHead,
  designRows,
  floorLine,
  managedInstancesLines,
  recommendation,
} from './design-lines';
import {
  capacityLines,
  referenceHead,
  referenceRows,
  vpsHead,
  vpsLine,
  vpsRows,
  vpsTextColumns,
  vpsWorking,
} from './vps-lines';
import { VPS_DNS, domainDns } from '../estimate/dns';
import { percent, signedUsd, usd } from '../estimate/format';
import type { Bill } from '../estimate/bill';
import { VPS_MAX_UTILISATION } from '../estimate/vps';
import { CAPACITY_REFERENCES } from '../estimate/vps-tiers';
import type { CostReport } from '../estimate/build-report';
import { bottleneckName } from '../estimate/capacity';

/**
 * A part of the report, which each format renders its way: a heading, sentences, a list, a table, or lines
 * for one of the forms only.
 */
export type Block =
  | { heading: string }
  | { verdict: string[] }
  | { prose: string[] }
  | { list: string[] }
  | {
      table: {
        head: string[];
        rows: string[][];
        right: number[];
        /** Only in Markdown: a terminal has no room for it. */
        markdownOnly?: true;
        /** In a terminal, where width is short: other rows and headings, or only some columns. */
        textRows?: string[][];
        textHead?: string[];
        textRight?: number[];
        textColumns?: number[];
      };
    }
  | { text: string[] }
  | { markdown: string[] };

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

/** The bill of the stack read, a section of its own, when it is not the recommended design's. */
function stackBlocks(report: CostReport): Block[] {
  if (!stackDiffers(report)) return [];
  const row = report.designs.find((d) => d.id === report.design);
  const warning =
    row && !row.capacity.carries
      ? [
          `It does not carry this profile's peak as deployed (${bottleneckName(row.capacity)}): this is the bill ` +
            'of a month it cannot serve.',
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
export function blocks(report: CostReport, where: string[] = []): Block[] {
  const { recommended: r, cloudWatch: cw, measured } = report;
  const dns = domainDns(report.options.book, report.profile.currency);
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
      table: {
        head: designHead,
        rows: designRows(report),
        right: [1, 2, 3],
        textRows: designRows(report, true),
      },
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
        { table: { head: stageHead, rows: stageRows(d), right: [], markdownOnly: true } },
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
    { list: [...rateLines(report, { full: true }), ...vpsWorking(report)] },
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
        rows: report.whatIfs.map((w) => [w.name, usd(w.bill.totalUsd), signedUsd(w.deltaUsd)]),
        right: [1, 2],
      },
    },
    { prose: managedInstancesLines(report) },
    { heading: 'Assumptions (* in the tables)' },
    { list: report.assumptions },
    ...(report.notPriced?.length
      ? [
          { prose: ['Not priced: what the stack read holds beyond what this model prices (the bills leave it out).'] },
          { list: report.notPriced.map((n) => `${n.type} ${n.logicalId}: ${n.why}`) },
        ]
      : []),
    {
      prose: [`Prices: ${bookText(report.options.book)}.`],
    },
    { markdown: ['## Prices', ''] },
    { table: { head: priceSheetHead, rows: priceSheetRows(report.options.book), right: [], markdownOnly: true } },
    { markdown: ['## Quotas', ''] },
    { table: { head: quotaHead, rows: quotaRows(report.options.book.region), right: [1], markdownOnly: true } },
    { heading: 'In short' },
    { text: where },
    { prose: [closingSentence(report)] },
  ];
}
