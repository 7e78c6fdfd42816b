/** The vote function's memory of polls: bounded in time and entries, by a clock the test holds. */
import { describe, expect, it } from 'vitest';
import { cachedPolls } from '../../../domain/poll-cache';
import { TimedCache } from '../../../domain/timed-cache';
import { NOW, testPoll } from '../../support/factories';
import { FakePollStore } from '../../support/fakes';

function setup(maxEntries = 10) {
  const polls = new FakePollStore();
  let now = NOW;
  const read = cachedPolls(
    (id) => polls.getPoll(id),
    () => now,
    { maxAgeMs: 60_000, maxEntries },
  );
  return { polls, read, advance: (ms: number) => (now += ms) };
}

describe('cachedPolls', () => {
  it('reads a poll once per interval, and again once the interval is over', async () => {
    const { polls, read, advance } = setup();
    const poll = testPoll();
    await polls.putNewPoll(poll);
    for (let i = 0; i < 5; i++) expect(await read(poll.id)).toEqual(poll);
    expect(polls.pollReads).toBe(1);
    advance(59_999);
    await read(poll.id);
    expect(polls.pollReads).toBe(1);
    advance(1);
    await read(poll.id);
    expect(polls.pollReads).toBe(2);
  });

  it('keeps no miss: a poll created after a miss is found at once', async () => {
    const { polls, read } = setup();
    const poll = testPoll();
    expect(await read(poll.id)).toBeUndefined();
    await polls.putNewPoll(poll);
    expect(await read(poll.id)).toEqual(poll);
  });

  it('keeps at most its bound of polls, the oldest out first', async () => {
    const { polls, read } = setup(2);
    const [a, b, c] = [testPoll(), testPoll(), testPoll()];
    for (const poll of [a, b, c]) await polls.putNewPoll(poll);
    for (const poll of [a, b, c]) await read(poll.id);
    expect(polls.pollReads).toBe(3);
    await read(c.id);
    await read(b.id);
    expect(polls.pollReads).toBe(3);
    await read(a.id);
    expect(polls.pollReads).toBe(4);
  });
});

describe('TimedCache', () => {
  it('forgets an entry from the future (a clock set back) rather than keep it longer', () => {
    const cache = new TimedCache<string>(1000);
    cache.set('k', 'v', NOW);
    expect(cache.get('k', NOW + 999)).toEqual({ value: 'v', ageMs: 999 });
    expect(cache.get('k', NOW - 1)).toBeUndefined();
    expect(cache.get('k', NOW)).toBeUndefined();
  });
});
