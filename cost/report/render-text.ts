/**
 * The report for a terminal: the answer (`npm run cost`, answer.ts's lines) or the full working
 * (`npm run cost -- --detail`, working.ts's blocks), prose wrapped at 100 columns, tables aligned.
 */
import { wrap } from '../../node/wrap';
import { answerLines } from './answer';
import { blocks } from './working';
import type { CostReport } from '../estimate/build-report';

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

/** `npm run cost -- --detail`: the full working for a terminal, prose wrapped at 100 columns. */
export function renderDetail(report: CostReport, where: string[] = []): string {
  const out: string[] = [];
  for (const block of blocks(report, where)) {
    if ('heading' in block) out.push('', block.heading, '═'.repeat(Math.min(block.heading.length, 100)));
    else if ('verdict' in block) out.push(indented(block.verdict));
    else if ('prose' in block) out.push(...block.prose.map((line) => wrap(line)));
    else if ('list' in block) out.push(...block.list.map((line) => wrap(`- ${line}`, 100, '    ')));
    else if ('text' in block) out.push(...block.text.map((line) => wrap(line, 100, '    ')));
    else if ('table' in block && !block.table.markdownOnly) {
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

/** The lines `npm run cost` prints (the answer, or with `detail` the full working), `where` naming the rest. */
export function renderForTerminal(report: CostReport, detail: boolean, where: string[]): string {
  return detail ? renderDetail(report, where) : renderAnswer(report, where);
}
