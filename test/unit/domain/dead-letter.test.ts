/** What the consumer and `npm run dlq` decide about votes that failed every delivery (pure). */
import { describe, expect, it } from 'vitest';
import { VOTE_QUEUE } from '../../../config/vote-queue';
import {
  isLastDelivery,
  judgeLastDelivery,
  judgeLetter,
  planRedrive,
  redrivenVote,
  type CountGuards,
} from '../../../domain/dead-letter';
import { padSequence } from '../../../domain/tally';
import { parseVoteMessage, type VoteMessage } from '../../../domain/vote';

const POLL = 'p'.repeat(21);
const vote = (voteId: string, extra: Partial<VoteMessage> = {}): VoteMessage => ({
  v: 1,
  voteId,
  pollId: POLL,
  option: 1,
  castAt: '2026-11-22T00:00:00Z',
  ...extra,
});
const rec = (v: VoteMessage | string, seq: string, receiveCount: number = VOTE_QUEUE.maxReceiveCount) => ({
  messageId: `m-${seq}`,
  body: typeof v === 'string' ? v : JSON.stringify(v),
  groupId: `${POLL}.2`,
  sequenceNumber: seq,
  receiveCount,
});
const guards =
  (mark: string | undefined, redriven: string[] = []) =>
  (): CountGuards => ({ applied: mark ? { 2: padSequence(mark) } : {}, redriven: new Set(redriven) });

describe('the last delivery', () => {
  it('is the delivery that reaches maxReceiveCount', () => {
    expect(isLastDelivery(rec(vote('a'), '1', VOTE_QUEUE.maxReceiveCount - 1))).toBe(false);
    expect(isLastDelivery(rec(vote('a'), '1', VOTE_QUEUE.maxReceiveCount))).toBe(true);
    expect(isLastDelivery({ messageId: 'x', body: '' })).toBe(false);
  });

  it('calls a vote counted when its sequence number is at or below its group’s mark, unapplied above it', () => {
    expect(judgeLastDelivery(rec(vote('a'), '100'), guards('100'))).toBe('counted');
    expect(judgeLastDelivery(rec(vote('a'), '99'), guards('100'))).toBe('counted');
    expect(judgeLastDelivery(rec(vote('a'), '101'), guards('100'))).toBe('unapplied');
    expect(judgeLastDelivery(rec(vote('a'), '101'), guards(undefined))).toBe('unapplied');
    // Numeric, not string, order: 9 < 10.
    expect(judgeLastDelivery(rec(vote('a'), '9'), guards('10'))).toBe('counted');
  });

  it('judges a redriven vote by its id, whatever its sequence number', () => {
    const redriven = vote('r', { redriven: true });
    expect(judgeLastDelivery(rec(redriven, '1'), guards('100', ['r']))).toBe('counted');
    expect(judgeLastDelivery(rec(redriven, '1'), guards('100'))).toBe('unapplied');
  });

  it('says poll-missing, malformed or unknown when it cannot judge', () => {
    expect(judgeLastDelivery(rec(vote('a'), '1'), () => undefined)).toBe('poll-missing');
    expect(judgeLastDelivery(rec(vote('a'), '1'), () => 'unreachable')).toBe('unknown');
    expect(judgeLastDelivery(rec('{"not":"a vote"}', '1'), guards('1'))).toBe('malformed');
    expect(judgeLastDelivery({ ...rec(vote('a'), '1'), groupId: 'other.1' }, guards('1'))).toBe('malformed');
  });
});

describe('a redrive plan', () => {
  const letter = (messageId: string, body: VoteMessage | string, verdict?: string) => ({
    messageId,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    verdict,
  });

  it('trusts only the consumer’s verdict: a letter without one is unknown', () => {
    expect(judgeLetter(letter('1', vote('a'), 'unapplied')).verdict).toBe('unapplied');
    expect(judgeLetter(letter('2', vote('a'))).verdict).toBe('unknown');
    expect(judgeLetter(letter('3', vote('a'), 'counted-maybe')).verdict).toBe('unknown');
    expect(judgeLetter(letter('4', vote('a'), 'toString')).verdict).toBe('unknown');
    expect(judgeLetter(letter('5', 'garbage', 'unapplied')).verdict).toBe('malformed');
  });

  it('redrives each unapplied vote once, deletes its other copies, and keeps the rest', () => {
    const plan = planRedrive([
      letter('1', vote('a'), 'unapplied'),
      letter('2', vote('a')), // SQS's own copy of the same vote
      letter('3', vote('a'), 'unapplied'),
      letter('4', vote('b')),
      letter('5', vote('c'), 'poll-missing'),
      letter('6', 'garbage'),
      letter('7', vote('d'), 'unapplied'),
    ]);
    expect(plan.redrive.map((j) => j.letter.messageId)).toEqual(['1', '7']);
    expect(plan.duplicates.map((j) => j.letter.messageId)).toEqual(['2', '3']);
    expect(plan.keep.map((j) => [j.letter.messageId, j.verdict])).toEqual([
      ['4', 'unknown'],
      ['5', 'poll-missing'],
      ['6', 'malformed'],
    ]);
  });

  it('marks a redriven vote so the consumer counts it by its id, and the mark survives parsing', () => {
    const parsed = parseVoteMessage(JSON.stringify(redrivenVote(vote('a'))));
    expect(parsed).toMatchObject({ voteId: 'a', redriven: true });
    expect(parseVoteMessage(JSON.stringify({ ...vote('a'), redriven: 'yes' }))).toBeNull();
  });
});
