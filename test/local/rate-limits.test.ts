/** Per-address rate limits on create and vote, as the deployed stack sets them (RATE_LIMITS). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../config/throttling';
import { parseRateLimit, RateLimiter } from '../../domain/rate-limit';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { api } from '../support/local';

describe('the token bucket', () => {
  it('allows a burst, then one request per refill interval, per key', () => {
    const limiter = new RateLimiter({ perMinute: 60, burst: 3 });
    expect([0, 0, 0].map(() => limiter.take('a', 0))).toEqual([0, 0, 0]);
    expect(limiter.take('a', 0)).toBe(1); // next token in 1 s
    expect(limiter.take('b', 0)).toBe(0); // another address has its own bucket
    expect(limiter.take('a', 1000)).toBe(0);
    expect(limiter.take('a', 1000)).toBe(1);
  });

  it('forgets the least recently seen keys beyond its memory bound', () => {
    const limiter = new RateLimiter({ perMinute: 1, burst: 1 }, 2);
    limiter.take('a', 0);
    limiter.take('b', 0);
    limiter.take('c', 0); // evicts a
    expect(limiter.take('a', 0)).toBe(0);
  });

  it('reads the stack’s setting and can be off', () => {
    expect(parseRateLimit('60/30')).toEqual({ perMinute: 60, burst: 30 });
    expect(new RateLimiter(parseRateLimit('off')).take('a', 0)).toBe(0);
    expect(() => parseRateLimit('fast')).toThrow(/RATE_LIMIT must look like/);
  });
});

describe('over HTTP, with the deployed limits', () => {
  let runtime: LocalRuntime;
  let pollId: string;
  const tableUsage = () => Object.values(runtime.usage().tables)[0];
  const queuedVotes = () => Object.values(runtime.usage().queues).reduce((sum, q) => sum + q.messagesSent, 0);

  beforeAll(async () => {
    runtime = await startLocalRuntime({});
    pollId = (await api(runtime).createPoll({ options: ['a', 'b'] })).id; // one token of the create burst
  });
  afterAll(async () => runtime?.stop());

  it('answers 429 with Retry-After past the create burst, and stores nothing for refused requests', async () => {
    const client = api(runtime);
    const writesBefore = tableUsage().requests.BatchWriteItem;
    const started = Date.now();
    const responses = [];
    for (let i = 0; i < RATE_LIMITS.createPoll.burst + 3; i++)
      responses.push(await client.call('POST', '/api/poll', { title: `p${i}`, options: ['a', 'b'] }));
    const created = responses.filter((r) => r.status === 201).length;
    // The burst (one token went to beforeAll's poll), plus whatever refilled while this ran.
    const refilled = Math.ceil(((Date.now() - started) / 60_000) * RATE_LIMITS.createPoll.perMinute);
    expect(created).toBeGreaterThanOrEqual(RATE_LIMITS.createPoll.burst - 1);
    expect(created).toBeLessThanOrEqual(RATE_LIMITS.createPoll.burst - 1 + refilled);
    const refused = responses.filter((r) => r.status !== 201);
    expect(refused.length).toBeGreaterThan(0);
    expect(
      refused.every(
        (r) => r.status === 429 && r.json.error.code === 'rate_limited' && Number(r.headers.get('retry-after')) > 0,
      ),
    ).toBe(true);
    expect(tableUsage().requests.BatchWriteItem - writesBefore).toBe(created);
  });

  it('refuses votes past the vote burst before reading the table or queueing anything', async () => {
    const client = api(runtime);
    const readsBefore = tableUsage().requests.GetItem ?? 0;
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMITS.castVote.burst + 10; i++) statuses.push((await client.vote(pollId, i % 2)).status);
    const accepted = statuses.filter((s) => s === 202).length;
    const refilled = Math.ceil(((Date.now() - started) / 60_000) * RATE_LIMITS.castVote.perMinute);
    expect(accepted).toBeGreaterThanOrEqual(RATE_LIMITS.castVote.burst);
    expect(accepted).toBeLessThanOrEqual(RATE_LIMITS.castVote.burst + refilled);
    expect(statuses.filter((s) => s !== 202).every((s) => s === 429)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Refused votes never reached the queue; the table was read once, for the poll the vote function then keeps.
    expect(queuedVotes()).toBe(accepted);
    expect(tableUsage().requests.GetItem - readsBefore).toBeLessThanOrEqual(1);
    await runtime.waitForDrain();
    expect((await client.results(pollId)).json.total).toBe(accepted);
  });
});
