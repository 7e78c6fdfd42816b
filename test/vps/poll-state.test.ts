/**
 * The state's log lines: a vote's line is made field by field (the box's hot path), so it must be the very
 * line the generic encoding makes of its record, whatever its strings hold, and read back as that record.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeRecord, recordOf } from '../../vps/journal';
import { isStateRecord, voteLine, type VoteRecord } from '../../vps/poll-state';

const voteRecords = fc.record(
  { k: fc.constant('vote' as const), p: fc.string(), o: fc.integer(), at: fc.string(), id: fc.string() },
  { requiredKeys: ['k', 'p', 'o', 'at'] },
) as fc.Arbitrary<VoteRecord>;

describe("a vote's log line", () => {
  it('is the line JSON.stringify makes of its record, with or without its id, whatever its strings hold', () => {
    fc.assert(
      fc.property(voteRecords, (record) => {
        expect(voteLine(record)).toBe(encodeRecord(record));
        expect(recordOf(voteLine(record))).toEqual(record);
        expect(isStateRecord(recordOf(voteLine(record)))).toBe(true);
      }),
    );
  });

  it('escapes what JSON escapes: quotes, backslashes, control characters, lone surrogates', () => {
    const record: VoteRecord = { k: 'vote', p: 'a"b\\c', o: -3, at: '\n\u0000\ud800', id: '\u2028é' };
    expect(voteLine(record)).toBe(encodeRecord(record));
    expect(recordOf(voteLine(record))).toEqual(record);
  });
});
