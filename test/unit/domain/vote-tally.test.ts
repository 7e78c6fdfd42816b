import { describe, expect, it } from 'vitest';
import { VOTE_QUEUE } from '../../../config/vote-queue';
import { createPoll } from '../../../domain/poll';
import { padSequence, planBatch, withoutApplied } from '../../../domain/tally';
import {
  chooseOption,
  counterId,
  counterOfVote,
  counterRef,
  idempotencyKey,
  messageGroupId,
  parseVoteMessage,
  shardOfGroup,
  shardOfVote,
  sizeOfPoll,
  voteIdFor,
  voteRoute,
} from '../../../domain/vote';
import { queuedVote, voteBody } from '../../support/factories';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const poll = createPoll({ title: 'Best editor', options: ['vim', 'emacs', 'nano'], lifetimeMinutes: 10 }, NOW);

describe('chooseOption', () => {
  it('accepts an index within the options', () => {
    expect(chooseOption({ option: 2 }, poll, NOW)).toBe(2);
  });
  it.each([
    [{ option: 3 }, 'invalid_option'],
    [{ option: -1 }, 'invalid_option'],
    [{ option: 1.5 }, 'invalid_field'],
    [{ option: '1' }, 'invalid_field'],
    [{}, 'invalid_field'],
    [{ option: 1, extra: 1 }, 'unknown_field'],
    ['1', 'invalid_body'],
  ])('refuses %j', (input, code) => {
    // A wrong field is named, as a poll's are: the answer carries it.
    const named = code === 'invalid_field' ? { field: 'option' } : {};
    expect(() => chooseOption(input, poll, NOW)).toThrow(expect.objectContaining({ code, ...named }));
  });
  it('refuses votes once the poll is closed', () => {
    expect(() => chooseOption({ option: 0 }, poll, NOW + 10 * 60_000)).toThrow(
      expect.objectContaining({ code: 'poll_closed' }),
    );
  });
});

describe('idempotency keys', () => {
  it.each([
    ['a UUID', '123e4567-e89b-12d3-a456-426614174000'],
    ['one character', 'a'],
    ['64 characters', 'x'.repeat(64)],
    ['a poll-id-like key', 'useandom-26T198340PX_'],
  ])('accepts %s', (_, key) => {
    expect(idempotencyKey(key)).toBe(key);
  });
  it.each([
    ['empty', ''],
    ['65 characters', 'x'.repeat(65)],
    ['a space', 'a b'],
    ['two values joined (a header sent twice)', 'a, b'],
    ['a dot', 'a.b'],
    ['non-ASCII', 'clé'],
  ])('refuses %s', (_, key) => {
    expect(() => idempotencyKey(key)).toThrow(expect.objectContaining({ code: 'invalid_idempotency_key' }));
  });
  it('is optional', () => {
    expect(idempotencyKey(undefined)).toBeUndefined();
  });
  it('names one vote id per poll and key, shaped like a random one; without a key every id is new', () => {
    const id = voteIdFor(poll.id, 'k1');
    expect(voteIdFor(poll.id, 'k1')).toBe(id);
    expect(id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(voteIdFor(poll.id, 'k2')).not.toBe(id);
    expect(voteIdFor('another-poll-id-000000', 'k1')).not.toBe(id);
    expect(voteIdFor(poll.id, undefined)).not.toBe(voteIdFor(poll.id, undefined));
  });
});

describe('message groups', () => {
  it('spread a poll over its configured shards, a vote always in the same one, and parse back', () => {
    const voteIds = Array.from({ length: 200 }, () => voteIdFor(poll.id, undefined));
    const shardOf = (id: string) => shardOfVote(id, VOTE_QUEUE.groupsPerPoll);
    const groups = new Set(voteIds.map((id) => messageGroupId(poll.id, shardOf(id))));
    expect(groups.size).toBe(VOTE_QUEUE.groupsPerPoll);
    expect(voteIds.map(shardOf)).toEqual(voteIds.map(shardOf));
    for (const group of groups) expect(shardOfGroup(group, poll.id)).toMatch(/^\d+$/);
    expect(shardOfGroup(`${poll.id}.x`, poll.id)).toBeNull();
    expect(shardOfGroup('other.1', poll.id)).toBeNull();
    expect(shardOfGroup(undefined, poll.id)).toBeNull();
  });

  it('route a poll made without the flag as before: its default groups, one counter item, no counter field', () => {
    expect(poll).not.toHaveProperty('groups');
    expect(sizeOfPoll(poll)).toEqual({ groups: VOTE_QUEUE.groupsPerPoll, counterShards: 1 });
    const id = voteIdFor(poll.id, 'k');
    expect(voteRoute(id, poll)).toEqual({ group: shardOfVote(id, VOTE_QUEUE.groupsPerPoll), item: {} });
  });

  it('route a sized poll over its own groups, each group always to the same one of its counter items', () => {
    const hot = createPoll({ title: 'Hot', options: ['a', 'b'] }, NOW, { groups: 67, counterShards: 3 });
    expect(hot.counterLayout).toBe('partition-keys');
    const routes = Array.from({ length: 2000 }, () => voteRoute(voteIdFor(hot.id, undefined), hot));
    expect(new Set(routes.map((r) => r.group)).size).toBe(67);
    expect(new Set(routes.map((r) => r.item.counter ?? 0))).toEqual(new Set([0, 1, 2]));
    for (const { group, item } of routes)
      expect(item).toEqual(group % 3 === 0 ? {} : { counter: group % 3, counterLayout: 'partition-keys' });
  });

  it('route a sized poll created before layouts to its items under its own key: no layout in the message', () => {
    const { counterLayout: _, ...old } = createPoll({ title: 'Old', options: ['a', 'b'] }, NOW, {
      groups: 8,
      counterShards: 2,
    });
    const items = Array.from({ length: 200 }, () => voteRoute(voteIdFor(old.id, undefined), old).item);
    expect(items.some((item) => item.counter === 1)).toBe(true);
    expect(items.every((item) => item.counterLayout === undefined)).toBe(true);
  });
});

describe('counter items', () => {
  it('are one item per poll, index and layout; item 0 is the same in every layout', () => {
    expect(counterRef('p', 0, 'partition-keys')).toEqual(counterRef('p', 0));
    expect(counterRef('p', 2)).toEqual({ pollId: 'p', counter: 2, layout: 'sort-keys' });
    const ids = [counterRef('p', 0), counterRef('p', 1), counterRef('p', 1, 'partition-keys'), counterRef('q', 1)];
    expect(new Set(ids.map(counterId)).size).toBe(4);
    expect(counterOfVote({ pollId: 'p', counter: 1, counterLayout: 'partition-keys' })).toEqual(
      counterRef('p', 1, 'partition-keys'),
    );
    expect(counterOfVote({ pollId: 'p' })).toEqual({ pollId: 'p', counter: 0 });
  });
});

const record = (pollId: string, option: number, shard = 0, body?: string) =>
  queuedVote(pollId, option, { shard, body });

describe('planBatch (carpooling)', () => {
  it('folds many votes into one tally per poll', () => {
    const records = [
      ...Array.from({ length: 600 }, (_, i) => record('pollA', i % 3, i % 4)),
      ...Array.from({ length: 300 }, () => record('pollB', 1, 2)),
      ...Array.from({ length: 100 }, (_, i) => record('pollC', i % 2, 1)),
    ];
    const plan = planBatch(records);
    expect(plan.malformed).toEqual([]);
    expect(plan.tallies.map((t) => t.pollId).sort()).toEqual(['pollA', 'pollB', 'pollC']);
    const a = plan.tallies.find((t) => t.pollId === 'pollA')!;
    expect(a.votes).toEqual({ 0: 200, 1: 200, 2: 200 });
    expect(a.total).toBe(600);
    expect(Object.keys(a.marks).sort()).toEqual(['0', '1', '2', '3']);
    expect(a.marks['0'].first < a.marks['0'].last).toBe(true);
    const total = plan.tallies.reduce((sum, t) => sum + t.total, 0);
    expect(total).toBe(1000);
  });

  it('sends malformed records to the failures, and only them', () => {
    const good = record('pollA', 0);
    const bad = [
      record('pollA', 0, 0, 'not json'),
      record('pollA', 0, 0, JSON.stringify({ v: 2, pollId: 'pollA', option: 0 })),
      { ...record('pollA', 0), groupId: 'pollB.0' },
      { ...record('pollA', 0), sequenceNumber: undefined },
      record('pollA', -1),
    ];
    const plan = planBatch([good, ...bad]);
    expect(plan.malformed.sort()).toEqual(bad.map((r) => r.messageId).sort());
    expect(plan.tallies).toHaveLength(1);
    expect(plan.tallies[0].messageIds).toEqual([good.messageId]);
  });

  it('folds a sized poll’s batch into one tally per counter item, each with the marks of its own groups', () => {
    const records = Array.from({ length: 40 }, (_, i) =>
      queuedVote('hot', i % 2, { shard: i % 8, body: voteBody('hot', i % 2, { counter: (i % 8) % 2 }) }),
    );
    const plan = planBatch(records);
    expect(plan.tallies.map((t) => [t.counter, t.total, Object.keys(t.marks).sort()])).toEqual([
      [0, 20, ['0', '2', '4', '6']],
      [1, 20, ['1', '3', '5', '7']],
    ]);
  });

  it('orders sequence numbers numerically, also across digit counts', () => {
    expect(padSequence('999') < padSequence('1000')).toBe(true);
    expect(padSequence('18849496460467696128') < padSequence('18849496460467696129')).toBe(true);
  });
});

describe('withoutApplied', () => {
  it('drops exactly the votes at or below each group mark', () => {
    const records = [record('p', 0, 0), record('p', 1, 0), record('p', 1, 1), record('p', 2, 0), record('p', 0, 1)];
    const tally = planBatch(records).tallies[0];
    const applied = { '0': padSequence(records[1].sequenceNumber!) }; // first two of shard 0 were applied
    const left = withoutApplied(tally, applied)!;
    expect(left.messageIds.sort()).toEqual([records[2], records[3], records[4]].map((r) => r.messageId).sort());
    expect(left.votes).toEqual({ 0: 1, 1: 1, 2: 1 });
    expect(left.marks['0'].first).toBe(padSequence(records[3].sequenceNumber!));
  });

  it('returns null when everything was applied before', () => {
    const records = [record('p', 0, 0), record('p', 1, 3)];
    const tally = planBatch(records).tallies[0];
    expect(withoutApplied(tally, { '0': padSequence('9'.repeat(30)), '3': padSequence('9'.repeat(30)) })).toBeNull();
  });
});

describe('parseVoteMessage', () => {
  it('round-trips what the vote function sends', () => {
    const message = { v: 1, voteId: 'x', pollId: poll.id, option: 1, castAt: 'now' };
    expect(parseVoteMessage(JSON.stringify(message))).toEqual(message);
    expect(parseVoteMessage(JSON.stringify({ ...message, counter: 3 }))).toEqual({ ...message, counter: 3 });
    const laidOut = { ...message, counter: 3, counterLayout: 'partition-keys' };
    expect(parseVoteMessage(JSON.stringify(laidOut))).toEqual(laidOut);
    expect(parseVoteMessage('{"v":1}')).toBeNull();
    for (const counter of [-1, 1.5, '1']) expect(parseVoteMessage(JSON.stringify({ ...message, counter }))).toBeNull();
    for (const counterLayout of ['rows', 1, null])
      expect(parseVoteMessage(JSON.stringify({ ...message, counter: 3, counterLayout }))).toBeNull();
  });
});
