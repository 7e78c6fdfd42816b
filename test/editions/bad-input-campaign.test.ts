/**
 * The bad-input campaign: thousands of malformed, boundary and hostile requests,
 * generated from a seed and mixed with valid votes, sent over HTTP to both editions
 * (the serverless one on the local runtime, and the VPS one). No 5xx; every refusal in
 * the API's one error shape; nothing stored that should not be; every valid vote counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL_LIMITS } from '../../config/api-contract';
import { EDITIONS, startEdition, type Edition } from '../support/editions';
import { api, pool } from '../support/local';
import { prng } from '../support/prng';

const HOSTILE_REQUESTS = 3000;
const VALID_VOTES = 300;

interface Attack {
  kind: string;
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  /** Statuses that are a correct refusal of this request. */
  expect: number[];
}

const NASTY_STRINGS = [
  '',
  ' ',
  'x'.repeat(POLL_LIMITS.titleMaxLength + 1),
  'x'.repeat(10_000),
  '\u0000',
  'a\u0007b',
  '\ud800', // a lone surrogate
  '\u202egnp.exe', // right-to-left override
  '\u200b',
  '<script>alert(1)</script>',
  "'; DROP TABLE polls; --",
  '{{constructor.constructor("return process")()}}',
  '%00',
  '../../etc/passwd',
];
const NON_STRINGS: unknown[] = [null, true, 0, -1, 1.5, 1e308, [], {}, [1, 2], { $gt: '' }];
const NASTY_IDS = [
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f',
  'x'.repeat(500),
  'AAAAAAAAAAAAAAAAAAAA%00',
  '%F0%9F%92%A9'.repeat(5),
  "1' OR '1'='1",
  'null',
  '-',
];

function campaign(random: () => number, polls: { open: string; oneVote: string; closed: string }): Attack[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const generators: Array<() => Attack> = [
    () => ({
      kind: 'create: bad title',
      method: 'POST',
      path: '/api/poll',
      body: JSON.stringify({
        title: pick([...NASTY_STRINGS.slice(0, 3), ...NASTY_STRINGS.slice(4, 7), ...NON_STRINGS]),
        options: ['a', 'b'],
      }),
      expect: [400],
    }),
    () => ({
      kind: 'create: bad options',
      method: 'POST',
      path: '/api/poll',
      body: JSON.stringify({
        title: 't',
        options: pick([
          [],
          ['one'],
          Array(21)
            .fill('o')
            .map((o, i) => o + i),
          ['a', 'a'],
          ['a', 'A'],
          ['a', pick(NON_STRINGS)],
          ['a', pick(NASTY_STRINGS.slice(0, 3))],
          ['a', pick(NASTY_STRINGS.slice(4, 7))],
          ['a', 'x'.repeat(101)],
          'a,b',
          null,
        ]),
      }),
      expect: [400],
    }),
    () => ({
      kind: 'create: bad lifetime',
      method: 'POST',
      path: '/api/poll',
      body: JSON.stringify({
        title: 't',
        options: ['a', 'b'],
        lifetimeMinutes: pick([0, -5, 1.5, 10081, 1e9, '60', [60]]),
      }),
      expect: [400],
    }),
    () => ({
      kind: 'create: bad switch',
      method: 'POST',
      path: '/api/poll',
      body: JSON.stringify({ title: 't', options: ['a', 'b'], oneVotePerVoter: pick(['yes', 1, {}]) }),
      expect: [400],
    }),
    () => ({
      kind: 'create: unknown fields',
      method: 'POST',
      path: '/api/poll',
      body: JSON.stringify({
        title: 't',
        options: ['a', 'b'],
        [pick(['admin', '__proto__', 'id', 'voterSalt', 'expiresAt'])]: 1,
      }),
      expect: [400],
    }),
    () => ({
      kind: 'create: not an object',
      method: 'POST',
      path: '/api/poll',
      body: pick(['null', '[]', '"poll"', '42', 'true']),
      expect: [400],
    }),
    () => ({
      kind: 'invalid JSON',
      method: 'POST',
      path: pick(['/api/poll', `/api/poll/${polls.open}/vote`]),
      body: pick(['{', '{"title":', "{'a':1}", '{"a":1,}', '\u0000', deep(3000), 'undefined']),
      expect: [400],
    }),
    () => ({
      kind: 'wrong content type',
      method: 'POST',
      path: pick(['/api/poll', `/api/poll/${polls.open}/vote`]),
      body: '{"option":0}',
      contentType: pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonx',
        '',
      ]),
      expect: [415],
    }),
    () => ({
      kind: 'body over 8 KB',
      method: 'POST',
      path: pick(['/api/poll', `/api/poll/${polls.open}/vote`]),
      body: JSON.stringify({ title: 'x'.repeat(9000), options: ['a', 'b'] }),
      expect: [413],
    }),
    () => ({
      kind: 'vote: bad option',
      method: 'POST',
      path: `/api/poll/${polls.open}/vote`,
      body: JSON.stringify({ option: pick([-1, 3, 99, 0.5, '0', null, [0], {}, 1e308]) }),
      expect: [400],
    }),
    () => ({
      kind: 'vote: extra fields',
      method: 'POST',
      path: `/api/poll/${polls.open}/vote`,
      body: JSON.stringify({ option: 0, [pick(['voter', 'count', 'pollId', '__proto__'])]: 5 }),
      expect: [400],
    }),
    () => ({
      kind: 'vote: closed poll',
      method: 'POST',
      path: `/api/poll/${polls.closed}/vote`,
      body: JSON.stringify({ option: 0 }),
      expect: [410],
    }),
    () => ({
      kind: 'vote: twice on a one-vote poll',
      method: 'POST',
      path: `/api/poll/${polls.oneVote}/vote`,
      body: JSON.stringify({ option: 1 }),
      expect: [409],
    }),
    () => {
      const method = pick(['GET', 'POST']);
      const path = `/api/poll/${pick(NASTY_IDS)}${pick(['', '/options', '/results', '/vote'])}`;
      // Some of these pair a path with a method it does not take: 405 on the VPS edition (see 'wrong method').
      return {
        kind: 'hostile ids',
        method,
        path,
        body: method === 'POST' ? JSON.stringify({ option: 0 }) : undefined,
        expect: [404, 405],
      };
    },
    () => ({
      kind: 'unknown poll',
      method: 'GET',
      path: `/api/poll/${'Z'.repeat(POLL_LIMITS.idLength)}${pick(['', '/options', '/results'])}`,
      expect: [404],
    }),
    // API Gateway answers 404 to a method a route does not have; the VPS edition 405 with Allow.
    () => ({
      kind: 'wrong method',
      method: pick(['PUT', 'DELETE', 'PATCH']),
      path: pick(['/api/poll', `/api/poll/${polls.open}`, `/api/poll/${polls.open}/vote`]),
      expect: [404, 405],
    }),
  ];
  return Array.from({ length: HOSTILE_REQUESTS }, () => pick(generators)());
}

describe.each(EDITIONS)('the bad-input campaign against the %s edition', (name) => {
  let edition: Edition;
  beforeAll(async () => {
    edition = await startEdition(name);
  });
  afterAll(async () => edition?.stop());

  it(`answers ${HOSTILE_REQUESTS} hostile requests 4xx only, stores nothing extra, counts valid votes`, async () => {
    const client = api(edition);
    const open = (await client.createPoll({ options: ['A', 'B', 'C'] })).id;
    const oneVote = (await client.createPoll({ options: ['A', 'B'], oneVotePerVoter: true })).id;
    const closed = (await client.createPoll({ options: ['A', 'B'], lifetimeMinutes: 1 })).id;
    await edition.closeShortPolls([closed]);
    expect((await client.vote(oneVote, 0)).status).toBe(202); // the one allowed vote; later ones must be refused
    await edition.settled();
    const before = await edition.storedKeys();
    const attacks = campaign(prng(20261122), { open, oneVote, closed });
    const expectedCounts = [0, 0, 0];
    const requests: Array<Attack | { kind: 'valid vote'; option: number }> = [...attacks];
    for (let i = 0; i < VALID_VOTES; i++)
      requests.splice(Math.floor((i * attacks.length) / VALID_VOTES), 0, { kind: 'valid vote', option: i % 3 });

    const byStatus: Record<string, number> = {};
    const wrong: string[] = [];
    await pool(requests.length, 20, async (i) => {
      const request = requests[i];
      if (request.kind === 'valid vote') {
        const res = await client.vote(open, (request as { option: number }).option);
        byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
        if (res.status === 202) expectedCounts[(request as { option: number }).option]++;
        else wrong.push(`valid vote got ${res.status} ${res.text}`);
        return;
      }
      const attack = request as Attack;
      const res = await client.call(
        attack.method,
        attack.path,
        attack.body,
        attack.body === undefined ? {} : { 'content-type': attack.contentType ?? 'application/json' },
      );
      byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
      const shapeOk =
        res.json?.error?.code && res.json?.error?.message
          ? true
          : res.status === 404 || res.status === 403
            ? typeof res.json?.message === 'string'
            : false;
      if (!attack.expect.includes(res.status) || !shapeOk)
        wrong.push(
          `${attack.kind}: ${attack.method} ${attack.path.slice(0, 80)} -> ${res.status} ${res.text.slice(0, 120)}`,
        );
    });
    console.log(
      `bad-input campaign (${name}): ${requests.length} requests ` +
        `(${HOSTILE_REQUESTS} hostile, ${VALID_VOTES} valid votes); by status ${JSON.stringify(byStatus)}`,
    );
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(Object.keys(byStatus).filter((s) => Number(s) >= 500)).toEqual([]);

    // Nothing stored that should not be: the only changes are the valid votes' effects on the open poll's counts.
    await edition.settled();
    const after = await edition.storedKeys();
    expect(after).toEqual(before);
    expect(after.filter((key) => /VOTER|^claim\|/.test(key))).toHaveLength(1);
    expect((await client.results(open)).json.counts).toEqual(expectedCounts);
    expect((await client.results(oneVote)).json.total).toBe(1);
    expect((await client.results(closed)).json.total).toBe(0);
  });
});
