/** `npm run docs:figures`: rewrites the figures README.md and docs/ quote, or `--check`s them (figures/). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommandFailure, parseCommandLine, runCommand } from '../node/command-line';
import { ROOT, rewrittenDocuments } from '../figures/docs-figures';

const DOCS_FIGURES_COMMAND = {
  command: 'npm run docs:figures --',
  summary:
    'Rewrites the figures README.md and docs/*.md quote from npm run cost (between <!-- figures:NAME --> marks).',
  options: {
    check: {
      type: 'boolean',
      default: false,
      description: 'write nothing; list the files whose figures differ from what the model prints, exit 1 if any',
    },
  },
} as const;

const { values } = parseCommandLine(DOCS_FIGURES_COMMAND);
await runCommand(DOCS_FIGURES_COMMAND, () => {
  const stale = rewrittenDocuments().filter(({ current, expected }) => current !== expected);
  if (values.check) {
    if (stale.length > 0)
      throw new CommandFailure(
        `Figures out of date in ${stale.map((d) => d.file).join(', ')}: run npm run docs:figures.`,
      );
    console.log('Every figure in README.md and docs/ is what the model prints.');
    return;
  }
  for (const { file, expected } of stale) writeFileSync(join(ROOT, file), expected);
  console.log(stale.length > 0 ? `Rewrote ${stale.map((d) => d.file).join(', ')}.` : 'Nothing to rewrite.');
});
