/**
 * The runtime serves what the template declares, nothing else, as API Gateway
 * would answer it; and fauxqs's FIFO receive behaves like SQS after our patch.
 */
import { createServer } from 'node:net';
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CORS, ROUTES } from '../../config/api-contract';
import { SITE_CACHE_CONTROL } from '../../config/caching';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { api, clients } from '../support/local';

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startLocalRuntime({ apiKind: 'rest', rateLimits: false });
});
afterAll(async () => runtime?.stop());

describe('the REST variant', () => {
  it('serves every template route through its function, and the template has every configured route', async () => {
    expect(runtime.model.apiKind).toBe('rest');
    expect(runtime.model.routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      ROUTES.map((r) => `${r.method} ${r.path}`).sort(),
    );
    const client = api(runtime);
    const poll = await client.createPoll();
    for (const route of runtime.model.routes) {
      const path = route.path.replace('{id}', poll.id);
      const res = await client.call(
        route.method,
        path,
        route.method === 'POST'
          ? path.endsWith('/vote')
            ? { option: 0 }
            : { title: 't', options: ['a', 'b'] }
          : undefined,
      );
      expect(res.status, `${route.method} ${path}`).toBeLessThan(300);
    }
  });

  it('maps every queue event source of the template to a function that consumes it', async () => {
    expect(runtime.model.eventSources).toHaveLength(1);
    const client = api(runtime);
    const poll = await client.createPoll();
    await client.vote(poll.id, 1);
    await runtime.waitForDrain();
    expect((await client.results(poll.id)).json.counts).toEqual([0, 1, 0]);
  });

  it('answers unknown routes and wrong methods as REST API Gateway does', async () => {
    const client = api(runtime);
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['DELETE', '/api/poll'],
      ['PUT', '/api/poll/x/vote'],
    ]) {
      const res = await client.call(method, path);
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ message: 'Missing Authentication Token' });
    }
  });

  it('answers a preflight with its resource’s mock OPTIONS method, as the template declares it', async () => {
    const res = await fetch(`${runtime.url}/api/poll/${'A'.repeat(21)}/vote`, {
      method: 'OPTIONS',
      headers: { origin: runtime.url, 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(runtime.url);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,POST');
    expect(res.headers.get('access-control-allow-headers')).toBe(API_CORS.allowHeaders.join(','));
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    // A path with no resource has no OPTIONS method either.
    const none = await fetch(`${runtime.url}/api/nope`, { method: 'OPTIONS' });
    expect(none.status).toBe(403);
  });

  it('serves the site beside the API on one origin: the page carrying its config, a 404 for other paths', async () => {
    const client = api(runtime);
    const pages = [];
    for (const path of ['/', '/poll/AAAAAAAAAAAAAAAAAAAAA', '/poll/50%off']) {
      const res = await client.call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe(SITE_CACHE_CONTROL);
      // Script, styles and config travel in the page: a visit is one request.
      expect(res.text).toMatch(/<script id="site-config" type="application\/json">\{"apiUrl":""\}<\/script>/);
      expect(res.text).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
      pages.push(res);
    }
    // A return visit revalidates: 304, no body.
    const again = await fetch(`${runtime.url}/poll/AAAAAAAAAAAAAAAAAAAAA`, {
      headers: { 'if-none-match': pages[1].headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    for (const path of ['/anything/else', '/config.json', '/poll', '/favicon.ico']) {
      const res = await client.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).toContain('Page not found');
    }
    expect((await client.call('POST', '/')).status).toBe(405);
  });

  it('refuses bodies over API Gateway’s 10 MB limit before any function runs', async () => {
    const before = runtime.usage().functions.CreatePoll.invocations;
    const res = await api(runtime).call('POST', '/api/poll', 'x'.repeat(10 * 1024 * 1024 + 1), {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(413);
    expect(runtime.usage().functions.CreatePoll.invocations).toBe(before);
  });
});

describe('startup errors', () => {
  it('names the busy port and the option to change it', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startLocalRuntime({ port })).rejects.toThrow(new RegExp(`Port ${port} is already in use.*--port`));
    } finally {
      blocker.close();
    }
  });
});

describe('FIFO receive (fauxqs, patched)', () => {
  it('returns up to 10 messages of one group in order, and in the same order once visible again', async () => {
    const { sqs } = clients(runtime);
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: 'fidelity.fifo', Attributes: { FifoQueue: 'true', VisibilityTimeout: '1' } }),
    );
    const url = `${runtime.resources.sqsEndpoint}/000000000000/${QueueUrl!.split('/').pop()}`;
    for (let start = 0; start < 20; start += 10) {
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: Array.from({ length: 10 }, (_, i) => ({
            Id: String(i),
            MessageBody: String(start + i),
            MessageGroupId: 'g',
            MessageDeduplicationId: `d${start + i}`,
          })),
        }),
      );
    }
    const receive = async (wait = 0) =>
      (
        await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: wait }))
      ).Messages?.map((m) => m.Body) ?? [];
    const first = await receive();
    expect(first).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    // The group is locked while its messages are in flight.
    expect(await receive()).toEqual([]);
    // After the 1 s visibility timeout the same ten come back, still in order.
    expect(await receive(3)).toEqual(first);
  });
});
