/** `npm run bench:explorer`: the cost explorer's time to answer an edit, in chromium (bench/explorer-timings.ts). */
import { existsSync } from 'node:fs';
import { CommandFailure, parseCommandLine, runCommand, UsageError } from '../../node/command-line';
import { benchExplorer } from '../explorer-timings';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const SPEC = {
  command: 'npm run bench:explorer --',
  summary: "The cost explorer's time to answer an edit, per preset, in chromium: model, render and layout.",
  options: {
    edits: { type: 'string', default: '40', value: '<n>', description: 'edits per preset, 5 to 1000' },
  },
  details: [
    `Needs chromium at ${CHROMIUM} (apt-get install -y chromium), or its path in CHROMIUM_PATH.`,
    'It prints its figures; nothing is asserted (these machines are shared: compare runs, not absolutes).',
  ],
} as const;
const { values } = parseCommandLine(SPEC);

await runCommand(SPEC, async () => {
  const edits = Number(values.edits);
  if (!Number.isInteger(edits) || edits < 5 || edits > 1000)
    throw new UsageError('--edits must be a whole number, 5 to 1000');
  if (!existsSync(CHROMIUM)) throw new CommandFailure(`No chromium at ${CHROMIUM}: apt-get install -y chromium.`);
  await benchExplorer(edits, CHROMIUM);
});
