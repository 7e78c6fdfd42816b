/**
 * What `npm run deploy` and `npm run destroy` share: the checks they make before cdk starts (the stack's
 * flags, then credentials: node/aws-credentials.ts), each answered in one line rather than after a synth,
 * and the cdk they start, the CLI this repository pins, from the project's root with the terminal's
 * input and output. And a deployed stack's outputs, as the tools that act on it read them (npm run load,
 * npm run dlq, npm run localstack:*).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { constants, homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { badContextPair, contextOf, UsageError } from './command-line';
import { PROJECT_ROOT } from './folders';
import { STACK_NAME } from '../config/stack';

/** A JSON file's object (or its `key`'s), or nothing where it is missing or no JSON (cdk says so itself). */
function jsonObject(file: string, key?: string): Record<string, unknown> {
  try {
    const json = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    const object = key === undefined ? json : json?.[key];
    return object && typeof object === 'object' ? object : {};
  } catch {
    return {};
  }
}

/**
 * The CDK context cdk gives the app besides -c, as the CDK CLI merges it: cdk.json's `context` over
 * cdk.context.json (where docs/deploy.md keeps a design) over ~/.cdk.json's `context`.
 */
export function contextFiles(root = PROJECT_ROOT, home = homedir()): Record<string, unknown> {
  return {
    ...jsonObject(join(home, '.cdk.json'), 'context'),
    ...jsonObject(join(root, 'cdk.context.json')),
    ...jsonObject(join(root, 'cdk.json'), 'context'),
  };
}

/**
 * The -c pairs, each key=value, and the stack's flags among them and in the context files checked as the
 * synth checks them (lib/app.ts stackPropsFrom, each flag's values written once in config/flags.ts): a
 * UsageError names the first wrong one before credentials are looked for or anything is synthesized.
 */
export async function checkStackFlags(pairs: string[], files = contextFiles()): Promise<void> {
  const bad = badContextPair(pairs);
  if (bad !== undefined) throw new UsageError(`-c takes key=value (got ${JSON.stringify(bad)})`);
  const context = { ...files, ...contextOf(pairs) };
  // Loaded here, not with this module: aws-cdk-lib takes seconds to load, which npm run destroy does not need.
  const { stackPropsFrom } = await import('../lib/app');
  stackPropsFrom((key) => context[key]);
}

/**
 * The environment cdk runs in: with the stack's -c region (given, or in the context files) as AWS_REGION, since
 * the CDK CLI and the SDK under it take the region from there; as it is where no region is named.
 */
export function envForRegion(pairs: string[], files = contextFiles(), env = process.env): NodeJS.ProcessEnv {
  const region = { ...files, ...contextOf(pairs) }.region;
  return typeof region === 'string' ? { ...env, AWS_REGION: region, AWS_DEFAULT_REGION: region } : env;
}

/**
 * Runs the pinned cdk with `args` from the project's root, the terminal its input and output, and returns its
 * exit code. A Ctrl-C reaches cdk (the terminal's whole process group gets it) and stops it as cdk stops;
 * this process waits for it rather than dying first, so that what it does after (a cleanup) still runs.
 */
export function runCdk(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  process.on('SIGINT', () => {});
  const result = spawnSync(join(PROJECT_ROOT, 'node_modules', '.bin', 'cdk'), args, {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
    env,
  });
  if (result.signal) return 128 + constants.signals[result.signal];
  return result.status ?? 1;
}

/**
 * cdk `args` with a cloud assembly folder of its own (`--output`), removed after: the synth cdk makes first
 * leaves cdk.out/, the design npm run deploy made and npm run cost prices, as it was.
 */
export async function runCdkElsewhere(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { inTemporaryOutdir } = await import('../lib/app');
  return inTemporaryOutdir((outdir) => runCdk([...args, '--output', outdir], env));
}

/** Asks `question` on the terminal: true for y or yes; anything else, Ctrl-C or Ctrl-D is no. */
export function askYesNo(
  question: string,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<boolean> {
  const terminal = createInterface({ input, output });
  return new Promise<boolean>((resolve) => {
    // Ctrl-C or Ctrl-D leaves the cursor after the question: the next line starts on a line of its own.
    const no = () => {
      terminal.removeListener('close', no);
      output.write('\n');
      resolve(false);
    };
    terminal.on('SIGINT', no);
    terminal.on('close', no);
    terminal.question(question, (answer) => {
      terminal.removeListener('close', no);
      resolve(/^y(es)?$/i.test(answer.trim()));
    });
  }).finally(() => terminal.close());
}

/** The stack's outputs from a `cdk deploy --outputs-file` JSON file; empty when there is none. */
export function stackOutputs(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>)[STACK_NAME] ?? {};
}
