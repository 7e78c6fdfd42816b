/**
 * The local runtime answers CORS as the synthesized HTTP API does, from the template's CORS
 * configuration (lib/poll-api.ts, config/api-contract.ts API_CORS): API Gateway answers every
 * preflight itself, 204, with its CORS headers only for an allowed origin, method and headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CORS, IDEMPOTENCY, ROUTES } from '../../config/api-contract';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { api } from '../support/local';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startLocalRuntime({ rateLimits: false, logLevel: 'SILENT' });
});
afterAll(async () => runtime?.stop());

const VOTE_PATH = ROUTES.find((route) => route.fn === 'castVote')!.path.replace('{id}', 'A'.repeat(21));

const preflight = (path: string, headers: Record<string, string>) =>
  fetch(`${runtime.url}${path}`, { method: 'OPTIONS', headers });

const corsHeaders = (res: Response) =>
  Object.fromEntries([...res.headers].filter(([name]) => name.startsWith('access-control-')));

const invocations = () => Object.values(runtime.usage().functions).reduce((sum, fn) => sum + fn.invocations, 0);

describe('CORS on the local runtime’s HTTP API', () => {
  it('reads the configuration of the template: the site’s origin (this server), methods, headers, max-age', () => {
    expect(runtime.model.cors).toMatchObject({
      kind: 'http',
      allowMethods: ['GET', 'POST'],
      allowHeaders: API_CORS.allowHeaders,
      exposeHeaders: API_CORS.exposeHeaders,
    });
  });

  it('answers a vote’s preflight from the site 204 with its origin, methods, headers, max-age', async () => {
    const before = { invocations: invocations(), preflights: runtime.usage().api.byRoute.preflight ?? 0 };
    const res = await preflight(VOTE_PATH, {
      origin: runtime.url,
      'access-control-request-method': 'POST',
      'access-control-request-headers': `Content-Type, ${IDEMPOTENCY.header}`,
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const cors = runtime.model.cors as { maxAge: number };
    expect(cors.maxAge).toBeGreaterThan(0);
    expect(corsHeaders(res)).toEqual({
      'access-control-allow-origin': runtime.url,
      'access-control-allow-methods': 'GET,POST',
      'access-control-allow-headers': API_CORS.allowHeaders.join(','),
      'access-control-max-age': String(cors.maxAge),
    });
    // No function ran for it, and it is metered as the request it is.
    expect(runtime.usage().api.byRoute.preflight).toBe(before.preflights + 1);
    expect(invocations()).toBe(before.invocations);
  });

  it('answers 204 without CORS headers what it does not allow: another origin, method or header', async () => {
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      { origin: runtime.url, 'access-control-request-method': 'DELETE' },
      { origin: runtime.url, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-other' },
    ]) {
      const res = await preflight(VOTE_PATH, headers);
      expect(res.status, JSON.stringify(headers)).toBe(204);
      expect(corsHeaders(res), JSON.stringify(headers)).toEqual({});
    }
  });

  it('answers a preflight on any path, as API Gateway does; an OPTIONS that is none is routed (404)', async () => {
    const any = await preflight('/api/nope', { origin: runtime.url, 'access-control-request-method': 'GET' });
    expect(any.status).toBe(204);
    expect(any.headers.get('access-control-allow-origin')).toBe(runtime.url);
    const bare = await preflight(VOTE_PATH, { origin: runtime.url });
    expect(bare.status).toBe(404);
    expect(await bare.json()).toEqual({ message: 'Not Found' });
  });

  it('adds the allowed origin and the exposed headers to a function’s answer, for the site’s origin only', async () => {
    const poll = await api(runtime).createPoll();
    const vote = (origin: string) =>
      fetch(`${runtime.url}/api/poll/${poll.id}/vote`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ option: 0 }),
      });
    const fromSite = await vote(runtime.url);
    expect(fromSite.status).toBe(202);
    expect(corsHeaders(fromSite)).toEqual({
      'access-control-allow-origin': runtime.url,
      'access-control-expose-headers': API_CORS.exposeHeaders.join(','),
    });
    expect(corsHeaders(await vote('https://evil.example'))).toEqual({});
  });
});
