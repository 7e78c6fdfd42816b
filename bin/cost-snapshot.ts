/**
 * `npm run cost:snapshot`: rewrites cost/estimate/designs.json, what the cost model reads of each
 * deployable design's template when it prices them (a test fails when it differs from the stack).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEPLOYABLE_DESIGNS } from '../cost/estimate/designs';
import { readStackConfig } from '../cost/estimate/stack-config';
import { parseCommandLine } from '../node/command-line';

parseCommandLine({
  command: 'npm run cost:snapshot --',
  summary:
    'Rewrites cost/estimate/designs.json from the current stack: each deployable design, synthesized with its flags, ' +
    'as the cost model reads it.',
  options: {},
});
// Loaded once the command line is read: the CDK app takes seconds, which --help need not wait.
const { synthesizeTemplate } = await import('../lib/app');

const DESIGNS_FILE = fileURLToPath(new URL('../cost/estimate/designs.json', import.meta.url));
const designs = Object.fromEntries(
  DEPLOYABLE_DESIGNS.map((design) => [design.id, readStackConfig(synthesizeTemplate(design.context))]),
);
writeFileSync(DESIGNS_FILE, `${JSON.stringify(designs, null, 2)}\n`);
console.log(`Wrote ${DESIGNS_FILE} (${Object.keys(designs).join(', ')})`);
