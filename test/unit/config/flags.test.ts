/**
 * The stack's flags (config/flags.ts): each read the same as CDK context (lib/context.ts) and as a command's
 * option (node/server-options.ts), told in the same words but for the flag's name and cdk's example; the rate
 * flags' bounds.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../domain/errors';
import { type Flag, FLAGS } from '../../../config/flags';
import { fromContext } from '../../../lib/context';
import { fromOption } from '../../../node/server-options';
import { MAX_HOT_POLL_VOTES_PER_SECOND } from '../../../config/vote-path';

const ALL: Flag<unknown>[] = Object.values(FLAGS);
const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const messageOf = (read: () => unknown): string => {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no error');
};

describe('every flag', () => {
  it.each(ALL)('$name: its option is its key in kebab case', (flag) => {
    expect(flag.option).toBe(kebab(flag.name));
  });

  it.each(ALL)('$name: a wrong value is told in one sentence either way', (flag) => {
    const context = messageOf(() => fromContext(flag, 'bogus'));
    const option = messageOf(() => fromOption(flag, 'bogus'));
    const said = `${flag.mustBe} (got "bogus")`;
    expect(context).toBe(`${flag.name} ${said}${flag.example ? `; e.g. npx cdk synth ${flag.example}` : ''}`);
    expect(option).toBe(`--${flag.option} ${said}.`);
  });

  it.each(ALL.filter((flag) => flag.example !== undefined))('$name: its example is a value it takes', (flag) => {
    const [, value] = new RegExp(`-c ${flag.name}=(\\S+)`).exec(flag.example ?? '') ?? [];
    expect(value).toBeDefined();
    expect(() => fromContext(flag, value)).not.toThrow();
  });
});

describe('-c hotPollVotesPerSecond / --hot-poll-votes-per-second', () => {
  const flag = FLAGS.hotPollVotesPerSecond;
  it.each([undefined, null, '', 'off'])('reads %j as no flag', (value) => {
    expect(fromContext(flag, value)).toBeUndefined();
  });
  it.each([
    ['1', 1],
    [50_000, 50_000],
    [String(MAX_HOT_POLL_VOTES_PER_SECOND), MAX_HOT_POLL_VOTES_PER_SECOND],
  ])('accepts %j', (value, expected) => {
    expect(fromContext(flag, value)).toBe(expected);
  });
  it.each(['0', '-5', '1.5', 'lots', String(MAX_HOT_POLL_VOTES_PER_SECOND + 1), '1000000'])(
    'refuses %j with the valid range named',
    (value) => {
      expect(() => fromContext(flag, value)).toThrow(/from 1 to 70,000 .*or off/);
      expect(() => fromOption(flag, value)).toThrow(/^--hot-poll-votes-per-second must .*from 1 to 70,000 .*or off/);
    },
  );
});

describe('-c apiRateLimit / --api-rate-limit', () => {
  it.each(['0', '-1', '2.5', 'fast', '1000001'])('refuses %j with the range named', (value) => {
    expect(() => fromContext(FLAGS.apiRateLimit, value)).toThrow(
      /^apiRateLimit must be a whole number .* from 1 to 1,000,000/,
    );
  });
  it.each([
    [undefined, undefined],
    ['off', undefined],
    ['20000', 20_000],
  ])('reads %j', (value, expected) => {
    expect(fromContext(FLAGS.apiRateLimit, value)).toBe(expected);
    expect(fromOption(FLAGS.apiRateLimit, value)).toBe(expected);
  });
});

describe('-c rateLimits / --rate-limits and -c retainData: on or off, nothing else', () => {
  it.each([
    ['rateLimits', undefined, true],
    ['rateLimits', 'off', false],
    ['rateLimits', false, false],
    ['rateLimits', 'on', true],
    ['retainData', undefined, false],
    ['retainData', 'true', true],
    ['retainData', true, true],
    ['retainData', 'false', false],
  ] as const)('%s reads %j as %j', (name, value, expected) => {
    expect(fromContext(FLAGS[name], value)).toBe(expected);
  });
  // A typo used to leave the limits on (anything but off) or the data unkept (anything but true), silently.
  it.each(['of', 'no', '0', ''])('refuses %j', (value) => {
    expect(() => fromContext(FLAGS.rateLimits, value)).toThrow(/rateLimits must be "on" or "off"/);
    expect(() => fromContext(FLAGS.retainData, value)).toThrow(/retainData must be "true" or "false"/);
  });
});
