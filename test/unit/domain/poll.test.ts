import { describe, expect, it } from 'vitest';
import { POLL_LIMITS } from '../../../config/api-contract';
import { TABLE } from '../../../config/table';
import { isPollId, newId } from '../../../domain/ids';
import type { PollError } from '../../../domain/errors';
import { createPoll, isClosed, isExpired, toPublicPoll } from '../../../domain/poll';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const valid = { title: 'Lunch?', options: ['Pizza', 'Sushi'] };

describe('poll ids', () => {
  it('are 21 url-safe characters and differ every time', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(isPollId(id)).toBe(true);
  });

  it('refuse anything else, including path tricks', () => {
    for (const bad of ['', '../../../etc/passwd', 'a'.repeat(20), 'a'.repeat(22), 'abc def ghi jkl mno pq', 42, null]) {
      expect(isPollId(bad)).toBe(false);
    }
  });
});

describe('createPoll', () => {
  it('builds a poll with trimmed text, default lifetime and expiry after the grace period', () => {
    const poll = createPoll({ title: '  Lunch?  ', options: [' Pizza', 'Sushi '] }, NOW);
    expect(poll.title).toBe('Lunch?');
    expect(poll.options).toEqual(['Pizza', 'Sushi']);
    expect(poll.oneVotePerVoter).toBe(false);
    expect(poll.closesAt).toBe(NOW / 1000 + POLL_LIMITS.defaultLifetimeMinutes * 60);
    expect(poll.expiresAt).toBe(poll.closesAt + TABLE.retainAfterCloseSeconds);
    expect(isPollId(poll.id)).toBe(true);
  });

  it('closes, then expires, at the right moments', () => {
    const poll = createPoll({ ...valid, lifetimeMinutes: 5 }, NOW);
    expect(isClosed(poll, NOW + 5 * 60_000 - 1)).toBe(false);
    expect(isClosed(poll, NOW + 5 * 60_000)).toBe(true);
    expect(isExpired(poll, poll.expiresAt * 1000 - 1)).toBe(false);
    expect(isExpired(poll, poll.expiresAt * 1000)).toBe(true);
    expect(toPublicPoll(poll, NOW + 5 * 60_000).closed).toBe(true);
    expect(toPublicPoll(poll, NOW)).not.toHaveProperty('voterSalt');
  });

  it('keeps options apart that look different: a joined emoji family, another accent', () => {
    expect(createPoll({ ...valid, options: ['👨\u200d👩', '👨👩', 'résumé', 'resume'] }, NOW).options).toHaveLength(4);
  });

  it('counts characters, not UTF-16 units', () => {
    const emoji = '🗳'.repeat(POLL_LIMITS.titleMaxLength);
    expect(createPoll({ ...valid, title: emoji }, NOW).title).toBe(emoji);
    expect(() => createPoll({ ...valid, title: `${emoji}🗳` }, NOW)).toThrow(
      expect.objectContaining({ code: 'invalid_field' }),
    );
  });

  const refusals: Array<[string, unknown, string]> = [
    ['a non-object body', [1, 2], 'invalid_body'],
    ['null', null, 'invalid_body'],
    ['an unknown field', { ...valid, admin: true }, 'unknown_field'],
    ['a missing title', { options: valid.options }, 'invalid_field'],
    ['options that differ only by an invisible character', { ...valid, options: ['a', 'a\u200b'] }, 'invalid_field'],
    [
      'options that differ only by how an accent is written',
      { ...valid, options: ['café', 'cafe\u0301'] },
      'invalid_field',
    ],
    ['options that differ only in width', { ...valid, options: ['full', 'ｆｕｌｌ'] }, 'invalid_field'],
    ['an option of invisible characters only', { ...valid, options: ['a', '\u200b\u200e'] }, 'invalid_field'],
    ['a numeric title', { ...valid, title: 5 }, 'invalid_field'],
    ['a blank title', { ...valid, title: '   ' }, 'invalid_field'],
    ['a control character', { ...valid, title: 'a\u0000b' }, 'invalid_field'],
    ['a lone surrogate (not valid Unicode)', { ...valid, title: 'a\ud800b' }, 'invalid_field'],
    ['a lone surrogate in an option', { ...valid, options: ['a', '\udc00'] }, 'invalid_field'],
    ['one option', { ...valid, options: ['x'] }, 'invalid_field'],
    [
      'too many options',
      { ...valid, options: Array.from({ length: POLL_LIMITS.maxOptions + 1 }, (_, i) => `o${i}`) },
      'invalid_field',
    ],
    ['a too long option', { ...valid, options: ['x', 'y'.repeat(POLL_LIMITS.optionMaxLength + 1)] }, 'invalid_field'],
    ['duplicate options', { ...valid, options: ['Yes', 'yes'] }, 'invalid_field'],
    ['options as a string', { ...valid, options: 'a,b' }, 'invalid_field'],
    ['a fractional lifetime', { ...valid, lifetimeMinutes: 1.5 }, 'invalid_field'],
    ['a zero lifetime', { ...valid, lifetimeMinutes: 0 }, 'invalid_field'],
    ['a too long lifetime', { ...valid, lifetimeMinutes: POLL_LIMITS.maxLifetimeMinutes + 1 }, 'invalid_field'],
    ['a string flag', { ...valid, oneVotePerVoter: 'yes' }, 'invalid_field'],
  ];
  it.each(refusals)('refuses %s', (_, input, code) => {
    expect(() => createPoll(input, NOW)).toThrow(
      expect.objectContaining({ name: 'PollError', code, message: expect.any(String) }),
    );
  });

  it('names a refused field as the API does, or by the name it is given (a form’s label), and says which', () => {
    const label = (field: string) => `<${field}>`;
    const cases: Array<[unknown, string, string]> = [
      [{ ...valid, title: ' ' }, 'title', 'must not be empty.'],
      [{ ...valid, options: ['a', ''] }, 'options[1]', 'must not be empty.'],
      [{ ...valid, options: ['Yes', 'No', 'yes'] }, 'options[2]', 'must be different from '],
      [{ ...valid, lifetimeMinutes: 0 }, 'lifetimeMinutes', 'must be a whole number from 1 to'],
    ];
    const refusal = (input: unknown, names?: (field: string) => string) => {
      try {
        createPoll(input, NOW, undefined, names);
      } catch (error) {
        return error as PollError;
      }
      throw new Error('not refused');
    };
    for (const [input, field, rule] of cases) {
      expect(refusal(input)).toMatchObject({ code: 'invalid_field', field });
      expect(refusal(input).message.startsWith(`${field} ${rule}`)).toBe(true);
      expect(refusal(input, label).message.startsWith(`<${field}> ${rule}`)).toBe(true);
    }
    // A repeat names the option it repeats.
    expect(refusal({ ...valid, options: ['Yes', 'No', 'yes'] }).message).toBe(
      'options[2] must be different from options[0].',
    );
  });
});
