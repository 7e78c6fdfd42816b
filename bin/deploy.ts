/**
 * `npm run deploy`: `cdk deploy --outputs-file cdk-outputs.json` with the -c flags given, once this machine
 * has AWS credentials configured. Without them it says so in one line, what to run, and exits 1 before the
 * synth, having sent no request (cli/aws-credentials.ts).
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { credentialSource, noCredentialsMessage } from '../cli/aws-credentials';
import {
  badContextPair,
  CommandFailure,
  contextOption,
  parseCommandLine,
  runCommand,
  UsageError,
} from '../cli/command-line';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

const DEPLOY_COMMAND = {
  command: 'npm run deploy --',
  summary:
    'Deploys the stack to AWS (cdk deploy, the pinned CDK CLI), writing its addresses to cdk-outputs.json; ' +
    'first checks, without a request, that AWS credentials are configured.',
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
await runCommand(DEPLOY_COMMAND, () => {
  const bad = badContextPair(context);
  if (bad !== undefined) throw new UsageError(`-c takes key=value (got ${JSON.stringify(bad)})`);
  if (!credentialSource()) throw new CommandFailure(noCredentialsMessage());
});
const cdk = join(ROOT, 'node_modules', '.bin', 'cdk');
const args = ['deploy', '--outputs-file', 'cdk-outputs.json', ...context.flatMap((pair) => ['-c', pair])];
const result = spawnSync(cdk, args, { cwd: ROOT, stdio: 'inherit' });
process.exit(result.status ?? 1);
