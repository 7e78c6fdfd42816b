/**
 * `npm run deploy`: `cdk deploy --outputs-file cdk-outputs.json` with the -c flags given. First, in one line
 * each and before any synth: a wrong flag (exit 2), then a machine with no AWS credentials configured (exit 1,
 * what to run, no request sent: node/aws-credentials.ts). What it shares with npm run destroy: node/cdk.ts.
 */
import { requireCredentials } from '../node/aws-credentials';
import { checkStackFlags, envForRegion, runCdk } from '../node/cdk';
import { contextOption, parseCommandLine, runCommand } from '../node/command-line';

const DEPLOY_COMMAND = {
  command: 'npm run deploy --',
  summary:
    'Deploys the stack to AWS (cdk deploy, the pinned CDK CLI), writing its addresses to cdk-outputs.json; ' +
    'first checks its flags and, without a request, that AWS credentials are configured.',
  options: {
    context: contextOption(
      'CDK context, as with cdk (e.g. -c results=function-url, the flags npm run cost names); may be repeated',
    ),
  },
  details: [
    'The flags: docs/deploy.md "Flags". Credentials: aws configure, or aws sso login with AWS_PROFILE;',
    'other cdk deploy options: npx cdk deploy --outputs-file cdk-outputs.json <options>.',
  ],
} as const;

const { values } = parseCommandLine(DEPLOY_COMMAND);
const context = values.context ?? [];
await runCommand(DEPLOY_COMMAND, async () => {
  await checkStackFlags(context);
  requireCredentials();
});
// -c region=<code> (or cdk.context.json's) deploys there.
const args = ['deploy', '--outputs-file', 'cdk-outputs.json', ...context.flatMap((pair) => ['-c', pair])];
process.exit(runCdk(args, envForRegion(context)));
