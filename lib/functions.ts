/**
 * Every Lambda function of the app is made here, so runtime, architecture,
 * logging and bundling are decided once. The local runtime reads the same
 * bundling settings and the entry recorded in each function's metadata.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  Architecture,
  ApplicationLogLevel,
  type CfnFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { CONSUMER_METRICS } from '../config/vote-queue';
import {
  type AppFunctionId,
  type AppFunctionName,
  BUNDLING,
  FUNCTION_DEFAULTS,
  FUNCTION_METADATA,
} from '../config/functions';
import {
  FUNCTION_ENV,
  type FunctionEnvKey,
  type FunctionSettings,
  type FunctionVariable,
} from '../config/function-env';
import { acknowledge } from './nag';

// The fixed runtime, not NODEJS_LATEST (it has the same name today, and moves when the next one ships).
const RUNTIME = Runtime.ALL.find((r) => r.name === FUNCTION_DEFAULTS.runtime && !r.isVariable);
if (!RUNTIME) throw new Error(`Unknown Lambda runtime ${FUNCTION_DEFAULTS.runtime} in config/functions.ts`);

/** How the template's metadata names a function: `CreatePoll` is createPoll. */
export const appFunctionName = (id: AppFunctionId): AppFunctionName =>
  `${id[0].toLowerCase()}${id.slice(1)}` as AppFunctionName;

/**
 * A function's environment as Lambda takes it, in the order given. A setting for a function that does not
 * read it, or one only the local runtime sets, is a bug of the stack's: an Error at synth.
 */
export function functionEnvironment(fn: AppFunctionName, settings: FunctionSettings): Record<string, string> {
  return Object.fromEntries(
    Object.entries(settings).map(([key, value]) => {
      const variable: FunctionVariable = FUNCTION_ENV[key as FunctionEnvKey];
      if (!variable.functions.includes(fn) || variable.localOnly)
        throw new Error(`The stack does not set ${variable.name} on ${fn} (config/function-env.ts)`);
      return [variable.name, value];
    }),
  );
}

export interface AppFunctionProps {
  /** Source file under lambdas/entries/, e.g. `create-poll-function.ts`. */
  entry: string;
  /** What the stack tells it (config/function-env.ts), by the table's keys; its service name is added here. */
  environment: FunctionSettings;
  timeoutSeconds?: number;
  /** The CloudWatch custom metrics it publishes (recorded in the template for the cost model). */
  customMetrics?: readonly string[];
  /** Caps how many run at once (and so the requests per second a public URL can run up). */
  reservedConcurrency?: number;
}

/** An explicit log group so that retention (and deletion with the stack) is ours to set, not "never expire". */
export function retainedLogGroup(scope: Construct, id: string): LogGroup {
  return new LogGroup(scope, id, {
    // RetentionDays members are their day counts, so the configured number maps directly.
    retention: FUNCTION_DEFAULTS.logRetentionDays as RetentionDays,
    removalPolicy: RemovalPolicy.DESTROY,
  });
}

/** One of the app's functions, named as its construct and the template's metadata name it (`CreatePoll`). */
export function appFunction(scope: Construct, name: AppFunctionId, props: AppFunctionProps): NodejsFunction {
  const entry = `lambdas/entries/${props.entry}`;
  const logGroup = retainedLogGroup(scope, `${name}Logs`);
  const fn = new NodejsFunction(scope, name, {
    entry,
    handler: 'handler',
    runtime: RUNTIME,
    architecture: Architecture.ARM_64,
    memorySize: FUNCTION_DEFAULTS.memoryMb,
    timeout: Duration.seconds(props.timeoutSeconds ?? FUNCTION_DEFAULTS.timeoutSeconds),
    // JSON logs let Lambda drop its START/END/REPORT lines below WARN: that is real money at volume.
    loggingFormat: LoggingFormat.JSON,
    applicationLogLevelV2: ApplicationLogLevel[FUNCTION_DEFAULTS.logLevel],
    systemLogLevelV2: SystemLogLevel[FUNCTION_DEFAULTS.systemLogLevel],
    logGroup,
    reservedConcurrentExecutions: props.reservedConcurrency,
    environment: functionEnvironment(appFunctionName(name), {
      serviceName: CONSUMER_METRICS.service,
      ...props.environment,
    }),
    bundling: {
      ...BUNDLING,
      format: BUNDLING.format === 'cjs' ? OutputFormat.CJS : OutputFormat.ESM,
      externalModules: [...BUNDLING.externalModules],
    },
  });
  acknowledge(
    fn,
    ['AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]'],
    'AWSLambdaBasicExecutionRole grants only CreateLogGroup/CreateLogStream/PutLogEvents; ' +
      'the function writes to its own retained log group.',
  );
  const cfn = fn.node.defaultChild as CfnFunction;
  cfn.addMetadata(FUNCTION_METADATA.entry, entry);
  cfn.addMetadata(FUNCTION_METADATA.name, name);
  if (props.customMetrics) cfn.addMetadata(FUNCTION_METADATA.metrics, props.customMetrics);
  return fn;
}
