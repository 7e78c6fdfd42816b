/** The app's Lambda functions: their names, the settings they share, and what the template records of each. */
import type { ApiFunctionName } from './api-contract';

/** The functions the stack makes: the four behind the API (config/api-contract.ts ROUTES) and the vote consumer. */
export type AppFunctionName = ApiFunctionName | 'countVotes';
/** How its construct and the template's metadata name it: createPoll is `CreatePoll`. */
export type AppFunctionId = Capitalize<AppFunctionName>;

/**
 * Template metadata on each app function: its source file and its name. The local runtime
 * finds the handler by it, and the cost model which function does what.
 */
export const FUNCTION_METADATA = {
  entry: 'poll:entry',
  name: 'poll:function',
  metrics: 'poll:custom-metrics',
} as const;

/** Lambda settings shared by every function. */
export const FUNCTION_DEFAULTS = {
  /** The newest Node.js Lambda runtime (cdk-nag AwsSolutions-L1); bundles target the same version. */
  runtime: 'nodejs24.x',
  architecture: 'arm64',
  memoryMb: 256,
  timeoutSeconds: 5,
  logLevel: 'INFO',
  systemLogLevel: 'WARN',
  logRetentionDays: 14,
} as const;

/** How handlers are bundled: by the stack's NodejsFunction for AWS and by the local runtime alike. */
export const BUNDLING = {
  minify: true,
  // esbuild's name for the runtime's Node.js version: nodejs24.x -> node24.
  target: FUNCTION_DEFAULTS.runtime.replace(/^nodejs(\d+)\.x$/, 'node$1'),
  format: 'cjs',
  // The Lambda Node.js runtime ships the AWS SDK v3: leaving it out keeps bundles small.
  externalModules: ['@aws-sdk/*'],
} as const;
