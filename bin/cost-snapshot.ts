/**
 * `npm run cost:snapshot`: rewrites cost/stack-config.json, what the cost model reads of the
 * stack when there is no cdk.out/ (a test fails when it differs from the current stack).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readStackConfig } from '../cost/stack-config';
import { parseCommandLine } from './command-line';
import { synthesizeTemplate } from '../lib/app';

parseCommandLine({
  command: 'npm run cost:snapshot --',
  summary: 'Rewrites cost/stack-config.json from the current stack: what npm run cost prices when there is no cdk.out/.',
  options: {},
});

const STACK_SNAPSHOT = fileURLToPath(new URL('../cost/stack-config.json', import.meta.url));
writeFileSync(STACK_SNAPSHOT, JSON.stringify(readStackConfig(synthesizeTemplate()), null, 2) + '\n');
console.log(`Wrote ${STACK_SNAPSHOT}`);
