/**
 * What README.md and the pages of docs/ show: the commands in their code (fenced blocks and
 * inline code), with the flags given to each, and their relative links.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** README.md and every Markdown page of docs/, by path from the repository's root. */
export const DOCUMENTS = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The code a Markdown text shows: each line of its fenced blocks, and each inline code span. */
export function codeOf(text: string): string[] {
  const code: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    else if (fenced) code.push(line);
    else code.push(...[...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  }
  return code;
}

export interface ShownCommand {
  /** The package.json script: `npm start` and `npm test` are `start` and `test`. */
  script: string;
  /** The long options shown with it (`--target`), in the order shown. */
  flags: string[];
}

/** Each `npm run <script>`, `npm start` and `npm test` in a line of code, up to a shell operator or a comment. */
export const commandsIn = (code: string): ShownCommand[] =>
  [...code.matchAll(/\bnpm (?:run ([\w:-]*[\w-])|(start|test)\b)([^&|;#]*)/g)].map((m) => ({
    script: m[1] ?? m[2],
    flags: [...m[3].matchAll(/(?:^|\s)(--[a-z][\w-]*)/g)].map((f) => f[1]),
  }));

/** Every command the documents show, with the document it is in. */
export const shownCommands = (): (ShownCommand & { file: string })[] =>
  DOCUMENTS.flatMap((file) =>
    codeOf(readFileSync(file, 'utf8')).flatMap((code) => commandsIn(code).map((c) => ({ file, ...c }))),
  );
