/**
 * `npm run destroy`: `cdk destroy` of the stack, after naming it and its region and asking (--force: without
 * asking). Without AWS credentials configured it says what to run in one line and exits 1, as npm run deploy
 * does; with no terminal to ask on and no --force it refuses in one line rather than wait for an answer. cdk
 * synthesizes into a folder of its own, so cdk.out/ stays the design npm run deploy made (cli/cdk.ts).
 */
import { DEFAULT_REGION } from '../pricing/regions';
import { regionInWords, requireCredentials } from '../cli/aws-credentials';
import { askYesNo, runCdkElsewhere } from '../cli/cdk';
import { CommandFailure, parseCommandLine, runCommand, UsageError } from '../cli/command-line';
import { STACK_NAME } from '../config/stack';

const DESTROY_COMMAND = {
  command: 'npm run destroy --',
  summary:
    `Deletes the stack (${STACK_NAME}) from AWS with everything it made (cdk destroy, the pinned CDK CLI), ` +
    'once it has named the stack and its region and you have said yes; first checks, without a request, ' +
    'that AWS credentials are configured.',
  options: {
    force: {
      type: 'boolean',
      short: 'f',
      default: false,
      description: 'delete without asking (where there is no terminal to ask on, it is needed)',
    },
  },
  details: [
    'cdk.out/ is left as it was (cdk synthesizes into a temporary folder). What is deleted and what stays ' +
      '(the table, with -c retainData=true; the CDKToolkit stack): docs/deploy.md "Tear down".',
  ],
} as const;

const { values } = parseCommandLine(DESTROY_COMMAND);
await runCommand(DESTROY_COMMAND, async () => {
  const what = `stack ${STACK_NAME} in ${regionInWords()}, with the credentials of ${requireCredentials()}`;
  if (values.force) console.log(`Deleting ${what}.`);
  else if (!process.stdin.isTTY)
    throw new UsageError(`Not deleting ${what}: there is no terminal to ask on; add --force to delete it unasked`);
  else if (!(await askYesNo(`Are you sure you want to delete ${what}? (y/n) `)))
    throw new CommandFailure('Nothing was deleted.');
});
// cdk would ask again: it was asked here, with the region named. A delete needs no prices: the synth it makes
// prices its dashboard from the book on hand, whatever the region (a region with none would refuse the synth).
const pricing = ['-c', `region=${DEFAULT_REGION}`];
process.exit(await runCdkElsewhere(['destroy', STACK_NAME, '--force', ...pricing]));
