/**
 * The threads design of `npm run bench:writers` (./writer-designs.ts): each HTTP thread hands its votes' lines to
 * one writer thread through a ring of bytes in shared memory, and learns from the ring how far they are on disk. A
 * ring's control holds two positions, bytes from its start modulo 2^32: written by its thread, on disk. A ring's
 * size is a power of two, so it divides 2^32 and a position's place in the ring survives the wrap.
 */
import { fdatasyncSync, openSync, writeSync } from 'node:fs';
import { NamedError } from '../config/errors';

/** A ring's default size: at 90 bytes a line, over 11,000 votes waiting for one flush. */
export const RING_BYTES = 1 << 20;
const [WRITTEN, ON_DISK] = [0, 1];

export interface Ring {
  control: SharedArrayBuffer;
  bytes: SharedArrayBuffer;
}

/** A vote the ring has no room for: not written, not acknowledged (its client is told to retry). */
export class RingFull extends NamedError {
  override readonly name: string = 'RingFull';
  constructor(options?: ErrorOptions) {
    super('The writer is behind: the ring is full.', options);
  }
}

export const isRingSize = (bytes: number): boolean => Number.isInteger(Math.log2(bytes)) && bytes >= 256;

export const newRing = (bytes = RING_BYTES): Ring => ({
  control: new SharedArrayBuffer(8),
  bytes: new SharedArrayBuffer(bytes),
});

/** Whether position `at` has reached `mark` (both modulo 2^32, less than 2^31 apart). */
const reached = (at: number, mark: number) => ((at - mark) | 0) >= 0;

const view = (ring: Ring) => {
  const control = new Int32Array(ring.control);
  return { control, bytes: new Uint8Array(ring.bytes), load: (at: number) => Atomics.load(control, at) >>> 0 };
};

/**
 * The writer thread: takes what every ring holds, writes it, fdatasyncs, and tells each ring that gave some how far
 * it is on disk; with nothing to take, it sleeps until a thread rings the doorbell.
 */
export function writeRings(rings: Ring[], doorbell: Int32Array, path: string): never {
  const fd = openSync(path, 'a');
  const views = rings.map(view);
  for (;;) {
    // Cleared before the scan: a thread that writes after it rings again, so the wait below returns at once.
    Atomics.store(doorbell, 0, 0);
    const parts: Uint8Array[] = [];
    const written = views.map(({ bytes, load }) => {
      const [from, to] = [load(ON_DISK), load(WRITTEN)];
      const [start, end] = [from % bytes.length, to % bytes.length];
      if (from !== to)
        parts.push(...(start < end ? [bytes.subarray(start, end)] : [bytes.subarray(start), bytes.subarray(0, end)]));
      return to;
    });
    if (parts.length === 0) {
      Atomics.wait(doorbell, 0, 0);
      continue;
    }
    const data = Buffer.concat(parts);
    for (let done = 0; done < data.length; ) done += writeSync(fd, data, done);
    fdatasyncSync(fd);
    views.forEach(({ control, load }, i) => {
      if (load(ON_DISK) === written[i]) return;
      Atomics.store(control, ON_DISK, written[i]);
      Atomics.notify(control, ON_DISK);
    });
  }
}

/**
 * An HTTP thread's end of its ring: a line in, the writer woken if it sleeps (once a turn of the event loop), and
 * a promise that resolves once the line is on disk, or rejects with RingFull if it does not fit.
 */
export function ringSender(ring: Ring, doorbell: Int32Array): (line: string) => Promise<void> {
  const { control, bytes, load } = view(ring);
  const encoder = new TextEncoder();
  const waiting: Array<{ end: number; resolve: () => void }> = [];
  let [head, watching, ringing] = [0, false, false];
  /** Resolves what is on disk, then waits (without blocking) for the writer to move the mark it just read. */
  const settle = () => {
    const onDisk = load(ON_DISK);
    let done = 0;
    while (done < waiting.length && reached(onDisk, waiting[done].end)) waiting[done++].resolve();
    waiting.splice(0, done);
    watching = waiting.length > 0;
    if (!watching) return;
    const wait = Atomics.waitAsync(control, ON_DISK, onDisk | 0);
    if (wait.async) void wait.value.then(settle);
    else settle();
  };
  return (line) => {
    const encoded = encoder.encode(`${line}\n`);
    if (((head - load(ON_DISK)) >>> 0) + encoded.length > bytes.length) return Promise.reject(new RingFull());
    const at = head % bytes.length;
    const fits = Math.min(encoded.length, bytes.length - at);
    bytes.set(encoded.subarray(0, fits), at);
    bytes.set(encoded.subarray(fits), 0);
    head = (head + encoded.length) >>> 0;
    Atomics.store(control, WRITTEN, head);
    const written = new Promise<void>((resolve) => waiting.push({ end: head, resolve }));
    if (!ringing) {
      ringing = true;
      setImmediate(() => {
        ringing = false;
        if (Atomics.compareExchange(doorbell, 0, 0, 1) === 0) Atomics.notify(doorbell, 0);
      });
    }
    if (!watching) settle();
    return written;
  };
}
