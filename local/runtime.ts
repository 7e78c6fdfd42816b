/**
 * The embedded local runtime: the synthesized stack, served on one machine with
 * no Docker and no AWS account. Start it with startLocalRuntime() (tests) or
 * `npm start` (local/cli.ts).
 */
import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQSClient } from '@aws-sdk/client-sqs';
import { API_BASE_PATH, type ApiKind, type CaptchaProvider } from '../config/app-config';
import { synthesizeTemplate } from '../lib/app';
import { startEmulators } from './emulators';
import { EMULATED_REGION as REGION, LOCAL_CREDENTIALS } from '../config/emulated-aws';
import { emulatorClientConfig, RESOURCES_PATH, USAGE_PATH, type LocalResources } from './endpoints';
import { startEventSource } from './event-source';
import type { Faults } from './faults';
import { loadFunctions, type InvokeResult } from './functions';
import { createGateway } from './gateway';
import { Meter, type Usage } from './metering';
import { startSsm } from './ssm';
import { buildSite } from '../frontend/build';
import { siteServer } from '../frontend/serve';
import { readTemplate, resolveValue, type AppModel, type PhysicalIds, type Template } from './template-model';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface LocalRuntimeOptions {
  apiKind?: ApiKind;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Persist the table here; in memory when absent. */
  dataDir?: string;
  /** Handler log level (the deployed default is INFO; WARN keeps a terminal readable). */
  logLevel?: string;
  faults?: Faults;
  /**
   * Per-address rate limits on create and vote, as the template sets them (default). Load tests
   * and benchmarks send everything from 127.0.0.1 and turn them off.
   */
  rateLimits?: boolean;
  /**
   * A CAPTCHA as a deployment would have it: the provider and site key go into the template,
   * the secret into a local SSM parameter. `verifyUrl` replaces the provider's siteverify (tests).
   */
  captcha?: { provider: CaptchaProvider; siteKey: string; secret: string; verifyUrl?: string };
  /** Test-only: override queue visibility timeouts (seconds) so redeliveries happen quickly. */
  visibilityTimeoutSeconds?: number;
  pollers?: number;
}

export interface LocalRuntime {
  url: string;
  model: AppModel;
  faults: Faults;
  resources: LocalResources;
  /** Invokes a function by its name (e.g. `CountVotes`) as Lambda would. */
  invoke(functionName: string, event: unknown): Promise<InvokeResult>;
  usage(): Usage;
  /** Messages waiting or in flight, per queue name. */
  queueDepths(): Record<string, number>;
  /** The bodies of all messages in a queue, without receiving them. */
  queueBodies(queueName: string): string[];
  /** Resolves once the vote queue (every queue with a consumer) is empty and nothing is in flight. */
  waitForDrain(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  // Listen first: a taken port fails in milliseconds, and the site's origin (which the functions' environment names) is known.
  let route: Router | undefined;
  const server: Server = createServer((req, res) => {
    if (route) route(req, res);
    else res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"message":"Starting"}');
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${options.port} is already in use: choose another with --port <n> (or PORT=<n>).`) : error),
    );
    server.listen(options.port ?? 0, host, () => resolveListen());
  });
  const localHost = `${host}:${(server.address() as AddressInfo).port}`;

  try {
    return await assemble(server, localHost, options, (handler) => (route = handler));
  } catch (error) {
    server.close();
    throw error;
  }
}

type Router = (req: IncomingMessage, res: ServerResponse) => void;

/** Everything behind the listening server: emulators, functions, event sources, gateway and site. */
async function assemble(server: Server, localHost: string, options: LocalRuntimeOptions, setRoute: (route: Router) => void): Promise<LocalRuntime> {
  const url = `http://${localHost}`;
  const captchaParameter = '/poll-local/captcha-secret';
  const captcha = options.captcha;
  const template = synthesizeTemplate({
    ...(options.apiKind ? { apiKind: options.apiKind } : {}),
    ...(captcha ? { captcha: captcha.provider, captchaSiteKey: captcha.siteKey, captchaSecretParameter: captchaParameter } : {}),
  }) as Template;
  const model = readTemplate(template);
  if (options.visibilityTimeoutSeconds !== undefined) {
    for (const queue of model.queues) queue.visibilityTimeoutSeconds = options.visibilityTimeoutSeconds;
  }
  const faults: Faults = options.faults ?? {};
  const meter = new Meter(model.apiKind);
  const emulators = await startEmulators(model, { projectRoot: PROJECT_ROOT, meter, faults, dataDir: options.dataDir });

  // What every SDK client in this process (the handlers') talks to.
  const credentials = { AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey, AWS_REGION: REGION, AWS_DEFAULT_REGION: REGION };
  const ssm = captcha ? await startSsm({ [captchaParameter]: captcha.secret }) : undefined;
  const endpoints = {
    AWS_ENDPOINT_URL_DYNAMODB: emulators.dynamoEndpoint,
    AWS_ENDPOINT_URL_SQS: emulators.sqsEndpoint,
    ...(ssm ? { AWS_ENDPOINT_URL_SSM: ssm.endpoint } : {}),
  };
  const previousEnv = Object.fromEntries(Object.keys({ ...credentials, ...endpoints }).map((k) => [k, process.env[k]]));
  Object.assign(process.env, credentials, endpoints);

  const physical: PhysicalIds = {
    ref: (logicalId) => (model.tables.some((t) => t.logicalId === logicalId) ? emulators.tableName(logicalId) : emulators.queueUrl(logicalId)),
    getAtt(logicalId, attribute) {
      if (attribute === 'Arn') return emulators.queueArn(logicalId);
      // The site is served by this server. (Its origin is http here; same-origin pages never consult CORS headers.)
      if (attribute === 'DomainName' && model.distributions.includes(logicalId)) return localHost;
      throw new Error(`The local runtime cannot resolve ${logicalId}.${attribute}`);
    },
  };
  const { functions, bundleDir } = await loadFunctions(model.functions, {
    projectRoot: PROJECT_ROOT,
    meter,
    environment: (fn) => ({
      ...Object.fromEntries(Object.entries(fn.environment).map(([key, value]) => [key, resolveValue(value, physical)])),
      AWS_LAMBDA_FUNCTION_NAME: fn.name,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
      POWERTOOLS_LOG_LEVEL: options.logLevel ?? 'WARN',
      // The consumer's metrics are CloudWatch lines on stdout: noise in a terminal, and nothing reads them here.
      POWERTOOLS_METRICS_DISABLED: 'true',
      ...(options.rateLimits === false ? { RATE_LIMIT: 'off' } : {}),
      ...(captcha?.verifyUrl ? { CAPTCHA_VERIFY_URL: captcha.verifyUrl } : {}),
    }),
  });

  const sqs = new SQSClient(emulatorClientConfig(emulators.sqsEndpoint));
  const eventSources = model.eventSources.map((mapping) =>
    startEventSource({
      mapping,
      sqs,
      queueUrl: emulators.queueUrl(mapping.queueLogicalId),
      queueArn: emulators.queueArn(mapping.queueLogicalId),
      fn: functions.get(mapping.functionLogicalId)!,
      faults,
      maxReceiveCount: model.queues.find((q) => q.logicalId === mapping.queueLogicalId)?.redrive?.maxReceiveCount,
      pollers: options.pollers,
      holdWhileProcessingSeconds: options.visibilityTimeoutSeconds,
    }),
  );

  const gateway = createGateway({ kind: model.apiKind, routes: model.routes, functions, meter });
  const serveSite = siteServer(buildSite(), { apiUrl: '', ...(captcha ? { captcha: { provider: captcha.provider, siteKey: captcha.siteKey } } : {}) }, (_status, bytes) =>
    meter.recordSite(bytes),
  );
  const isApiPath = (path: string) => path === API_BASE_PATH || path.startsWith(`${API_BASE_PATH}/`);
  const voteQueue = model.queues.find((q) => q.redrive)!;
  const resources: LocalResources = {
    dynamoEndpoint: emulators.dynamoEndpoint,
    sqsEndpoint: emulators.sqsEndpoint,
    tableName: emulators.tableName(model.tables[0].logicalId),
    voteQueueUrl: emulators.queueUrl(voteQueue.logicalId),
    deadLetterQueueUrl: emulators.queueUrl(voteQueue.redrive!.deadLetterLogicalId),
  };
  const localEndpoints: Record<string, () => unknown> = { [USAGE_PATH]: () => meter.snapshot(), [RESOURCES_PATH]: () => resources };
  setRoute((req, res) => {
    const path = new URL(req.url ?? '/', url).pathname;
    if (req.method === 'GET' && Object.hasOwn(localEndpoints, path)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(localEndpoints[path](), null, 2));
    } else if (isApiPath(path)) {
      gateway.handle(req, res).catch((error) => {
        console.error('[local] gateway error', error);
        if (!res.headersSent) res.writeHead(500).end();
      });
    } else {
      serveSite(req, res);
    }
  });

  const consumedQueues = model.eventSources.map((m) => model.queues.find((q) => q.logicalId === m.queueLogicalId)!.name);
  const queueDepths = () =>
    Object.fromEntries(
      model.queues.map((q) => {
        const info = emulators.fauxqs.inspectQueue(q.name);
        const depth = info ? info.messages.ready.length + info.messages.delayed.length + info.messages.inflight.length : 0;
        return [q.name, depth];
      }),
    );

  return {
    url,
    model,
    faults,
    resources,
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
      return [...info.messages.ready, ...info.messages.delayed, ...info.messages.inflight.map((m) => m.message)].map((m) => m.body);
    },
    async waitForDrain(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (consumedQueues.some((name) => queueDepths()[name] > 0)) {
        if (Date.now() > deadline) throw new Error(`Queues not drained after ${timeoutMs} ms: ${JSON.stringify(queueDepths())}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      // A browser may hold connections it never sent a request on (preconnect); close() alone waits for them for 60 s.
      const closed = new Promise((r) => server.close(r));
      server.closeAllConnections();
      await closed;
      await Promise.all(eventSources.map((source) => source.stop()));
      sqs.destroy();
      await emulators.stop();
      await ssm?.stop();
      rmSync(bundleDir, { recursive: true, force: true });
      for (const [key, value] of Object.entries(previousEnv)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    },
  };
}

