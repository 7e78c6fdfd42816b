import { describe, expect, it } from 'vitest';
import { VOTE_QUEUE } from '../../config/app-config';
import { createPoll } from '../../lambdas/domain/poll';
import { padSequence, planBatch, withoutApplied } from '../../lambdas/domain/tally';
import { chooseOption, messageGroupId, parseVoteMessage, shardOfGroup } from '../../lambdas/domain/vote';
import { queuedVote } from '../support/factories';

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
    expect(() => chooseOption(input, poll, NOW)).toThrow(expect.objectContaining({ code }));
  });
  it('refuses votes once the poll is closed', () => {
    expect(() => chooseOption({ option: 0 }, poll, NOW + 10 * 60_000)).toThrow(
      expect.objectContaining({ code: 'poll_closed' }),
    );
  });
});

describe('message groups', () => {
  it('spread a poll over its configured shards and parse back', () => {
    const groups = new Set(Array.from({ length: 200 }, (_, i) => messageGroupId(poll.id, i / 200)));
    expect(groups.size).toBe(VOTE_QUEUE.groupsPerPoll);
    for (const group of groups) expect(shardOfGroup(group, poll.id)).toMatch(/^\d+$/);
    expect(shardOfGroup(`${poll.id}.x`, poll.id)).toBeNull();
    expect(shardOfGroup('other.1', poll.id)).toBeNull();
    expect(shardOfGroup(undefined, poll.id)).toBeNull();
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
    expect(parseVoteMessage('{"v":1}')).toBeNull();
  });
});
