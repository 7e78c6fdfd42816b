/**
 * A vote sent with an Idempotency-Key is counted once however often it is sent, on both editions:
 * retries in a row and at once, a retry of a vote whose answer was lost after it was queued, a
 * retry on a one-vote-per-voter poll; and a malformed key is refused with nothing stored or counted.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY } from '../../config/api-contract';
import { voteIdFor } from '../../domain/vote';
import { EDITIONS, startEdition, type Edition } from '../support/editions';
import { api, pool, voteUntilAnswered } from '../support/local';

/** A POST with the header sent twice (fetch would join the values itself). */
function voteWithTwoKeys(url: string, pollId: string, keys: string[]): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/poll/${pollId}/vote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [IDEMPOTENCY.header]: keys },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ option: 0 }));
  });
}

describe.each(EDITIONS)('idempotent votes, %s edition', (name) => {
  let edition: Edition;
  beforeAll(async () => {
    edition = await startEdition(name);
  });
  afterAll(async () => edition?.stop());

  const client = () => api(edition);
  const counts = async (pollId: string): Promise<number[]> => {
    await edition.settled();
    return (await client().results(pollId)).json.counts;
  };

  it('counts one key sent 5 times in a row and 5 at once as 1, 10 other keys as 10, a keyless vote as 1', async () => {
    const poll = await client().createPoll();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await client().vote(poll.id, 0, 'same-ballot'));
    answers.push(...(await pool(5, 5, () => client().vote(poll.id, 0, 'same-ballot'))));
    const others = await pool(10, 10, (i) => client().vote(poll.id, 1, `other-ballot-${i}`));
    const keyless = await client().vote(poll.id, 2);
    expect([...answers, ...others, keyless].map((a) => a.status)).toEqual(new Array(21).fill(202));
    expect(new Set(answers.map((a) => a.json.voteId))).toEqual(new Set([voteIdFor(poll.id, 'same-ballot')]));
    expect(new Set(others.map((a) => a.json.voteId)).size).toBe(10);
    expect(await counts(poll.id)).toEqual([1, 10, 1]);
  });

  it('answers 20 concurrent sends of one key each with 202 and the same vote id, and counts one vote', async () => {
    const poll = await client().createPoll();
    const answers = await pool(20, 20, () => client().vote(poll.id, 1, 'ballot-20'));
    expect(answers.map((a) => a.status)).toEqual(new Array(20).fill(202));
    expect(new Set(answers.map((a) => a.json.voteId)).size).toBe(1);
    expect(await counts(poll.id)).toEqual([0, 1, 0]);
  });

  it('takes a retry of a ballot for that ballot on a one-vote-per-voter poll, and refuses another one', async () => {
    const poll = await client().createPoll({ oneVotePerVoter: true });
    const first = await client().vote(poll.id, 2, 'my-ballot');
    const retry = await client().vote(poll.id, 2, 'my-ballot');
    expect([first.status, retry.status]).toEqual([202, 202]);
    expect(retry.json.voteId).toBe(first.json.voteId);
    expect((await client().vote(poll.id, 0, 'another-ballot')).json.error.code).toBe('already_voted');
    expect((await client().vote(poll.id, 0)).status).toBe(409);
    expect(await counts(poll.id)).toEqual([0, 0, 1]);
  });

  it.each([
    ['empty', ''],
    [`${IDEMPOTENCY.maxLength + 1} characters long`, 'k'.repeat(IDEMPOTENCY.maxLength + 1)],
    ['made of other characters', 'ballot/1'],
    ['not ASCII', 'bulletin-n°1'],
  ])('refuses a key that is %s with 400, storing and counting nothing', async (_, key) => {
    const poll = await client().createPoll();
    const before = await edition.storedKeys();
    const refused = await client().call(
      'POST',
      `/api/poll/${poll.id}/vote`,
      { option: 0 },
      { [IDEMPOTENCY.header]: key },
    );
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('invalid_idempotency_key');
    expect(await edition.storedKeys()).toEqual(before);
    expect(await counts(poll.id)).toEqual([0, 0, 0]);
  });

  it('refuses a key header sent twice with 400, counting nothing', async () => {
    const poll = await client().createPoll();
    const refused = await voteWithTwoKeys(edition.url, poll.id, ['one', 'two']);
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('invalid_idempotency_key');
    expect(await counts(poll.id)).toEqual([0, 0, 0]);
  });
});

describe('a vote whose answer is lost after it was queued (serverless edition)', () => {
  let edition: Edition;
  beforeAll(async () => {
    edition = await startEdition('serverless');
  });
  afterAll(async () => edition?.stop());

  it('is answered with the gateway’s timeout; its retry by key gets 202 and the same id: counted once', async () => {
    const poll = await api(edition).createPoll();
    edition.runtime!.faults.timeOutAfterVotes = 1;
    const lost = await api(edition).vote(poll.id, 1, 'lost-answer');
    expect(lost.status).toBe(503);
    const retried = await voteUntilAnswered(() => edition, { pollId: poll.id, option: 1, key: 'lost-answer' });
    expect(retried).toMatchObject({ status: 202, json: { voteId: voteIdFor(poll.id, 'lost-answer') } });
    await edition.settled();
    expect((await api(edition).results(poll.id)).json.counts).toEqual([0, 1, 0]);
  });

  it('drops a key reused with another option inside the window: answered 202, not counted', async () => {
    const poll = await api(edition).createPoll();
    expect((await api(edition).vote(poll.id, 0, 'reused')).status).toBe(202);
    expect((await api(edition).vote(poll.id, 2, 'reused')).status).toBe(202);
    await edition.settled();
    expect((await api(edition).results(poll.id)).json.counts).toEqual([1, 0, 0]);
  });
});
