/** The report's body in HTML, as the explorer shows the full report (explorer.ts): its Markdown, converted. */
import { renderChart } from './chart';
import { renderMarkdown } from './render-markdown';
import { escapeHtml } from '../estimate/format';
import type { CostReport } from '../estimate/build-report';

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
