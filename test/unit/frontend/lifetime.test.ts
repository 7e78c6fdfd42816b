/** The create form's lifetime: minutes, hours or days, as the API's whole minutes (frontend/src/lifetime.ts). */
import { describe, expect, it } from 'vitest';
import { POLL_LIMITS } from '../../../config/api-contract';
import { PollError } from '../../../domain/errors';
import { createPoll } from '../../../domain/poll';
import { duration, inUnits, LIFETIME_RULE, PRESETS, toMinutes, UNITS } from '../../../frontend/src/lifetime';

const [minute, hour, day] = UNITS.map((u) => u.minutes);
/** What the API says of a lifetime: taken, or refused (naming the field the form marks). */
const apiTakes = (lifetimeMinutes: number) => {
  try {
    createPoll({ title: 'T', options: ['a', 'b'], lifetimeMinutes }, 0);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(PollError);
    expect((error as PollError).field).toBe('lifetimeMinutes');
    return false;
  }
};

describe('toMinutes', () => {
  it.each([
    ['2', hour, 120],
    ['1.5', hour, 90],
    // 1.1 × 60 is 66.00000000000001 in floating point: still 66 minutes.
    ['1.1', hour, 66],
    ['0.1', hour, 6],
    [' 7 ', day, 7 * day],
    ['45', minute, 45],
  ])('%s of a unit of %i minutes is %i minutes', (amount, unit, minutes) => {
    expect(toMinutes(amount, unit)).toBe(minutes);
    expect(apiTakes(minutes)).toBe(true);
  });

  it('leaves what is no whole number of minutes for the API to refuse', () => {
    expect(toMinutes('1.5', minute)).toBe(1.5);
    expect(toMinutes('0.01', day)).toBeCloseTo(14.4);
    for (const amount of ['', '  ', 'abc']) expect(toMinutes(amount, hour)).toBeNaN();
    for (const [amount, unit] of [
      ['1.5', minute],
      ['0.01', day],
      ['', hour],
      ['0', minute],
      ['-1', hour],
    ] as const)
      expect(apiTakes(toMinutes(amount, unit)), `${amount} × ${unit}`).toBe(false);
  });

  it('takes the API’s whole range and nothing past either end', () => {
    const { minLifetimeMinutes: min, maxLifetimeMinutes: max } = POLL_LIMITS;
    expect(apiTakes(toMinutes(String(min), minute))).toBe(true);
    expect(apiTakes(toMinutes(String(max / day), day))).toBe(true);
    expect(apiTakes(toMinutes(String(max + 1), minute))).toBe(false);
    expect(apiTakes(toMinutes(String(min - 1), minute))).toBe(false);
  });
});

describe('inUnits and duration', () => {
  it('write whole minutes in the largest unit that holds them whole', () => {
    expect(inUnits(90)).toEqual({ amount: 90, unit: UNITS[0] });
    expect(inUnits(120)).toEqual({ amount: 2, unit: UNITS[1] });
    expect(inUnits(POLL_LIMITS.maxLifetimeMinutes)).toEqual({
      amount: POLL_LIMITS.maxLifetimeMinutes / day,
      unit: UNITS[2],
    });
    expect(PRESETS.map(duration)).toEqual(['5 minutes', '30 minutes', '1 hour', '1 day', '7 days']);
  });

  it('round-trip: a lifetime written in units reads back as the same minutes', () => {
    for (const minutes of [...PRESETS, 1, 59, 61, 90, 1441, POLL_LIMITS.defaultLifetimeMinutes]) {
      const { amount, unit } = inUnits(minutes);
      expect(toMinutes(String(amount), unit.minutes)).toBe(minutes);
    }
  });

  it('say the API’s range in the form’s units, from its limits', () => {
    expect(LIFETIME_RULE).toBe(
      `from ${duration(POLL_LIMITS.minLifetimeMinutes)} to ${duration(POLL_LIMITS.maxLifetimeMinutes)}, ` +
        'in whole minutes',
    );
    expect(LIFETIME_RULE).toBe('from 1 minute to 7 days, in whole minutes');
    expect(PRESETS.every(apiTakes)).toBe(true);
  });
});
