/**
 * The journal's inline flushes (the writer of a box with workers): what is appended within one turn of
 * the event loop goes in one write and one fdatasync, and each append resolves only once it is on disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Journal, readLog } from '../../vps/journal';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const anything = (value: unknown): value is unknown => value !== undefined;
const never = { due: () => false, snapshot: () => [], failed: () => undefined };

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
