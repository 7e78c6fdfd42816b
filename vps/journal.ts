/**
 * The VPS edition's durability: an append-only log on disk. A change is acknowledged only after
 * its record is written and fdatasync'd; the records that arrive while a flush is under way are
 * written together by the next one ("carpooling", applied to the disk). Each line carries a
 * CRC-32 of its record, so a torn or corrupt line is found and skipped when the log is read.
 */
import {
  closeSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  write,
  writeSync,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';

export interface Replayed<R> {
  records: R[];
  /** Lines that could not be read back: torn by a crash mid-write, or corrupt. */
  skipped: number;
}

/** Each byte's two hex digits: a number's toString(16) costs a vote a third of a microsecond. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** 8 hex digits of an unsigned 32-bit number, as `n.toString(16).padStart(8, '0')` writes them. */
export const hex8 = (n: number): string => HEX[n >>> 24] + HEX[(n >>> 16) & 255] + HEX[(n >>> 8) & 255] + HEX[n & 255];

/** One line (without its newline) of a record's JSON: 8 hex digits of its CRC-32, a space, the JSON. */
export const lineOf = (json: string): string => `${hex8(crc32(json))} ${json}`;

/** A record's line, its JSON made by JSON.stringify. */
export const encodeRecord = (record: unknown): string => lineOf(JSON.stringify(record));

/** A line's record, its checksum unchecked (encodeRecord made it in this program); undefined if not JSON. */
export function recordOf(line: string): unknown {
  try {
    return JSON.parse(line.slice(9));
  } catch {
    return undefined;
  }
}

const encode = (record: unknown): string => `${encodeRecord(record)}\n`;

/** Reads a log: every intact record in order, and how many lines were not. */
export function readLog<R>(path: string, isRecord: (value: unknown) => value is R): Replayed<R> {
  if (!existsSync(path)) return { records: [], skipped: 0 };
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  // A last line without its newline was cut short by a crash.
  const last = lines.pop()!;
  let skipped = last === '' ? 0 : 1;
  const records: R[] = [];
  for (const line of lines) {
    const match = /^([0-9a-f]{8}) (.*)$/.exec(line);
    let record: unknown;
    try {
      record = match && crc32(match[2]) === parseInt(match[1], 16) ? JSON.parse(match[2]) : undefined;
    } catch {
      record = undefined;
    }
    if (isRecord(record)) records.push(record);
    else skipped++;
  }
  return { records, skipped };
}

/**
 * Writes records as a whole new log, durably: a temporary file, fsync, rename over the old one,
 * fsync of the folder.
 */
export function writeLog(path: string, records: readonly unknown[]): number {
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w');
  let bytes = 0;
  try {
    const text = records.map(encode).join('');
    bytes = Buffer.byteLength(text);
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  const folder = openSync(dirname(path), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
  return bytes;
}

/**
 * The records of one flush: their lines, how each is applied to memory once on disk (in log order), and the
 * one promise they all wait on (a promise a record would cost a vote more than its write).
 */
interface Batch {
  lines: string[];
  applies: Array<() => void>;
  written: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

function newBatch(): Batch {
  const batch = { lines: [], applies: [] } as unknown as Batch;
  batch.written = new Promise<void>((resolve, reject) => {
    batch.resolve = resolve;
    batch.reject = reject;
  });
  return batch;
}

export interface FlushStats {
  flushes: number;
  records: number;
  /** Total time in write + fdatasync, ms. */
  flushMs: number;
}

export interface Compaction {
  /** Given the log's size now and right after its last compaction. */
  due: (size: number, compactedSize: number) => boolean;
  snapshot: () => unknown[];
  failed: (error: Error) => void;
}

/**
 * How a flush waits for the disk. `background` (one process): on libuv's threads, so the event loop serves
 * HTTP meanwhile. `inline` (the writer of a box with workers, which serves no HTTP): on its own thread, as
 * Redis's `appendfsync always` does; what the workers send meanwhile waits in the sockets and is read in one
 * go, and a flush starts once the event loop's turn has read everything that came: per flush, one write, one
 * fdatasync and one answer a worker, instead of a thread hand-off and a wake-up for each.
 */
export type FlushMode = 'background' | 'inline';

export class Journal {
  /** What the next flush writes. */
  private pending: Batch | undefined;
  private flushing = false;
  /** Inline: a flush is set for the end of this turn of the event loop. */
  private scheduled = false;
  private closed = false;
  readonly stats: FlushStats = { flushes: 0, records: 0, flushMs: 0 };

  private constructor(
    private readonly path: string,
    private handle: FileHandle,
    /** Bytes in the file now. */
    private size: number,
    /** Between flushes: whether to rewrite the log from a snapshot first, the snapshot, and who hears of a failure. */
    private readonly compaction: Compaction,
    private readonly mode: FlushMode,
  ) {
    this.compactedSize = size;
  }

  /** The file's size right after the last compaction (or when opened). */
  private compactedSize: number;

  /** After a failed compaction the log keeps growing rather than failing votes; the next start compacts it. */
  private compactionBroken = false;

  static async open(path: string, compaction: Compaction, mode: FlushMode = 'background'): Promise<Journal> {
    const handle = await open(path, 'a');
    return new Journal(path, handle, (await handle.stat()).size, compaction, mode);
  }

  /**
   * Resolves once the record is on disk and applied; rejects if it could not be written (nothing applied then).
   * `line`: the record's line, when the caller made it already (a vote's: poll-state.ts voteLine).
   */
  append(record: unknown, apply: () => void = () => undefined, line = encodeRecord(record)): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the journal is closed'));
    this.pending ??= newBatch();
    const batch = this.pending;
    batch.lines.push(`${line}\n`);
    batch.applies.push(apply);
    if (this.mode === 'background') void this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.flush();
      });
    }
    return batch.written;
  }

  /** Writes and makes durable: in the background (libuv's threads), or inline (this thread waits). */
  private async writeDurably(data: Buffer): Promise<void> {
    const fd = this.handle.fd;
    if (this.mode === 'background') {
      // node:fs's callbacks, not the FileHandle's promises: a flush's fixed cost is a vote's when flushes are small.
      for (let written = 0; written < data.length; )
        written += await new Promise<number>((resolve, reject) =>
          write(fd, data, written, data.length - written, null, (error, bytes) =>
            error ? reject(error) : resolve(bytes),
          ),
        );
      await new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
      return;
    }
    for (let written = 0; written < data.length; ) written += writeSync(fd, data, written, data.length - written);
    fdatasyncSync(fd);
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.pending) {
        // Everything applied so far is on disk, and nothing is half-applied: a safe moment to compact.
        if (!this.compactionBroken && this.compaction.due(this.size, this.compactedSize)) await this.compact();
        const batch = this.pending;
        this.pending = undefined;
        const data = Buffer.from(batch.lines.join(''));
        const started = performance.now();
        try {
          await this.writeDurably(data);
        } catch (error) {
          // Cut off whatever part of the batch reached the file, so the next batch starts on a clean line.
          await this.handle.truncate(this.size).catch(() => undefined);
          batch.reject(error as Error);
          continue;
        }
        this.size += data.length;
        this.stats.flushes++;
        this.stats.records += batch.lines.length;
        this.stats.flushMs += performance.now() - started;
        for (const apply of batch.applies) apply();
        batch.resolve();
      }
    } finally {
      this.flushing = false;
    }
  }

  private async compact(): Promise<void> {
    let size: number;
    try {
      size = writeLog(this.path, this.compaction.snapshot());
    } catch (error) {
      this.compactionBroken = true;
      this.compaction.failed(error as Error);
      return;
    }
    // The old file is gone from the folder; appends go to the new one from here.
    await this.handle.close();
    this.handle = await open(this.path, 'a');
    this.size = size;
    this.compactedSize = size;
  }

  /** Waits for what is pending, then closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.flushing || this.pending) await new Promise((r) => setTimeout(r, 5));
    await this.handle.close();
  }
}
