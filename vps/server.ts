/**
 * The VPS edition: the same API (routes, handlers, validation, error shape, rate limits) and
 * the same site as the serverless edition, served from one box as the seed platform runs on its
 * VPS. The handlers are lambdas/handlers/, built from in-process ports (./poll-state.ts) instead
 * of DynamoDB and SQS, or from the primary's through a socket pair (./state-channel.ts) in a
 * worker; this file is only the node:http adapter around them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { drainServer, listen, originOf, type TlsFiles } from '../node/server-shell';
import type { ServerCaptchaSettings } from '../config/captcha';
import { POLL_LIMITS, ROUTES, type ApiFunctionName } from '../config/api-contract';
import { RATE_LIMITS } from '../config/throttling';
import { EDITION_HEADER } from '../config/targets';
import type { Site } from '../frontend/page';
import {
  announcesBody,
  headersOf,
  isApiPath,
  readBody,
  sourceIpOf,
  targetOf,
  writeResponse,
  type WireResponse,
} from '../node/request-reader';
import { siteServer } from '../frontend/serve';
import { captchaVerifier } from '../lambdas/adapters/captcha-verifier';
import { noCaptcha, pageCaptcha } from '../domain/captcha';
import { bodyTooLarge, internalError, PollError } from '../domain/errors';
import { castVoteHandler } from '../lambdas/handlers/cast-vote';
import { createPollHandler } from '../lambdas/handlers/create-poll';
import { getPollHandler } from '../lambdas/handlers/get-poll';
import { getResultsHandler } from '../lambdas/handlers/get-results';
import {
  answer,
  errorResponse,
  methodNotAllowed,
  routeMatcher,
  type ApiResponse,
  type ApiRoute,
} from '../lambdas/handlers/http';
import type { Log, PollStore, VoteSink } from '../domain/ports';
import { RateLimiter, type RateTaker } from '../domain/rate-limit';
import type { FlushMode } from './journal';
import { openStore, type Store } from './store';

export interface VpsOptions extends HttpOptions {
  dataDir: string;
  /** Per-address limits on create and vote, as on AWS (default); benchmarks turn them off. */
  rateLimits?: boolean;
  compactAtBytes?: number;
}

/** What the HTTP side of the edition is given besides its ports: one process's, or each worker's. */
export interface HttpOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** The provider's secret comes from the caller (an environment variable), never the command line. */
  captcha?: ServerCaptchaSettings;
  /** Behind a reverse proxy (TLS on a VPS): the client's address is the last one in X-Forwarded-For. */
  trustProxy?: boolean;
  /** The edition terminates TLS itself, in each process that serves HTTP (docs/vps.md deploys it so). */
  tls?: TlsFiles;
  site: Site;
  log?: Log;
  /** Tests move time; the default is the real clock. */
  clock?: () => number;
  /** Keep results up to their max-age (a worker, whose state is the writer's); one process reads its memory. */
  keepCounts?: boolean;
}

/**
 * What the handlers read and write: the poll state (in this process, or the primary's through a
 * worker's channel) and the per-address limits of the two routes that have them (none: off).
 */
export interface VpsPorts {
  polls: PollStore & VoteSink;
  limits: Partial<Record<RateLimitedRoute, RateTaker>>;
}

/** The routes with per-address limits (config RATE_LIMITS). */
export type RateLimitedRoute = keyof typeof RATE_LIMITS;

/** Each limited route's buckets, held where the state is: one set for the whole box. */
export const localLimits = (on: boolean | undefined): VpsPorts['limits'] =>
  on === false
    ? {}
    : { createPoll: new RateLimiter(RATE_LIMITS.createPoll), castVote: new RateLimiter(RATE_LIMITS.castVote) };

export interface VpsServer {
  url: string;
  store: Store;
  stop(): Promise<void>;
}

/** The HTTP side alone: a listening server and how to stop it. */
export interface HttpSide {
  url: string;
  stop(): Promise<void>;
}

/** How long a stop lets the requests under way finish before it cuts them. */
export const STOP_GRACE_MS = 5_000;

const consoleLog: Log = {
  error: (message, ...details) => console.error(`[vps] ${message}`, ...details),
  warn: (message, ...details) => console.warn(`[vps] ${message}`, ...details),
};

/** Each kept (frozen) answer's bytes, as long as its handler keeps it: a hot read is encoded once. */
const encodings = new WeakMap<ApiResponse, WireResponse>();

/** An answer as JSON, `extra` headers beside its own. */
function encode(response: ApiResponse, extra?: Record<string, string>): WireResponse {
  const body = JSON.stringify(response.body);
  const headers: Record<string, string> = {
    'content-type': JSON_TYPE,
    [EDITION_HEADER]: 'vps',
    ...response.headers,
    ...extra,
  };
  headers['content-length'] = String(Buffer.byteLength(body));
  return { status: response.status, headers, body };
}

function sendJson(res: ServerResponse, response: ApiResponse, extra?: Record<string, string>): void {
  const kept = extra === undefined && Object.isFrozen(response);
  let wire = kept ? encodings.get(response) : undefined;
  if (wire === undefined) {
    wire = encode(response, extra);
    if (kept) encodings.set(response, wire);
  }
  writeResponse(res, wire);
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The box's data folder, opened as the one process or the primary opens it. */
export const openVpsStore = (
  options: Omit<VpsOptions, 'site'>,
  log: Pick<Log, 'error'>,
  flushMode?: FlushMode,
): Promise<Store> =>
  openStore({
    flushMode,
    dataDir: options.dataDir,
    clock: options.clock,
    compactAtBytes: options.compactAtBytes,
    onCompactionError: (error) => log.error('could not compact the log', error),
  });

/** The whole edition in this process: the log, the state, and the HTTP server around them. */
export async function startVpsServer(options: VpsOptions): Promise<VpsServer> {
  const log = options.log ?? consoleLog;
  const store = await openVpsStore(options, log);
  const http = await serveVps(options, { polls: store.state, limits: localLimits(options.rateLimits) }).catch(
    async (error: unknown) => {
      await store.close();
      throw error;
    },
  );
  return {
    url: http.url,
    store,
    async stop() {
      await http.stop();
      await store.close();
    },
  };
}

/** The node:http adapter around the handlers, built from `ports`: what each worker of a box runs too. */
export async function serveVps(options: HttpOptions, { polls, limits }: VpsPorts): Promise<HttpSide> {
  const log = options.log ?? consoleLog;
  const clock = options.clock ?? Date.now;
  const captcha = options.captcha
    ? captchaVerifier({
        provider: options.captcha.provider,
        secret: async () => options.captcha!.secret,
        verifyUrl: options.captcha.verifyUrl,
        log,
      })
    : noCaptcha;
  const handlers: Record<ApiFunctionName, ApiRoute> = {
    createPoll: createPollHandler({ polls, clock, rateLimit: limits.createPoll, captcha }),
    getPoll: getPollHandler({ polls, clock }),
    castVote: castVoteHandler({ polls, votes: polls, log, clock, rateLimit: limits.castVote, captcha }),
    // In one process counts are in memory already: each answer is fresh, with the whole max-age, so a CDN in
    // front keeps it for all of it (a kept copy's answer may say max-age=0, which a CDN does not cache).
    getResults: getResultsHandler({ polls, clock, keepCounts: options.keepCounts ?? false }),
  };
  const match = routeMatcher(ROUTES);
  const serveSite = siteServer(options.site, { apiUrl: '', captcha: pageCaptcha(options.captcha) });

  async function serveApi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    // A HEAD is a GET without its body (node:http leaves the body out), as HTTP asks of every server that has GET.
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const found = match(method, path);
    if (found === undefined) return sendJson(res, errorResponse(new PollError('not_found', 'No such API route.')));
    // HEAD is answered wherever GET is (above), so it is allowed there too.
    if ('allowed' in found)
      return sendJson(res, methodNotAllowed(found.allowed.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]))));
    const body = announcesBody(req) ? await readBody(req, POLL_LIMITS.maxBodyBytes) : undefined;
    if (body === 'too-large') {
      // The rest of the body is not read: the connection closes after the answer.
      return sendJson(res, errorResponse(bodyTooLarge()), { connection: 'close' });
    }
    const route = found.route;
    const response = await answer(
      handlers[route.fn],
      {
        method,
        route: route.path,
        pathParameters: found.pathParameters,
        headers: headersOf(req),
        body: body?.length ? body.toString('utf8') : undefined,
        sourceIp: sourceIpOf(req, options.trustProxy),
      },
      log,
    );
    sendJson(res, response);
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const { path } = targetOf(req.url);
    const work = isApiPath(path) ? serveApi(req, res, path) : Promise.resolve(serveSite(req, res));
    work.catch((error: Error) => {
      // Nothing a request sends may stop the server: answer what can be answered, log the rest.
      log.error('request failed', error);
      if (!res.headersSent) sendJson(res, errorResponse(internalError()));
      else res.destroy();
    });
  };
  const server = await listen(
    options.port ?? 0,
    options.host ?? '127.0.0.1',
    handle,
    {
      requestTimeout: 30_000,
      headersTimeout: 10_000,
    },
    options.tls,
  );
  return { url: originOf(server), stop: () => drainServer(server, STOP_GRACE_MS) };
}
