/**
 * The results designs on the local runtime, served as AWS serves them: results=function-url on
 * the results function's own origin (payload 2.0, the URL's CORS, 429 past its reserved
 * concurrency), results=cloudfront through a cache on the site's origin for the results max-age.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULTS_CACHE_SECONDS } from '../../config/caching';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { api, pool } from '../support/local';

const configOf = async (runtime: LocalRuntime) => {
  const page = await (await fetch(`${runtime.url}/`)).text();
  return JSON.parse(/<script id="site-config" type="application\/json">(.*?)<\/script>/.exec(page)![1]);
};

describe('results=function-url', () => {
  let runtime: LocalRuntime;
  beforeAll(async () => {
    // A cap of 2 at once (20 a second), so a burst shows what a visitor sees past it.
    runtime = await startLocalRuntime({
      results: 'function-url',
      resultsConcurrency: 2,
      rateLimits: false,
      logLevel: 'SILENT',
    });
  });
  afterAll(async () => runtime?.stop());

  it('serves results on the function’s own origin, named in the page’s config', async () => {
    expect(runtime.resultsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(new URL(runtime.resultsUrl!).origin).not.toBe(runtime.url);
    expect(await configOf(runtime)).toEqual({ apiUrl: '', resultsUrl: runtime.resultsUrl });
    const client = api(runtime);
    const poll = await client.createPoll();
    await client.vote(poll.id, 1);
    await runtime.waitForDrain();
    const res = await fetch(`${runtime.resultsUrl}api/poll/${poll.id}/results`, { headers: { origin: runtime.url } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: poll.id, counts: [0, 1, 0] });
    // The site's origin, http as it is served here (not the https the template names for CloudFront).
    expect(res.headers.get('access-control-allow-origin')).toBe(runtime.url);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d$/);
  });

  it('answers only the site’s origin for CORS, and its preflight itself', async () => {
    const other = await fetch(`${runtime.resultsUrl}api/poll/${'a'.repeat(21)}/results`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${runtime.resultsUrl}api/poll/x/results`, {
      method: 'OPTIONS',
      headers: { origin: runtime.url, 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET');
    const before = runtime.usage().functions.GetResults?.invocations ?? 0;
    await fetch(`${runtime.resultsUrl}anything`, {
      method: 'OPTIONS',
      headers: { origin: runtime.url, 'access-control-request-method': 'POST' },
    });
    expect(runtime.usage().functions.GetResults?.invocations ?? 0).toBe(before);
  });

  it('answers anything but a GET of a poll’s results in the API’s error shape, never a 5xx', async () => {
    const cases: Array<[string, string, number, string]> = [
      ['POST', `api/poll/${'a'.repeat(21)}/results`, 405, 'method_not_allowed'],
      ['GET', 'api/poll', 404, 'not_found'],
      ['GET', '', 404, 'not_found'],
      ['GET', 'api/poll/50%off/results', 404, 'poll_not_found'],
      ['DELETE', 'api/poll/x/results', 405, 'method_not_allowed'],
    ];
    for (const [method, path, status, code] of cases) {
      const res = await fetch(`${runtime.resultsUrl}${path}`, { method });
      expect(res.status, `${method} /${path}`).toBe(status);
      expect((await res.json()).error.code, `${method} /${path}`).toBe(code);
      if (status === 405) expect(res.headers.get('allow'), `${method} /${path}`).toBe('GET');
    }
  });

  it('answers 429 past its reserved concurrency, as Lambda does, and bills nothing for it', async () => {
    const poll = await api(runtime).createPoll();
    const statuses = await pool(
      60,
      30,
      async () => (await fetch(`${runtime.resultsUrl}api/poll/${poll.id}/results`)).status,
    );
    const throttled = statuses.filter((s) => s === 429).length;
    expect(throttled).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 429 && s !== 200)).toEqual([]);
    const usage = runtime.usage();
    expect(usage.functions.GetResults.throttles).toBeGreaterThanOrEqual(throttled);
    expect(usage.functionUrls.byStatus['429']).toBe(throttled);
  });
});

describe('results=cloudfront', () => {
  let runtime: LocalRuntime;
  beforeAll(async () => {
    runtime = await startLocalRuntime({ results: 'cloudfront', rateLimits: false, logLevel: 'SILENT' });
  });
  afterAll(async () => runtime?.stop());

  it('serves results from a cache on the site’s origin for at most the results max-age', async () => {
    expect(await configOf(runtime)).toEqual({ apiUrl: '', resultsUrl: '' });
    const client = api(runtime);
    const poll = await client.createPoll();
    const read = () => fetch(`${runtime.url}/api/poll/${poll.id}/results`);
    const invocations = () => runtime.usage().functions.GetResults?.invocations ?? 0;
    const before = invocations();
    const first = await read();
    expect(first.headers.get('x-cache')).toBe('Miss from cloudfront');
    const second = await read();
    expect(second.headers.get('x-cache')).toBe('Hit from cloudfront');
    expect(invocations() - before).toBe(1);
    // A vote shows once the cached answer has expired, and not later than the max-age.
    await client.vote(poll.id, 2);
    await runtime.waitForDrain();
    expect((await (await read()).json()).total).toBe(0);
    await new Promise((r) => setTimeout(r, RESULTS_CACHE_SECONDS * 1000 + 100));
    expect((await (await read()).json()).counts).toEqual([0, 0, 1]);
    const usage = runtime.usage();
    expect(usage.site.cacheHits).toBeGreaterThanOrEqual(2);
    // A poll read is cached too, for the max-age its answer carries: the second is a hit.
    const reads = usage.api.byRoute['GET /api/poll/{id}'] ?? 0;
    const pollRead = () => fetch(`${runtime.url}/api/poll/${poll.id}`);
    expect((await pollRead()).headers.get('x-cache')).toBe('Miss from cloudfront');
    expect((await pollRead()).headers.get('x-cache')).toBe('Hit from cloudfront');
    expect(runtime.usage().api.byRoute['GET /api/poll/{id}']).toBe(reads + 1);
    // Votes never: each reaches the API.
    const votes = runtime.usage().api.byRoute['POST /api/poll/{id}/vote'] ?? 0;
    await client.vote(poll.id, 0);
    await client.vote(poll.id, 1);
    expect(runtime.usage().api.byRoute['POST /api/poll/{id}/vote']).toBe(votes + 2);
  });

  it('has no CORS on the API, which is on the site’s origin: a preflight is no route of it (404)', async () => {
    expect(runtime.model.cors).toBeUndefined();
    const res = await fetch(`${runtime.url}/api/poll/${'A'.repeat(21)}/vote`, {
      method: 'OPTIONS',
      headers: { origin: runtime.url, 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
