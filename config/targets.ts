/**
 * The three places the app runs, and where a deployed one's outputs are: what the
 * tools that act on a running app (npm run load, npm run dlq, npm run localstack:*) read.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeployTarget } from './stack';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the serverless edition runs. */
export const TARGETS = ['local', 'localstack', 'aws'] as const;
export type Target = (typeof TARGETS)[number];

/** What the load tests run against: the serverless edition's targets, and the VPS edition (npm run vps). */
export const LOAD_TARGETS = [...TARGETS, 'vps'] as const;
export type LoadTarget = (typeof LOAD_TARGETS)[number];

/**
 * The VPS edition names itself in this header on its API's answers, so a tool pointed at a URL
 * (npm run load) can say what answers there. Not `Server`: a reverse proxy may put its own there.
 */
export const EDITION_HEADER = 'x-poll-edition';

/** Where `cdk deploy --outputs-file` put each deployed target's outputs. */
export const OUTPUTS_FILES: Record<DeployTarget, string> = {
  aws: join(ROOT, 'cdk-outputs.json'),
  localstack: join(ROOT, 'cdk-outputs.localstack.json'),
};

/** The command that writes each deployed target's outputs file: what a message says when it is missing. */
export const DEPLOY_COMMANDS: Record<DeployTarget, string> = {
  aws: 'npm run deploy (docs/deploy.md)',
  localstack: 'npm run localstack:deploy (docs/localstack.md)',
};
