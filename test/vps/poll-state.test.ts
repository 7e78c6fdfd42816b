/**
 * The state's log lines: a vote's line is made field by field (the box's hot path), so it must be the very
 * line the generic encoding makes of its record, whatever its strings hold, and read back as that record.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeRecord, recordOf } from '../../vps/journal';
import { isStateRecord, voteLine, voteRecord, type VoteRecord } from '../../vps/poll-state';

/** Any UTF-16 code unit: control characters, quotes, non-ASCII, lone surrogates. */
const anyString = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });
const anyInteger = fc.oneof(fc.maxSafeInteger(), fc.constant(-0));

const voteRecords: fc.Arbitrary<VoteRecord> = fc.record({
  k: fc.constant('vote' as const),
  p: anyString,
  o: anyInteger,
  at: anyString,
  id: fc.option(anyString, { nil: undefined }),
});

/** What a line is read back as: the record as JSON carries it (-0 is 0). */
const asJson = (record: unknown) => JSON.parse(JSON.stringify(record));

describe("a vote's log line", () => {
  it('is the line JSON.stringify makes of its record, with or without its id, whatever its strings hold', () => {
    fc.assert(
      fc.property(voteRecords, (record) => {
        const line = voteLine(record);
        expect(line).toBe(encodeRecord(record));
        expect(recordOf(line)).toEqual(asJson(record));
        expect(isStateRecord(recordOf(line))).toBe(true);
      }),
    );
  });

  it('is the generic line of the record voteRecord makes of a vote, keyed or not', () => {
    fc.assert(
      fc.property(
        anyString,
        anyString,
        anyInteger,
        anyString,
        fc.boolean(),
        (voteId, pollId, option, castAt, keyed) => {
          const record = voteRecord({ v: 1, voteId, pollId, option, castAt }, keyed);
          expect(voteLine(record)).toBe(encodeRecord(record));
        },
      ),
    );
  });

  it('escapes what JSON escapes: quotes, backslashes, control characters, lone surrogates', () => {
    const record: VoteRecord = { k: 'vote', p: 'a"b\\c', o: -3, at: '\n\u0000\ud800', id: '\u2028é' };
    expect(voteLine(record)).toBe(encodeRecord(record));
    expect(recordOf(voteLine(record))).toEqual(record);
  });
});
