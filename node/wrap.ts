/**
 * Prose in lines of at most `width` columns (a word longer than that alone on its line), each one after the first
 * starting with `indent`; a text's own leading spaces are kept. The one wrap of ours: a terminal's (the cost report,
 * every command's help) and the chart's SVG labels (cost/report/chart.ts).
 */
export function wrapLines(text: string, width = 100, indent = '  '): string[] {
  const lead = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  for (const word of text.slice(lead.length).split(' ')) {
    if (line.trim() && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line.trim() ? `${line} ${word}` : line + word;
  }
  return [...lines, line];
}

/** The same, as one text for a terminal. */
export const wrap = (text: string, width = 100, indent = '  '): string => wrapLines(text, width, indent).join('\n');
