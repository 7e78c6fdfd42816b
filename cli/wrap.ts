/**
 * Prose for a terminal (the cost report, every command's help): lines of at most `width` columns, each
 * one after the first starting with `indent`; a line's own leading spaces are kept.
 */
export function wrap(text: string, width = 100, indent = '  '): string {
  const lead = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  for (const word of text.slice(lead.length).split(' ')) {
    if (line.trim() && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line.trim() ? `${line} ${word}` : line + word;
  }
  return [...lines, line].join('\n');
}
