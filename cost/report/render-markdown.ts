/** The report in Markdown (report.md): the full working's blocks (working.ts), the chart linked. */
import { blocks } from './working';
import type { CostReport } from '../estimate/build-report';

export const mdRow = (cells: string[]) => `| ${cells.join(' | ')} |`;

export const mdAlign = (head: string[], right: number[]) =>
  mdRow(head.map((_, i) => (right.includes(i) ? '---:' : '---')));

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
