/**
 * CAPTCHA end to end on the local runtime: the secret comes from (local) SSM, the
 * provider's siteverify is a stub on 127.0.0.1, and every outcome has its answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA } from '../../config/captcha';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { api, scanTable } from '../support/local';

const SECRET = 'local-test-secret';
let stub: Server;
let runtime: LocalRuntime;
const seen: URLSearchParams[] = [];

beforeAll(async () => {
  // Answers by token: good, bad, slow (past the timeout), broken (500).
  stub = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push(form);
      const token = form.get('response');
      const answer = (json: unknown, status = 200) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (form.get('secret') !== SECRET) return answer({ success: false, 'error-codes': ['invalid-input-secret'] });
      if (token === 'good') return answer({ success: true });
      if (token === 'slow') return void setTimeout(() => answer({ success: true }), CAPTCHA.verifyTimeoutMs + 1000);
      if (token === 'broken') return answer({ error: 'oops' }, 500);
      return answer({ success: false, 'error-codes': ['invalid-input-response'] });
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const verifyUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/siteverify`;
  runtime = await startLocalRuntime({
    rateLimits: false,
    captcha: { provider: 'turnstile', siteKey: 'site-key', secret: SECRET, verifyUrl },
    // The provider's failures are logged as errors: here they are the cases under test, asserted by their answers.
    logLevel: 'SILENT',
  });
});
afterAll(async () => {
  await runtime?.stop();
  await new Promise((resolve) => stub?.close(resolve));
});

describe('with a CAPTCHA configured', () => {
  const create = (extra: Record<string, unknown>) =>
    api(runtime).call('POST', '/api/poll', { title: 'Captcha?', options: ['a', 'b'], ...extra });

  it('tells the page which CAPTCHA to load', async () => {
    const page = (await api(runtime).call('GET', '/')).text;
    const config = /<script id="site-config" type="application\/json">(.*?)<\/script>/.exec(page)![1];
    expect(JSON.parse(config)).toEqual({ apiUrl: '', captcha: { provider: 'turnstile', siteKey: 'site-key' } });
  });

  it('creates and votes with a good token, verified with the secret from SSM and the voter’s address', async () => {
    const created = await create({ captchaToken: 'good' });
    expect(created.status).toBe(201);
    const vote = await api(runtime).call('POST', `/api/poll/${created.json.id}/vote`, {
      option: 1,
      captchaToken: 'good',
    });
    expect(vote.status).toBe(202);
    expect(seen.at(-1)!.get('secret')).toBe(SECRET);
    expect(seen.at(-1)!.get('remoteip')).toBe('127.0.0.1');
  });

  it.each([
    ['no token', {}, 400, 'captcha_required'],
    ['a refused token', { captchaToken: 'bad' }, 403, 'captcha_failed'],
    ['a provider slower than the timeout', { captchaToken: 'slow' }, 503, 'captcha_unavailable'],
    ['a provider error', { captchaToken: 'broken' }, 503, 'captcha_unavailable'],
  ])('answers %s with %i and stores nothing', async (_name, extra, status, code) => {
    const before = (await scanTable(runtime)).length;
    const res = await create(extra);
    expect(res.status).toBe(status);
    expect(res.json.error.code).toBe(code);
    expect((await scanTable(runtime)).length).toBe(before);
  });

  it('refuses a vote without a good token before reading the poll', async () => {
    const poll = (await create({ captchaToken: 'good' })).json;
    const reads = () => Object.values(runtime.usage().tables)[0].requests.GetItem ?? 0;
    const before = reads();
    const res = await api(runtime).call('POST', `/api/poll/${poll.id}/vote`, { option: 0, captchaToken: 'bad' });
    expect(res.status).toBe(403);
    expect(reads()).toBe(before);
  });
});
