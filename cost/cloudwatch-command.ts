/**
 * What `npm run cost -- --from-cloudwatch` needs from its command line and from AWS: the window, the
 * stack's name, how soon its clients give up (node/cloudwatch-sdk.ts makes them: cost/ loads no SDK),
 * and each way a call can fail as one line that says which and what to do.
 */
import { STACK_NAME } from '../config/stack';
import { CommandFailure, UsageError } from '../domain/errors';
import { LOCALSTACK } from '../config/emulated-aws';
import { DEPLOY_COMMANDS, OUTPUTS_FILES } from '../config/targets';
import { existsSync, readFileSync } from 'node:fs';
import { CLOUDWATCH_PERMISSIONS, type Window } from './estimate/cloudwatch';

/** The deployed targets it reads, as the load tests name them. */
export const CLOUDWATCH_TARGETS = ['aws', 'localstack'] as const;
export type CloudWatchTarget = (typeof CLOUDWATCH_TARGETS)[number];

/** CloudWatch keeps hourly data for 455 days: a window cannot reach further back. */
const MAX_HOURS = 455 * 24;

/** The window --since or --hours give (the last 24 hours by default); a UsageError for a mistake. */
export function parseWindow(values: { since?: string; hours?: string }, now = new Date()): Window {
  if (values.since !== undefined && values.hours !== undefined)
    throw new UsageError('--since and --hours both give the window: give one of them');
  if (values.since !== undefined) {
    const start = new Date(values.since);
    if (!/^\d{4}-\d\d-\d\d/.test(values.since) || Number.isNaN(start.getTime()))
      throw new UsageError(`--since ${values.since} is not an ISO time (e.g. 2026-11-25T09:00Z)`);
    if (start >= now) throw new UsageError(`--since ${values.since} is not in the past`);
    if (now.getTime() - start.getTime() > MAX_HOURS * 3_600_000)
      throw new UsageError(`--since ${values.since} is more than 455 days ago, longer than CloudWatch keeps metrics`);
    return { start, end: now };
  }
  const hours = values.hours === undefined ? 24 : Number(values.hours);
  if (!Number.isFinite(hours) || hours <= 0 || hours > MAX_HOURS || values.hours?.trim() === '')
    throw new UsageError(`--hours ${values.hours} must be a number of hours above 0, at most ${MAX_HOURS} (455 days)`);
  return { start: new Date(now.getTime() - hours * 3_600_000), end: now };
}

/** The target's stack: --stack, else the one its cdk-outputs file names, else the app's. */
export function stackNameFor(target: CloudWatchTarget, given?: string): string {
  if (given) return given;
  const file = OUTPUTS_FILES[target];
  if (existsSync(file)) {
    try {
      const [name] = Object.keys(JSON.parse(readFileSync(file, 'utf8')));
      if (name) return name;
    } catch {
      // Not JSON: the app's name.
    }
  }
  return STACK_NAME;
}

/** Where the target's calls go, and in which region: what a message names. */
export function endpointOf(target: CloudWatchTarget): string {
  return target === 'localstack' ? LOCALSTACK.endpoint : 'AWS';
}

/**
 * Two attempts, five seconds to connect and ten for an answer: an endpoint where nothing answers fails
 * in well under a minute.
 */
export const CLIENT_LIMITS = { maxAttempts: 2, connectionTimeout: 5_000, requestTimeout: 10_000 } as const;

const CONNECTION_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'];

/** An SDK error as one line saying which it is and what to do; anything else passes through unchanged. */
export function cloudWatchFailure(
  error: unknown,
  context: { target: CloudWatchTarget; stackName: string; endpoint?: string },
): unknown {
  if (!(error instanceof Error) || error instanceof CommandFailure || error instanceof UsageError) return error;
  const { target, stackName, endpoint = LOCALSTACK.endpoint } = context;
  const e = error as Error & { code?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  const code = e.code ?? e.Code ?? e.name;
  const fail = (message: string) => new CommandFailure(message, { cause: error });
  if (
    CONNECTION_CODES.includes(code) ||
    CONNECTION_CODES.some((c) => e.message.includes(c)) ||
    e.name === 'TimeoutError' ||
    /socket hang up|timed? ?out/i.test(e.message)
  )
    return fail(
      target === 'localstack'
        ? `Nothing answers at ${endpoint} (${code}): start LocalStack (npm run localstack:up) ` +
            'or set LOCALSTACK_ENDPOINT to where it runs.'
        : `AWS did not answer (${code}): check the network, and AWS_REGION.`,
    );
  if (e.name === 'CredentialsProviderError' || /could not load credentials/i.test(e.message))
    return fail(
      'No AWS credentials: set AWS_PROFILE (after aws configure or aws sso login) or AWS_ACCESS_KEY_ID and ' +
        'AWS_SECRET_ACCESS_KEY, with read-only access to ' +
        `${CLOUDWATCH_PERMISSIONS.join(' and ')}.`,
    );
  if (/region is missing/i.test(e.message))
    return fail('No AWS region: set AWS_REGION (or a region in your AWS profile) to where the stack is deployed.');
  if (/ExpiredToken|InvalidClientTokenId|UnrecognizedClient|SignatureDoesNotMatch/.test(code))
    return fail(`AWS refused the credentials (${code}): refresh them (aws sso login) or set others.`);
  if (/AccessDenied|UnauthorizedOperation|NotAuthorized/i.test(code))
    return fail(
      `AWS denied access (${e.message.split('\n')[0]}): the command needs ` +
        `${CLOUDWATCH_PERMISSIONS.join(' and ')}, read-only.`,
    );
  if (/does not exist/i.test(e.message))
    return fail(
      `Stack ${stackName} does not exist on ${endpointOf(target)}` +
        `${target === 'aws' ? ` in ${process.env.AWS_REGION ?? 'the configured region'}` : ''}: deploy it ` +
        `(${DEPLOY_COMMANDS[target]}) or name the deployed one with --stack.`,
    );
  // Another answer of the service's: one line; an error of ours passes through, with its trace.
  return e.$metadata ? fail(`${endpointOf(target)} answered ${code}: ${e.message.split('\n')[0]}`) : error;
}
