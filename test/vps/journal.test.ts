/**
 * The journal's inline flushes (the writer of a box with workers): what is appended within one turn of
 * the event loop goes in one write and one fdatasync, and each append resolves only once it is on disk.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeRecord, hex8, Journal, readLog } from '../../vps/journal';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const anything = (value: unknown): value is unknown => value !== undefined;
const never = { due: () => false, snapshot: () => [], failed: () => undefined };

/** What readLog makes of these lines in a file. */
function readLines(lines: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  folders.push(dir);
  writeFileSync(join(dir, 'polls.log'), lines.map((line) => `${line}\n`).join(''));
  return readLog(join(dir, 'polls.log'), anything);
}

it('flushes inline what one turn appended in one go, each on disk when its append resolves', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  folders.push(dir);
  const path = join(dir, 'polls.log');
  const journal = await Journal.open(path, never, 'inline');
  const onDisk = await Promise.all(
    Array.from({ length: 50 }, (_, n) => journal.append({ n }).then(() => readLog(path, anything).records.length)),
  );
  expect(onDisk).toEqual(Array(50).fill(50));
  expect(journal.stats).toMatchObject({ flushes: 1, records: 50 });
  // The next turn's appends are the next flush.
  await journal.append({ n: 50 });
  expect(journal.stats).toMatchObject({ flushes: 2, records: 51 });
  await journal.close();
  expect(readLog(path, anything)).toEqual({ records: Array.from({ length: 51 }, (_, n) => ({ n })), skipped: 0 });
});

describe('a line of the log', () => {
  it('writes a checksum as 8 hex digits, as toString(16) padded does, for every 32-bit number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (n) => {
        expect(hex8(n)).toBe(n.toString(16).padStart(8, '0'));
      }),
    );
    for (const n of [0, 1, 255, 256, 2 ** 31, 2 ** 32 - 1]) expect(hex8(n)).toBe(n.toString(16).padStart(8, '0'));
  });

  it('is read back as the record it was made from, and a line changed in any one place is not', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }), fc.nat(), (record, at) => {
        const line = encodeRecord(record);
        expect(line).toBe(`${crc32(JSON.stringify(record)).toString(16).padStart(8, '0')} ${JSON.stringify(record)}`);
        const where = at % line.length;
        const changed = line.slice(0, where) + (line[where] === '0' ? '1' : '0') + line.slice(where + 1);
        expect(readLines([line, changed])).toEqual({ records: [JSON.parse(JSON.stringify(record))], skipped: 1 });
      }),
    );
  });
});
