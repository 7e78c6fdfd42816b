import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../../domain/time';

/** The range a Date holds: ±8.64e15 ms around 1970. */
const MAX = 8.64e15;

describe('isoTime', () => {
  it('writes any instant as toISOString does, in any order (each second made again or reused)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: -MAX, max: MAX }), fc.double({ min: -MAX, max: MAX, noNaN: true })), {
          minLength: 1,
        }),
        fc.integer({ min: 0, max: 3_000 }),
        (instants, step) => {
          // Runs of close instants as a busy server makes them, and far ones between.
          for (const start of instants)
            for (const ms of [start, start + step, start + 1, start - 1])
              if (Math.abs(ms) <= MAX) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
        },
      ),
    );
  });

  it("writes the edges as toISOString does: before 1970, past year 9999, a second's first and last ms", () => {
    for (const ms of [0, -1, -1000, -1001, 999, 1000, 253402300800000, MAX, -MAX, 1_764_158_240_999, 0.9, -0.9])
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('refuses what toISOString refuses', () => {
    for (const ms of [Number.NaN, MAX + 1, -MAX - 1, Number.POSITIVE_INFINITY])
      expect(() => isoTime(ms)).toThrow(RangeError);
  });
});
