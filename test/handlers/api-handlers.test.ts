/**
 * The API handlers built from in-memory ports: the paths that need a failing or slow
 * dependency, which the emulators cannot easily give (a queue that refuses a vote, a CAPTCHA
 * provider that says no), and the mapping of every refusal to its status.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { POLL_CACHE, POLL_READ_CACHE_SECONDS, RESULTS_CACHE_SECONDS } from '../../config/caching';
import { PollError } from '../../domain/errors';
import type { CaptchaCheck } from '../../domain/ports';
import { castVoteHandler } from '../../lambdas/handlers/cast-vote';
import { createPollHandler } from '../../lambdas/handlers/create-poll';
import { getPollHandler } from '../../lambdas/handlers/get-poll';
import { getResultsHandler } from '../../lambdas/handlers/get-results';
import { answer, ERROR_STATUS, type ApiRoute } from '../../lambdas/handlers/http';
import { apiRequest, NOW, testPoll } from '../support/factories';
import { FakePollStore, FakeVoteSink, MemoryLog } from '../support/fakes';

let polls: FakePollStore;
let votes: FakeVoteSink;
let log: MemoryLog;
let now: number;
const clock = () => now;

beforeEach(() => {
  polls = new FakePollStore();
  votes = new FakeVoteSink();
  log = new MemoryLog();
  now = NOW;
});

/** Runs a handler as both editions do: errors become their answer. */
const call = (route: ApiRoute, request: Parameters<typeof apiRequest>[0]) => answer(route, apiRequest(request), log);

async function storedPoll(input: Record<string, unknown> = {}) {
  const poll = testPoll(input, now);
  await polls.putNewPoll(poll);
  return poll;
}

const voteRequest = (id: string, option: unknown, sourceIp = '192.0.2.1', key?: string) => ({
  method: 'POST',
  route: '/api/poll/{id}/vote',
  pathParameters: { id },
  body: JSON.stringify({ option }),
  sourceIp,
  headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
});

describe('creating a poll', () => {
  it('stores it and answers 201 with where it lives', async () => {
    const created = await call(createPollHandler({ polls, clock }), {
      method: 'POST',
      route: '/api/poll',
      body: JSON.stringify({ title: 'Lunch?', options: ['Pizza', 'Sushi'] }),
    });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(created.headers).toEqual({ location: `/api/poll/${id}` });
    expect(polls.polls.get(id)?.title).toBe('Lunch?');
  });

  it.each([
    [
      'a lifetime out of range',
      { title: 'Lunch?', options: ['Pizza', 'Sushi'], lifetimeMinutes: 0 },
      'lifetimeMinutes',
    ],
    ['an empty option', { title: 'Lunch?', options: ['Pizza', ' '] }, 'options[1]'],
  ])('refuses %s naming the field, so a form can mark it', async (_, body, field) => {
    const refused = await call(createPollHandler({ polls, clock }), {
      method: 'POST',
      route: '/api/poll',
      body: JSON.stringify(body),
    });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'invalid_field', field } } });
    expect(polls.polls.size).toBe(0);
  });

  it.each([
    ['the provider says no', new PollError('captcha_failed', 'no'), 403],
    ['the token is missing', new PollError('captcha_required', 'no'), 400],
    ['the provider cannot be reached', new PollError('captcha_unavailable', 'down'), 503],
  ])('stores nothing when %s (%s → %i)', async (_, refusal, status) => {
    const captcha: CaptchaCheck = async () => {
      throw refusal;
    };
    const answered = await call(createPollHandler({ polls, clock, captcha }), {
      method: 'POST',
      route: '/api/poll',
      body: JSON.stringify({ title: 'x', options: ['a', 'b'] }),
    });
    expect(answered.status).toBe(status);
    expect(answered.body).toEqual({ error: { code: refusal.code, message: refusal.message } });
    expect(polls.polls.size).toBe(0);
  });

  it('refuses past the burst with 429 and a Retry-After, before storing anything', async () => {
    const create = createPollHandler({ polls, clock, rateLimit: { perMinute: 6, burst: 2 } });
    const body = JSON.stringify({ title: 'x', options: ['a', 'b'] });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await call(create, { method: 'POST', route: '/api/poll', body })).status);
    expect(statuses).toEqual([201, 201, 429]);
    const refused = await call(create, { method: 'POST', route: '/api/poll', body });
    expect(refused.headers).toMatchObject({ 'retry-after': '10', 'cache-control': 'no-store' });
    expect(polls.polls.size).toBe(2);
  });
});

describe('casting a vote', () => {
  it('hands the vote to the sink and answers 202 with its id and when it was cast', async () => {
    const poll = await storedPoll();
    const answered = await call(castVoteHandler({ polls, votes, log, clock }), voteRequest(poll.id, 2));
    expect(answered.status).toBe(202);
    expect(answered.body).toMatchObject({ pollId: poll.id, option: 2, castAt: new Date(NOW).toISOString() });
    expect(votes.sent).toEqual([
      {
        v: 1,
        voteId: (answered.body as { voteId: string }).voteId,
        pollId: poll.id,
        option: 2,
        castAt: new Date(NOW).toISOString(),
      },
    ]);
  });

  it('answers 503 when the queue refuses the vote, and frees the voter to try again', async () => {
    const poll = await storedPoll({ oneVotePerVoter: true });
    const cast = castVoteHandler({ polls, votes, log, clock });
    votes.failWith = new Error('SQS unreachable');
    const refused = await call(cast, voteRequest(poll.id, 0));
    expect(refused).toMatchObject({ status: 503, body: { error: { code: 'vote_not_queued' } } });
    expect(polls.voters.size).toBe(0);
    expect(log.lines.map((l) => l.message)).toContain('could not queue vote');
    delete votes.failWith;
    expect((await call(cast, voteRequest(poll.id, 0))).status).toBe(202);
    expect(votes.sent).toHaveLength(1);
  });

  it('lets one voter vote once when the poll asks for it, by address, without storing the address', async () => {
    const poll = await storedPoll({ oneVotePerVoter: true });
    const cast = castVoteHandler({ polls, votes, log, clock });
    expect((await call(cast, voteRequest(poll.id, 0, '198.51.100.7'))).status).toBe(202);
    expect(await call(cast, voteRequest(poll.id, 1, '198.51.100.7'))).toMatchObject({
      status: 409,
      body: { error: { code: 'already_voted' } },
    });
    expect((await call(cast, voteRequest(poll.id, 1, '198.51.100.8'))).status).toBe(202);
    expect(JSON.stringify([...polls.voters])).not.toContain('198.51.100');
  });

  it('refuses votes after the poll closes with 410, and after it expires with 404', async () => {
    const poll = await storedPoll({ lifetimeMinutes: 1 });
    const cast = castVoteHandler({ polls, votes, log, clock });
    now += 61_000;
    expect((await call(cast, voteRequest(poll.id, 0))).status).toBe(410);
    now += 24 * 3600_000;
    expect((await call(cast, voteRequest(poll.id, 0))).status).toBe(404);
    expect(votes.sent).toEqual([]);
  });

  it.each([
    ['an id that is not one', 'not-an-id', { option: 0 }, 404],
    ['a malformed escape left as typed', '50%off', { option: 0 }, 404],
    ['an option out of range', undefined, { option: 9 }, 400],
  ])('refuses %s', async (_, id, body, status) => {
    const poll = await storedPoll();
    const answered = await call(castVoteHandler({ polls, votes, log, clock }), {
      ...voteRequest(id ?? poll.id, 0),
      body: JSON.stringify(body),
    });
    expect(answered.status).toBe(status);
    expect(votes.sent).toEqual([]);
  });

  it('gives every try of a keyed ballot the same vote id, so the queue drops the copies', async () => {
    const poll = await storedPoll();
    const cast = castVoteHandler({ polls, votes, log, clock });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await call(cast, voteRequest(poll.id, 1, '192.0.2.1', 'ballot-1')));
    const other = await call(cast, voteRequest(poll.id, 1, '192.0.2.1', 'ballot-2'));
    const ids = answers.map((a) => (a.body as { voteId: string }).voteId);
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    expect(new Set(ids).size).toBe(1);
    expect((other.body as { voteId: string }).voteId).not.toBe(ids[0]);
    expect(votes.sent.map((v) => v.voteId)).toEqual([...ids, (other.body as { voteId: string }).voteId]);
  });

  it.each([
    ['empty', ''],
    ['65 characters', 'k'.repeat(65)],
    ['other characters', 'ballot#1'],
  ])('refuses an Idempotency-Key that is %s with 400, before reading or queueing anything', async (_, key) => {
    const poll = await storedPoll();
    const answered = await call(castVoteHandler({ polls, votes, log, clock }), voteRequest(poll.id, 0, undefined, key));
    expect(answered).toMatchObject({ status: 400, body: { error: { code: 'invalid_idempotency_key' } } });
    expect(votes.sent).toEqual([]);
  });

  it('takes a retry of a ballot for that ballot, not a second vote, on a one-vote-per-voter poll', async () => {
    const poll = await storedPoll({ oneVotePerVoter: true });
    const cast = castVoteHandler({ polls, votes, log, clock });
    const first = await call(cast, voteRequest(poll.id, 0, '198.51.100.7', 'ballot-1'));
    const retry = await call(cast, voteRequest(poll.id, 0, '198.51.100.7', 'ballot-1'));
    expect([first.status, retry.status]).toEqual([202, 202]);
    expect(retry.body).toMatchObject({ voteId: (first.body as { voteId: string }).voteId });
    for (const key of ['ballot-2', undefined]) {
      expect(await call(cast, voteRequest(poll.id, 1, '198.51.100.7', key))).toMatchObject({
        status: 409,
        body: { error: { code: 'already_voted' } },
      });
    }
  });

  it('keeps the claim of an earlier try when a retry is not queued (that try may be), and frees its own', async () => {
    const poll = await storedPoll({ oneVotePerVoter: true });
    const cast = castVoteHandler({ polls, votes, log, clock });
    expect((await call(cast, voteRequest(poll.id, 0, '198.51.100.7', 'ballot-1'))).status).toBe(202);
    votes.failWith = new Error('SQS unreachable');
    expect((await call(cast, voteRequest(poll.id, 0, '198.51.100.7', 'ballot-1'))).status).toBe(503);
    expect(polls.voters.size).toBe(1);
    expect((await call(cast, voteRequest(poll.id, 0, '198.51.100.8', 'ballot-2'))).status).toBe(503);
    expect(polls.voters.size).toBe(1);
  });

  it('answers an unexpected failure with a 500 that says nothing of the cause, and logs it', async () => {
    const broken = {
      ...polls,
      getPoll: async () => Promise.reject(new Error('secret detail')),
    } as unknown as FakePollStore;
    const answered = await call(castVoteHandler({ polls: broken, votes, log, clock }), voteRequest('a'.repeat(21), 0));
    expect(answered).toMatchObject({ status: 500, body: { error: { code: 'internal_error' } } });
    expect(JSON.stringify(answered.body)).not.toContain('secret');
    expect(log.lines).toContainEqual({ level: 'error', message: 'unexpected error' });
  });
});

describe('a hot poll', () => {
  const SIZE = { groups: 67, counterShards: 2 };

  it('is created with the size the stack gives, and one without it is stored as before', async () => {
    const create = (size?: typeof SIZE) =>
      call(createPollHandler({ polls, clock, size }), {
        method: 'POST',
        route: '/api/poll',
        body: JSON.stringify({ title: 'Final', options: ['A', 'B'] }),
      });
    const hot = (await create(SIZE)).body as { id: string };
    expect(polls.polls.get(hot.id)).toMatchObject({ ...SIZE, counterLayout: 'partition-keys' });
    expect((await create(SIZE)).body).not.toHaveProperty('groups');
    const plain = (await create()).body as { id: string };
    expect(Object.keys(polls.polls.get(plain.id)!)).not.toContain('groups');
  });

  it('hands each vote and its poll’s layout to the sink, which spreads it (vote-queue.test.ts)', async () => {
    const poll = await storedPoll();
    polls.polls.set(poll.id, { ...poll, ...SIZE, counterLayout: 'partition-keys' });
    const cast = castVoteHandler({ polls, votes, log, clock });
    for (let i = 0; i < 3; i++) expect((await call(cast, voteRequest(poll.id, i))).status).toBe(202);
    for (const layout of votes.layouts) expect(layout).toMatchObject({ ...SIZE, counterLayout: 'partition-keys' });
    // The handler knows no transport: no message group nor counter item is worked out before the sink.
    for (const vote of votes.sent)
      expect(Object.keys(vote).sort()).toEqual(['castAt', 'option', 'pollId', 'v', 'voteId']);
  });

  it('costs one poll read per interval, yet a closed poll refuses votes at once', async () => {
    const poll = await storedPoll();
    // It closes within the cache's interval.
    polls.polls.set(poll.id, { ...poll, closesAt: NOW / 1000 + 30 });
    const cast = castVoteHandler({ polls, votes, log, clock });
    for (let i = 0; i < 20; i++) expect((await call(cast, voteRequest(poll.id, 0))).status).toBe(202);
    expect(polls.pollReads).toBe(1);
    now += 30_000;
    expect(await call(cast, voteRequest(poll.id, 0))).toMatchObject({ status: 410 });
    expect(polls.pollReads).toBe(1);
  });
});

describe('reading', () => {
  it('answers the poll and its options', async () => {
    const poll = await storedPoll();
    const read = getPollHandler({ polls, clock });
    expect(await call(read, { route: '/api/poll/{id}', pathParameters: { id: poll.id } })).toMatchObject({
      status: 200,
      body: { id: poll.id, title: poll.title },
    });
    expect((await call(read, { route: '/api/poll/{id}/options', pathParameters: { id: poll.id } })).body).toEqual({
      id: poll.id,
      options: poll.options,
    });
  });

  it('reads a poll once per poll-cache interval however many page loads ask, and an expired one is gone', async () => {
    const poll = await storedPoll();
    const read = getPollHandler({ polls, clock });
    const get = () => call(read, { route: '/api/poll/{id}', pathParameters: { id: poll.id } });
    const before = polls.pollReads;
    for (let i = 0; i < 5; i++) expect(await get()).toMatchObject({ status: 200 });
    expect(polls.pollReads - before).toBe(1);
    now += POLL_CACHE.maxAgeSeconds * 1000;
    await get();
    expect(polls.pollReads - before).toBe(2);
    now = poll.expiresAt * 1000 + 1;
    expect(await get()).toMatchObject({ status: 404 });
  });

  it('lets a poll be kept for its max-age, but never past its close or its expiry', async () => {
    const poll = await storedPoll();
    const read = getPollHandler({ polls, clock });
    const maxAge = async (route = '/api/poll/{id}') =>
      (await call(read, { route, pathParameters: { id: poll.id } })).headers?.['cache-control'];
    expect(await maxAge()).toBe(`public, max-age=${POLL_READ_CACHE_SECONDS}`);
    // 10.5 s before it closes: a copy kept 10 s still says open, truthfully; one kept 11 s would not.
    now = poll.closesAt * 1000 - 10_500;
    expect(await maxAge()).toBe('public, max-age=10');
    expect(await maxAge('/api/poll/{id}/options')).toBe('public, max-age=10');
    // Closed: it says so until it expires, and is gone after.
    now = poll.closesAt * 1000;
    expect((await call(read, { route: '/api/poll/{id}', pathParameters: { id: poll.id } })).body).toMatchObject({
      closed: true,
    });
    expect(await maxAge()).toBe(`public, max-age=${POLL_READ_CACHE_SECONDS}`);
    now = poll.expiresAt * 1000 - 4_000;
    expect(await maxAge()).toBe('public, max-age=4');
  });

  it('reads a poll’s counts at most once per results max-age, and never serves them older than that', async () => {
    const poll = await storedPoll();
    const results = getResultsHandler({ polls, clock });
    const get = () => call(results, { route: '/api/poll/{id}/results', pathParameters: { id: poll.id } });
    expect((await get()).headers?.['cache-control']).toBe(`public, max-age=${RESULTS_CACHE_SECONDS}`);
    polls.count(poll.id, 1);
    now += 1500;
    const cached = await get();
    expect(cached.body).toMatchObject({ total: 0 });
    // What is left of the max-age, so a browser or CloudFront does not keep it longer.
    expect(cached.headers?.['cache-control']).toBe('public, max-age=0');
    expect(polls.countReads).toBe(1);
    now += 500;
    expect((await get()).body).toMatchObject({ total: 1, counts: [0, 1, 0] });
    expect(polls.countReads).toBe(2);
    // A client that asks for fresh counts gets them.
    polls.count(poll.id, 2);
    const fresh = await call(results, {
      route: '/api/poll/{id}/results',
      pathParameters: { id: poll.id },
      headers: { 'cache-control': 'no-cache' },
    });
    expect(fresh.body).toMatchObject({ total: 2 });
  });
});

describe('kept answers', () => {
  it('answers a read from one frozen answer while it stays the same, and a new one when it would not', async () => {
    const poll = await storedPoll();
    const read = getPollHandler({ polls, clock });
    const get = (route: string) => call(read, { route, pathParameters: { id: poll.id } });
    const first = await get('/api/poll/{id}');
    expect(Object.isFrozen(first)).toBe(true);
    expect(await get('/api/poll/{id}')).toBe(first);
    expect(await get('/api/poll/{id}/options')).not.toBe(first);
    // Its max-age changes near the close, then its closed: each a new answer, as a fresh one would say.
    now = poll.closesAt * 1000 - 10_500;
    const near = await get('/api/poll/{id}');
    expect(near).not.toBe(first);
    expect(near.headers?.['cache-control']).toBe('public, max-age=10');
    now = poll.closesAt * 1000;
    expect((await get('/api/poll/{id}')).body).toMatchObject({ closed: true });
    expect((await get('/api/poll/{id}/options')).headers?.['cache-control']).toBe(
      `public, max-age=${POLL_READ_CACHE_SECONDS}`,
    );
  });

  it('keeps a count’s answer only while its counts, max-age and closed are the same', async () => {
    const poll = await storedPoll();
    const counts = { ...(await polls.getCounts(poll.id))! };
    const store = { ...polls, getCounts: async () => counts } as unknown as FakePollStore;
    const results = getResultsHandler({ polls: store, clock, keepCounts: false });
    const get = () => call(results, { route: '/api/poll/{id}/results', pathParameters: { id: poll.id } });
    const first = await get();
    expect(await get()).toBe(first);
    now = poll.closesAt * 1000;
    const closed = await get();
    expect(closed).not.toBe(first);
    expect(closed.body).toMatchObject({ closed: true });
  });
});

describe('the error mapping both editions share', () => {
  it('gives every code a 4xx or 5xx status', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
    }
    expect(ERROR_STATUS.rate_limited).toBe(429);
    expect(ERROR_STATUS.poll_closed).toBe(410);
  });
});
