/**
 * Loads each function the way Lambda would run it: bundled by esbuild with the
 * stack's bundling settings, loaded as its own module with its own environment,
 * invoked with a Lambda context and cut off at its timeout.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { RESULTS_URL } from '../config/results-delivery';
import { EMULATED_ACCOUNT, EMULATED_REGION } from '../config/emulated-aws';
import { BUNDLING } from '../config/functions';
import type { AwsLimits } from './aws-limits';
import type { LambdaEvent } from './lambda-events';
import type { Meter } from './metering';
import type { FunctionModel } from './template-model';

/** BUNDLING in esbuild's terms: how a function is bundled outside CDK (here, and the bundle-size test). */
export const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: BUNDLING.format,
  target: BUNDLING.target,
  minify: BUNDLING.minify,
  external: [...BUNDLING.externalModules],
  logLevel: 'error',
} as const satisfies BuildOptions;

export interface InvokeResult {
  /** `throttled`: refused before it ran, past its reserved concurrency (nothing billed). */
  outcome: 'ok' | 'error' | 'timeout' | 'throttled';
  result?: any;
  error?: Error;
  durationMs: number;
  /**
   * A timed-out handler, still running: Lambda would stop it, a local function cannot be stopped.
   * Settles when the handler does (never rejects).
   */
  running?: Promise<unknown>;
}

export interface LoadedFunction {
  model: FunctionModel;
  invoke(event: LambdaEvent): Promise<InvokeResult>;
}

export async function loadFunctions(
  functions: FunctionModel[],
  options: {
    projectRoot: string;
    environment: (fn: FunctionModel) => Record<string, string>;
    meter: Meter;
    /** With --aws-limits: Lambda's concurrency and requests a second, scaled. */
    limits?: Pick<AwsLimits, 'invoke'>;
  },
): Promise<{ functions: Map<string, LoadedFunction>; bundleDir: string }> {
  // Inside the project so that the bundles resolve the AWS SDK from its node_modules, as Lambda's runtime provides it.
  const outdir = join(options.projectRoot, 'node_modules', '.cache', 'poll-local', randomUUID());
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: Object.fromEntries(functions.map((fn) => [fn.logicalId, join(options.projectRoot, fn.entry)])),
    outdir,
    ...ESBUILD_OPTIONS,
  });

  const require = createRequire(join(outdir, 'index.js'));
  const loaded = new Map<string, LoadedFunction>();
  for (const model of functions) {
    const env = options.environment(model);
    // Handlers read their settings at cold start, as on Lambda: apply this function's environment while it loads.
    const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
    Object.assign(process.env, env);
    const started = performance.now();
    let mod: Record<string, any>;
    try {
      mod = require(join(outdir, `${model.logicalId}.js`));
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    options.meter.fn(model.name, model.memoryMb).initMs += Math.ceil(performance.now() - started);
    const handler = mod[model.handler];
    if (typeof handler !== 'function') throw new Error(`${model.entry} does not export ${model.handler}()`);
    const throttle = model.reservedConcurrency === undefined ? undefined : concurrencyLimit(model.reservedConcurrency);
    loaded.set(model.logicalId, {
      model,
      async invoke(event) {
        const throttled = (): InvokeResult => {
          options.meter.recordInvocation(model.name, model.memoryMb, 0, 'throttled');
          return { outcome: 'throttled', durationMs: 0 };
        };
        if (throttle && !throttle.enter()) return throttled();
        const admitted = options.limits?.invoke({ name: model.name, reservedConcurrency: model.reservedConcurrency });
        if (typeof admitted === 'string') {
          throttle?.leave();
          return throttled();
        }
        try {
          return await invoke(model, handler, event, options.meter);
        } finally {
          throttle?.leave();
          admitted?.();
        }
      },
    });
  }
  return { functions: loaded, bundleDir: outdir };
}

/**
 * Reserved concurrency as Lambda applies it: no more than `reserved` at once, and no more than
 * 10 requests a second per unit of it (RESULTS_URL.requestsPerSecondPerConcurrency).
 */
function concurrencyLimit(reserved: number) {
  let running = 0;
  let second = 0;
  let started = 0;
  return {
    enter(): boolean {
      const now = Math.floor(Date.now() / 1000);
      if (now !== second) {
        second = now;
        started = 0;
      }
      if (running >= reserved || started >= reserved * RESULTS_URL.requestsPerSecondPerConcurrency) return false;
      running++;
      started++;
      return true;
    },
    leave(): void {
      running--;
    },
  };
}

async function invoke(
  model: FunctionModel,
  handler: (event: unknown, context: unknown) => Promise<unknown>,
  event: unknown,
  meter: Meter,
): Promise<InvokeResult> {
  const started = performance.now();
  const deadline = Date.now() + model.timeoutSeconds * 1000;
  const context = {
    awsRequestId: randomUUID(),
    functionName: model.name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${EMULATED_REGION}:${EMULATED_ACCOUNT}:function:${model.name}`,
    memoryLimitInMB: String(model.memoryMb),
    logGroupName: `/aws/lambda/${model.name}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), model.timeoutSeconds * 1000);
  });
  let outcome: InvokeResult;
  const running = handler(event, context);
  try {
    const result = await Promise.race([running, timeout]);
    outcome =
      result === 'timeout'
        ? { outcome: 'timeout', durationMs: 0, running: running.catch(() => undefined) }
        : { outcome: 'ok', result, durationMs: 0 };
  } catch (error) {
    outcome = { outcome: 'error', error: error as Error, durationMs: 0 };
  } finally {
    clearTimeout(timer);
  }
  outcome.durationMs = performance.now() - started;
  meter.recordInvocation(model.name, model.memoryMb, outcome.durationMs, outcome.outcome);
  return outcome;
}
