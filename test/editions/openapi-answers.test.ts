/**
 * What both editions really answer, checked against docs/openapi.yaml by maintained validators
 * (test/support/openapi.ts): every route with good and bad requests, each answer's status, headers
 * and body as the description says, so the description cannot drift from the code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY, POLL_LIMITS } from '../../config/api-contract';
import { EDITIONS, startEdition, type Edition } from '../support/editions';
import { api } from '../support/local';
import { disagreements, loadOpenApi, type Exchange } from '../support/openapi';

const UNKNOWN_ID = 'A'.repeat(POLL_LIMITS.idLength);

describe.each(EDITIONS)('the %s edition’s answers, against docs/openapi.yaml', (name) => {
  let edition: Edition;
  let openApi: Awaited<ReturnType<typeof loadOpenApi>>;
  /** Every operation and status answered so far. */
  const answered = new Set<string>();

  beforeAll(async () => {
    openApi = await loadOpenApi();
    edition = await startEdition(name);
  });
  afterAll(async () => edition?.stop());

  /** Sends a request, expects its status (and error code), and that the answer agrees with the description. */
  async function expectAnswer(
    request: { method: string; path: string; body?: unknown; headers?: Record<string, string> },
    status: number,
    code?: string,
    target: { url: string } = edition,
  ): Promise<Exchange & { body: any }> {
    const res = await api(target).call(request.method, request.path, request.body, request.headers);
    const exchange = { method: request.method, path: request.path, status: res.status, headers: res.headers };
    const seen = `${request.method} ${request.path}: ${res.status} ${res.text.slice(0, 200)}`;
    expect(res.status, seen).toBe(status);
    if (code) expect(res.json?.error?.code, seen).toBe(code);
    expect(disagreements(openApi.api, { ...exchange, body: res.json }), seen).toEqual([]);
    answered.add(`${openApi.api.matchOperation({ ...request, headers: {} })?.operationId} ${status}`);
    return { ...exchange, body: res.json };
  }

  const createPoll = async (body: Record<string, unknown> = {}) =>
    (
      await expectAnswer(
        { method: 'POST', path: '/api/poll', body: { title: 'Lunch?', options: ['Soup', 'Pie'], ...body } },
        201,
      )
    ).body.id as string;
  const vote = (id: string, body: unknown, headers: Record<string, string> = {}) => ({
    method: 'POST',
    path: `/api/poll/${id}/vote`,
    body,
    headers,
  });

  it('answers every route’s good requests as described', async () => {
    const created = await expectAnswer(
      {
        method: 'POST',
        path: '/api/poll',
        body: { title: 'Lunch?', options: ['Soup', 'Pie', 'Salad'], lifetimeMinutes: 30, oneVotePerVoter: false },
      },
      201,
    );
    const id = created.body.id;
    expect(created.headers.get('location')).toBe(`/api/poll/${id}`);
    expect((await expectAnswer({ method: 'GET', path: `/api/poll/${id}` }, 200)).body.options).toHaveLength(3);
    await expectAnswer({ method: 'GET', path: `/api/poll/${id}/options` }, 200);
    await expectAnswer(vote(id, { option: 2 }), 202);
    await edition.settled();
    const results = await expectAnswer(
      { method: 'GET', path: `/api/poll/${id}/results`, headers: { 'cache-control': 'no-cache' } },
      200,
    );
    expect(results.body.counts).toEqual([0, 0, 1]);
  });

  it('answers a ballot sent again with its Idempotency-Key as the same vote; a malformed key 400', async () => {
    const id = await createPoll();
    const key = { [IDEMPOTENCY.header]: `ballot-${name}` };
    const first = await expectAnswer(vote(id, { option: 0 }, key), 202);
    const again = await expectAnswer(vote(id, { option: 0 }, key), 202);
    expect(again.body.voteId).toBe(first.body.voteId);
    // The VPS edition remembers each key's option; the serverless edition's queue drops the retry by its id.
    const otherOption = await expectAnswer(
      vote(id, { option: 1 }, key),
      name === 'vps' ? 409 : 202,
      name === 'vps' ? 'idempotency_key_reused' : undefined,
    );
    if (name === 'serverless') expect(otherOption.body.voteId).toBe(first.body.voteId);
    await edition.settled();
    const fresh = { 'cache-control': 'no-cache' };
    const results = await expectAnswer({ method: 'GET', path: `/api/poll/${id}/results`, headers: fresh }, 200);
    expect(results.body.total).toBe(1);
    await expectAnswer(vote(id, { option: 0 }, { [IDEMPOTENCY.header]: 'not a key!' }), 400, 'invalid_idempotency_key');
  });

  it('refuses bad requests with the described status, code and body', async () => {
    const id = await createPoll();
    const create = (body: unknown, headers?: Record<string, string>) => ({
      method: 'POST',
      path: '/api/poll',
      body,
      headers,
    });
    await expectAnswer(create('{"title":'), 400, 'invalid_json');
    await expectAnswer(create('[]'), 400, 'invalid_body');
    await expectAnswer(create({ title: 'T', options: ['a', 'b'], colour: 'red' }), 400, 'unknown_field');
    await expectAnswer(create({ title: 'T', options: ['only one'] }), 400, 'invalid_field');
    await expectAnswer(create({ title: ' ', options: ['a', 'b'] }), 400, 'invalid_field');
    await expectAnswer(create('title=T', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    const oversized = JSON.stringify({ title: 'x'.repeat(POLL_LIMITS.maxBodyBytes), options: ['a', 'b'] });
    await expectAnswer(create(oversized), 413, 'body_too_large');

    await expectAnswer(vote(id, { option: 9 }), 400, 'invalid_option');
    await expectAnswer(vote(id, { option: 'first' }), 400, 'invalid_field');
    await expectAnswer(vote(id, { option: 0, extra: true }), 400, 'unknown_field');
    await expectAnswer(vote(id, '0'), 400, 'invalid_body');
    await expectAnswer(vote(id, 'option=0', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');

    for (const pollId of [UNKNOWN_ID, 'not-an-id']) {
      for (const path of [`/api/poll/${pollId}`, `/api/poll/${pollId}/options`, `/api/poll/${pollId}/results`])
        await expectAnswer({ method: 'GET', path }, 404, 'poll_not_found');
      await expectAnswer(vote(pollId, { option: 0 }), 404, 'poll_not_found');
    }
  });

  it('refuses a second vote from one voter (409) and a vote in a closed poll (410)', async () => {
    const once = await createPoll({ oneVotePerVoter: true });
    await expectAnswer(vote(once, { option: 0 }), 202);
    await expectAnswer(vote(once, { option: 1 }), 409, 'already_voted');
    const short = await createPoll({ lifetimeMinutes: 1 });
    await edition.closeShortPolls([short]);
    await expectAnswer(vote(short, { option: 0 }), 410, 'poll_closed');
    const results = await expectAnswer({ method: 'GET', path: `/api/poll/${short}/results` }, 200);
    expect(results.body.closed).toBe(true);
  });

  it('refuses creates past an address’s rate limit with 429 and Retry-After', async () => {
    const limited = await startEdition(name, { rateLimits: true });
    try {
      let refused: (Exchange & { body: any }) | undefined;
      for (let i = 0; i < 20 && !refused; i++) {
        const res = await api(limited).call('POST', '/api/poll', { title: 'T', options: ['a', 'b'] });
        if (res.status === 429)
          refused = await expectAnswer(
            { method: 'POST', path: '/api/poll', body: { title: 'T', options: ['a', 'b'] } },
            429,
            'rate_limited',
            limited,
          );
        else expect(res.status).toBe(201);
      }
      expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.stop();
    }
  });

  it('has answered every operation of the description, each with its success', () => {
    const successes = openApi.api
      .getOperations()
      .map((op) => `${op.operationId} ${Object.keys(op.responses ?? {}).find((status) => status.startsWith('2'))}`);
    expect(successes.filter((success) => !answered.has(success))).toEqual([]);
  });
});
