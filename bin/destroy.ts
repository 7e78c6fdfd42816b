/**
 * `npm run destroy`: `cdk destroy` of the stack, after naming it and its region and asking (--force: without
 * asking). Without AWS credentials configured it says what to run in one line and exits 1, as npm run deploy
 * does; with no terminal to ask on and no --force it refuses in one line rather than wait for an answer. cdk
 * synthesizes into a folder of its own, so cdk.out/ stays the design npm run deploy made (node/cdk.ts).
 */
import { DEFAULT_REGION, isRegion } from '../pricing/regions';
import { defaultPlaces, regionInWords, requireCredentials } from '../node/aws-credentials';
import { askYesNo, envForRegion, runCdkElsewhere } from '../node/cdk';
import { CommandFailure, parseCommandLine, runCommand, UsageError } from '../node/command-line';
import { STACK_NAME } from '../config/stack';

const DESTROY_COMMAND = {
  command: 'npm run destroy --',
  summary:
    `Deletes the stack (${STACK_NAME}) from AWS with everything it made (cdk destroy, the pinned CDK CLI), ` +
    'once it has named the stack and its region and you have said yes; first checks, without a request, ' +
    'that AWS credentials are configured.',
  options: {
    region: {
      type: 'string',
      value: '<code>',
      description:
        "the AWS Region the stack is in, as deployed with -c region=<code> (default: cdk.context.json's, " +
        "else where the CDK CLI deploys: AWS_REGION, your profile's, us-east-1)",
    },
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
const env = envForRegion(values.region ? [`region=${values.region}`] : []);
await runCommand(DESTROY_COMMAND, async () => {
  if (values.region !== undefined && !isRegion(values.region))
    throw new UsageError(`--region ${values.region} is not an AWS Region code (e.g. eu-central-1)`);
  const where = regionInWords({ ...defaultPlaces(), env });
  const what = `stack ${STACK_NAME} in ${where}, with the credentials of ${requireCredentials()}`;
  if (values.force) console.log(`Deleting ${what}.`);
  else if (!process.stdin.isTTY)
    throw new UsageError(`Not deleting ${what}: there is no terminal to ask on; add --force to delete it unasked`);
  else if (!(await askYesNo(`Are you sure you want to delete ${what}? (y/n) `)))
    throw new CommandFailure('Nothing was deleted.');
});
// cdk would ask again: it was asked here, with the region named. A delete needs no prices: the synth it makes
// prices its dashboard from the book on hand, whatever the region (a region with none would refuse the synth).
const pricing = ['-c', `region=${DEFAULT_REGION}`];
process.exit(await runCdkElsewhere(['destroy', STACK_NAME, '--force', ...pricing], env));
