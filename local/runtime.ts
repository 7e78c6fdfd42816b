/**
 * The embedded local runtime: the synthesized stack, served on one machine with no Docker and no
 * AWS account. Start it with startLocalRuntime() (tests) or `npm start` (bin/start.ts). Read
 * assemble() for the order things come up in; each step is a function below it.
 */
import { rmSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { PROJECT_ROOT } from '../node/folders';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SiteConfig } from '../config/site';
import { closeServer, listen, originOf } from '../node/server-shell';
import { EMULATED_REGION as REGION, LOCAL_CREDENTIALS } from '../config/emulated-aws';
import { FUNCTION_ENV } from '../config/function-env';
import { buildServedSite } from '../frontend/served-site';
import { siteServer } from '../frontend/serve';
import { isApiPath, targetOf, wireResponse, writeResponse } from '../node/request-reader';
import { API_RATE_FLAG, HOT_POLL_FLAG } from '../config/vote-path';
import { readStackConfig } from '../cost/estimate/stack-config';
import { awsLimits, type AwsLimits } from './aws-limits';
import { cdnCache } from './cloudfront';
import { functionEndpoint, startEmulators, type Emulators } from './emulators';
import { emulatorClientConfig, RESOURCES_PATH, USAGE_PATH, type LocalResources } from './endpoints';
import type { LocalRuntimeOptions } from './runtime-options';
import { cachedTemplate } from './template-cache';
import { startEventSource } from './event-source';
import type { Faults } from './faults';
import { loadFunctions, type InvokeResult, type LoadedFunction } from './functions';
import { createGateway, functionUrlResponder, readRequest, type IncomingRequest, type LocalResponse } from './gateway';
import type { LambdaEvent } from './lambda-events';
import { Meter, type Usage } from './metering';
import { startSsm } from './ssm';
import { readTemplate, resolveValue, type AppModel, type PhysicalIds } from './template-model';
import type { CorsModel, FunctionUrlModel, Template } from '../template/model';
import { pageCaptcha } from '../domain/captcha';

export interface LocalRuntime {
  url: string;
  /** Where the results function's URL answers (results=function-url), on its own origin. */
  resultsUrl?: string;
  model: AppModel;
  faults: Faults;
  resources: LocalResources;
  /** Invokes a function by its name (e.g. `CountVotes`) as Lambda would. */
  invoke(functionName: string, event: LambdaEvent): Promise<InvokeResult>;
  usage(): Usage;
  /** Messages waiting or in flight, per queue name. */
  queueDepths(): Record<string, number>;
  /** The bodies of all messages in a queue, without receiving them. */
  queueBodies(queueName: string): string[];
  /** Resolves once the vote queue (every queue with a consumer) is empty and nothing is in flight. */
  waitForDrain(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

type Router = (req: IncomingMessage, res: ServerResponse) => void;

/** Where the CAPTCHA secret lives in the local SSM stand-in. */
const CAPTCHA_PARAMETER = '/poll-local/captcha-secret';

export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  // Listen first: a taken port fails in milliseconds, and the site's origin (which the functions'
  // environment names) is known.
  let route: Router | undefined;
  const server = await listen(options.port ?? 0, options.host ?? '127.0.0.1', (req, res) => {
    if (route) route(req, res);
    else res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"message":"Starting"}');
  });
  try {
    return await assemble(server, options, (handler) => (route = handler));
  } catch (error) {
    server.close();
    throw error;
  }
}

/** Everything behind the listening server, in the order it comes up. */
async function assemble(
  server: Server,
  options: LocalRuntimeOptions,
  setRoute: (route: Router) => void,
): Promise<LocalRuntime> {
  const url = originOf(server);
  const { model, template } = await appModel(options);
  const faults: Faults = options.faults ?? {};
  const meter = new Meter(model.apiKind);
  const limits =
    options.awsLimits === undefined ? undefined : limitsOf(template, options.awsLimits, meter, options.awsLimitsClock);
  const emulators = await startEmulators(model, {
    projectRoot: PROJECT_ROOT,
    meter,
    faults,
    dataDir: options.dataDir,
    limits,
  });
  const ssm = options.captcha ? await startSsm({ [CAPTCHA_PARAMETER]: options.captcha.secret }) : undefined;
  const restoreEnvironment = pointSdkClientsAt(
    { dynamoEndpoint: emulators.dynamoEndpoint, sqsEndpoint: emulators.sqsEndpoint, ssmEndpoint: ssm?.endpoint },
    options.sdkMaxAttempts,
  );
  const resolveRef = resolverFor(model, emulators, url);
  const { functions, bundleDir } = await loadFunctions(model.functions, {
    projectRoot: PROJECT_ROOT,
    meter,
    limits,
    environment: (fn) =>
      functionEnvironment(
        fn.environment,
        resolveRef,
        options,
        { name: fn.name, memoryMb: fn.memoryMb },
        emulators.dynamoEndpoint,
      ),
  });
  const sqs = new SQSClient(emulatorClientConfig(emulators.sqsEndpoint));
  const eventSources = startEventSources(model, functions, emulators, sqs, faults, options, meter);
  const functionUrls = await startFunctionUrls(
    model.functionUrls,
    functions,
    resolveRef,
    meter,
    options.host ?? '127.0.0.1',
  );
  const resultsUrl = functionUrls.find((u) => u.functionName === 'GetResults')?.url;
  const siteConfig: SiteConfig = {
    apiUrl: '',
    ...(resultsUrl ? { resultsUrl } : model.apiCacheBehaviors.length > 0 ? { resultsUrl: '' } : {}),
    captcha: pageCaptcha(options.captcha),
  };
  const resources = localResources(model, emulators);
  setRoute(
    router({
      model,
      functions,
      meter,
      siteConfig,
      faults,
      limits,
      cors: resolveCors(model.cors, resolveRef),
      localEndpoints: { [USAGE_PATH]: () => meter.snapshot(), [RESOURCES_PATH]: () => resources },
    }),
  );

  return runtimeHandle({ url, resultsUrl, model, faults, resources, functions, meter, emulators }, async () => {
    await Promise.all([closeServer(server), ...functionUrls.map((u) => closeServer(u.server))]);
    await Promise.all(eventSources.map((source) => source.stop()));
    sqs.destroy();
    await emulators.stop();
    await ssm?.stop();
    rmSync(bundleDir, { recursive: true, force: true });
    restoreEnvironment();
  });
}

/** What a caller holds of a running runtime: where it is, what it metered, its queues, and how to stop it. */
function runtimeHandle(
  parts: {
    url: string;
    resultsUrl?: string;
    model: AppModel;
    faults: Faults;
    resources: LocalResources;
    functions: Map<string, LoadedFunction>;
    meter: Meter;
    emulators: Emulators;
  },
  stop: () => Promise<void>,
): LocalRuntime {
  const { model, emulators, functions, meter } = parts;
  const consumedQueues = model.eventSources.map(
    (m) => model.queues.find((q) => q.logicalId === m.queueLogicalId)!.name,
  );
  const queueDepths = () =>
    Object.fromEntries(
      model.queues.map((q) => {
        const info = emulators.fauxqs.inspectQueue(q.name);
        return [
          q.name,
          info ? info.messages.ready.length + info.messages.delayed.length + info.messages.inflight.length : 0,
        ];
      }),
    );
  return {
    url: parts.url,
    resultsUrl: parts.resultsUrl,
    model,
    faults: parts.faults,
    resources: parts.resources,
    async invoke(functionName, event) {
      const fn = [...functions.values()].find((f) => f.model.name === functionName);
      if (!fn) throw new Error(`No function named ${functionName}`);
      return fn.invoke(event);
    },
    usage: () => meter.snapshot(),
    queueDepths,
    queueBodies(queueName) {
      const info = emulators.fauxqs.inspectQueue(queueName);
      if (!info) return [];
      return [...info.messages.ready, ...info.messages.delayed, ...info.messages.inflight.map((m) => m.message)].map(
        (m) => m.body,
      );
    },
    async waitForDrain(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (consumedQueues.some((name) => queueDepths()[name] > 0)) {
        if (Date.now() > deadline)
          throw new Error(`Queues not drained after ${timeoutMs} ms: ${JSON.stringify(queueDepths())}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop,
  };
}

// ---------- the steps ----------

/** The template, synthesized in this process with the options a deployment would pass as context, and its model. */
async function appModel(options: LocalRuntimeOptions): Promise<{ model: AppModel; template: Template }> {
  const { captcha } = options;
  const context = {
    ...(options.apiKind ? { apiKind: options.apiKind } : {}),
    ...(options.results ? { results: options.results } : {}),
    ...(options.resultsConcurrency !== undefined ? { resultsConcurrency: String(options.resultsConcurrency) } : {}),
    ...(options.hotPollVotesPerSecond !== undefined ? { [HOT_POLL_FLAG]: String(options.hotPollVotesPerSecond) } : {}),
    ...(options.apiRateLimit !== undefined ? { [API_RATE_FLAG]: String(options.apiRateLimit) } : {}),
    ...(captcha
      ? { captcha: captcha.provider, captchaSiteKey: captcha.siteKey, captchaSecretParameter: CAPTCHA_PARAMETER }
      : {}),
  };
  // aws-cdk-lib loads only when the template must be made again.
  const template = await cachedTemplate(PROJECT_ROOT, context, async () => {
    const { synthesizeTemplate } = await import('../lib/app');
    return synthesizeTemplate(context) as Template;
  });
  const model = readTemplate(template);
  if (options.visibilityTimeoutSeconds !== undefined) {
    for (const queue of model.queues) queue.visibilityTimeoutSeconds = options.visibilityTimeoutSeconds;
  }
  return { model, template };
}

/** AWS's limits at `scale`, read from the template as the cost model reads it; the meter reports their refusals. */
function limitsOf(template: Template, scale: number, meter: Meter, clock?: () => number): AwsLimits {
  const stack = readStackConfig(template);
  const limits = awsLimits(stack, scale, clock);
  meter.awsLimits = { scale, stack, refused: limits.refused };
  return limits;
}

/**
 * Points every AWS SDK client this process makes (the handlers') at the emulators, and keeps the
 * consumer's metrics off stdout; returns how to undo it. Process-wide while the runtime runs: the
 * SDK and Powertools read these at a first send or a metric (Metrics.singleMetric), not at cold start.
 */
function pointSdkClientsAt(
  endpoints: { dynamoEndpoint: string; sqsEndpoint: string; ssmEndpoint?: string },
  maxAttempts?: number,
): () => void {
  const variables: Record<string, string> = {
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    [FUNCTION_ENV.dynamoEndpoint.name]: endpoints.dynamoEndpoint,
    [FUNCTION_ENV.sqsEndpoint.name]: endpoints.sqsEndpoint,
    ...(endpoints.ssmEndpoint ? { AWS_ENDPOINT_URL_SSM: endpoints.ssmEndpoint } : {}),
    ...(maxAttempts ? { AWS_MAX_ATTEMPTS: String(maxAttempts) } : {}),
    // The consumer's metrics are CloudWatch lines on stdout: noise in a terminal, and nothing reads them here.
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  const previous = Object.fromEntries(Object.keys(variables).map((k) => [k, process.env[k]]));
  Object.assign(process.env, variables);
  return () => {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

/**
 * Resolves a template value ({Ref}, {Fn::GetAtt}, {Fn::Join}) to the emulated resource. The site
 * is this server: the distribution's domain is its host, and `https://` + it is its http origin.
 */
function resolverFor(model: AppModel, emulators: Emulators, url: string): (value: unknown) => string {
  const host = new URL(url).host;
  const physical: PhysicalIds = {
    ref: (logicalId) =>
      model.tables.some((t) => t.logicalId === logicalId)
        ? emulators.tableName(logicalId)
        : emulators.queueUrl(logicalId),
    getAtt(logicalId, attribute) {
      if (attribute === 'Arn') return emulators.queueArn(logicalId);
      if (attribute === 'DomainName' && model.distributions.some((d) => d.logicalId === logicalId)) return host;
      throw new Error(`The local runtime cannot resolve ${logicalId}.${attribute}`);
    },
  };
  return (value) => resolveValue(value, physical).replace(`https://${host}`, url);
}

/** A function's environment as Lambda sets it, with the runtime's own settings over the template's. */
function functionEnvironment(
  template: Record<string, unknown>,
  resolveRef: (value: unknown) => string,
  options: LocalRuntimeOptions,
  fn: { name: string; memoryMb: number },
  dynamoEndpoint: string,
): Record<string, string> {
  return {
    ...Object.fromEntries(Object.entries(template).map(([key, value]) => [key, resolveRef(value)])),
    AWS_LAMBDA_FUNCTION_NAME: fn.name,
    // Its own path on the table's metering proxy: reads and writes are metered per function.
    [FUNCTION_ENV.dynamoEndpoint.name]: functionEndpoint(dynamoEndpoint, fn.name),
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    POWERTOOLS_LOG_LEVEL: options.logLevel ?? 'WARN',
    ...(options.rateLimits === false ? { [FUNCTION_ENV.rateLimit.name]: 'off' } : {}),
    ...(options.captcha?.verifyUrl ? { [FUNCTION_ENV.captchaVerifyUrl.name]: options.captcha.verifyUrl } : {}),
  };
}

function startEventSources(
  model: AppModel,
  functions: Map<string, LoadedFunction>,
  emulators: Emulators,
  sqs: SQSClient,
  faults: Faults,
  options: LocalRuntimeOptions,
  meter: Meter,
) {
  return model.eventSources.map((mapping) =>
    startEventSource({
      mapping,
      sqs,
      queueUrl: emulators.queueUrl(mapping.queueLogicalId),
      queueArn: emulators.queueArn(mapping.queueLogicalId),
      fn: functions.get(mapping.functionLogicalId)!,
      faults,
      maxReceiveCount: model.queues.find((q) => q.logicalId === mapping.queueLogicalId)?.redrive?.maxReceiveCount,
      pollers: options.pollers,
      redeliverAfterSeconds: options.visibilityTimeoutSeconds,
      onBatchHeld: (ms) => {
        const { name, memoryMb } = functions.get(mapping.functionLogicalId)!.model;
        meter.recordBatchHeld(name, memoryMb, ms);
      },
    }),
  );
}

/** The API's CORS configuration with the site's origin resolved to this server's; a REST header loses its quotes. */
function resolveCors(
  cors: CorsModel | undefined,
  resolveRef: (value: unknown) => string,
): CorsModel<string> | undefined {
  if (cors?.kind === 'http') return { ...cors, allowOrigins: cors.allowOrigins.map(resolveRef) };
  return (
    cors && {
      kind: 'rest',
      preflights: cors.preflights.map((p) => ({
        ...p,
        headers: Object.fromEntries(
          Object.entries(p.headers).map(([name, value]) => [name, resolveRef(value).replace(/^'(.*)'$/, '$1')]),
        ),
      })),
    }
  );
}

/** Each function URL on its own port: its own origin, as on AWS (…lambda-url.<region>.on.aws). */
async function startFunctionUrls(
  urls: FunctionUrlModel[],
  functions: Map<string, LoadedFunction>,
  resolveRef: (value: unknown) => string,
  meter: Meter,
  host: string,
) {
  return Promise.all(
    urls.map(async (model) => {
      const fn = functions.get(model.functionLogicalId)!;
      const respond = functionUrlResponder(fn, {
        ...model.cors,
        allowOrigins: model.cors.allowOrigins.map(resolveRef),
      });
      const server = await listen(0, host, (req, res) => {
        void readRequest(req)
          .then(async (request) => {
            const response = await respond(request);
            send(res, response, request);
            meter.recordFunctionUrl(response.status, response.body.length);
          })
          .catch((error: Error) => failed(res, error));
      });
      return { functionName: fn.model.name, url: `${originOf(server)}/`, server };
    }),
  );
}

function localResources(model: AppModel, emulators: Emulators): LocalResources {
  const voteQueue = model.queues.find((q) => q.redrive)!;
  return {
    dynamoEndpoint: emulators.dynamoEndpoint,
    sqsEndpoint: emulators.sqsEndpoint,
    tableName: emulators.tableName(model.tables[0].logicalId),
    voteQueueUrl: emulators.queueUrl(voteQueue.logicalId),
    deadLetterQueueUrl: emulators.queueUrl(voteQueue.redrive!.deadLetterLogicalId),
  };
}

/** Writes an answer; after a body too large to read, the connection closes (the rest of it was not read). */
function send(res: ServerResponse, response: LocalResponse, request: IncomingRequest): void {
  const headers = request.body === 'too-large' ? { ...response.headers, connection: 'close' } : response.headers;
  writeResponse(res, wireResponse(response.status, headers, response.body), request.method === 'HEAD');
}

/** Nothing a request sends may stop the runtime: what could not be answered is a logged 500. */
function failed(res: ServerResponse, error: Error): void {
  // The client hung up before its request was whole: nobody to answer, nothing wrong here.
  if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || error.message === 'aborted') {
    res.destroy();
    return;
  }
  console.error('[local] request failed', error);
  if (!res.headersSent)
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal Server Error"}');
  else res.destroy();
}

/**
 * The one origin, as CloudFront and API Gateway split it on AWS: /api/* to the API (through a
 * cache for the paths the distribution caches), the runtime's own endpoints, and the site.
 */
function router(parts: {
  model: AppModel;
  functions: Map<string, LoadedFunction>;
  meter: Meter;
  siteConfig: SiteConfig;
  faults: Faults;
  limits?: AwsLimits;
  cors?: CorsModel<string>;
  localEndpoints: Record<string, () => unknown>;
}): Router {
  const { model, meter } = parts;
  const gateway = createGateway({
    kind: model.apiKind,
    routes: model.routes,
    functions: parts.functions,
    faults: parts.faults,
    limits: parts.limits,
    cors: parts.cors,
  });
  const cdn = cdnCache(model.apiCacheBehaviors);
  const serveSite = siteServer(buildServedSite(), parts.siteConfig, (_status, bytes) => meter.recordCdn(bytes));
  return (req, res) => {
    const { path } = targetOf(req.url);
    if (req.method === 'GET' && Object.hasOwn(parts.localEndpoints, path)) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(parts.localEndpoints[path](), null, 2));
      return;
    }
    if (!isApiPath(path)) return serveSite(req, res);
    void (async () => {
      const request = await readRequest(req);
      const fromApi = async () => {
        const { routeKey, response } = await gateway.respond(request);
        meter.recordApi(routeKey, response.status, response.body.length);
        return response;
      };
      if (cdn.covers(request.path)) {
        const { response, hit } = await cdn.respond(request, fromApi);
        meter.recordCdn(response.body.length, hit);
        return send(res, response, request);
      }
      send(res, await fromApi(), request);
    })().catch((error: Error) => failed(res, error));
  };
}
