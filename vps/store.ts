/**
 * The VPS edition's data folder: replay the log into memory (whatever is intact), drop expired
 * polls, compact, and from then on make every change durable through the journal.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { lockFolder } from '../node/folder-lock';
import { Journal, readLog, writeLog, type FlushMode } from './journal';
import { isStateRecord, PollState } from './poll-state';

export const LOG_FILE = 'polls.log';

export interface StoreOptions {
  dataDir: string;
  clock?: () => number;
  /** Compact when the log grows past this many bytes, or past 4x its last compacted size. */
  compactAtBytes?: number;
  onCompactionError?: (error: Error) => void;
  /** How a flush waits for the disk (journal.ts): in the background (default), or inline (a box's writer). */
  flushMode?: FlushMode;
}

export interface Store {
  state: PollState;
  journal: Journal;
  /** What the start found in the log. */
  loaded: { records: number; skipped: number; polls: number; votes: number; expiredDropped: number };
  close(): Promise<void>;
}

export async function openStore({
  dataDir,
  clock = Date.now,
  compactAtBytes = 64 * 1024 * 1024,
  onCompactionError = () => undefined,
  flushMode,
}: StoreOptions): Promise<Store> {
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockFolder(dataDir, 'npm run vps');
  const path = join(dataDir, LOG_FILE);
  const replayed = readLog(path, isStateRecord);
  const state = new PollState();
  for (const record of replayed.records) state.apply(record);
  const expiredDropped = state.sweep(clock());
  // Start from a clean, compact log: torn lines and expired polls are gone from disk too.
  writeLog(path, state.snapshot());
  const journal = await Journal.open(
    path,
    {
      due: (size, compactedSize) => size > Math.max(compactAtBytes, 4 * compactedSize),
      snapshot: () => state.snapshot(),
      failed: onCompactionError,
    },
    flushMode,
  ).catch((error: unknown) => {
    unlock();
    throw error;
  });
  state.persistWith((record, apply, line) => journal.append(record, apply, line));
  const sweeper = setInterval(() => state.sweep(clock()), 60_000);
  sweeper.unref();
  return {
    state,
    journal,
    loaded: { records: replayed.records.length, skipped: replayed.skipped, expiredDropped, ...state.size },
    async close() {
      clearInterval(sweeper);
      await journal.close();
      unlock();
    },
  };
}
