/**
 * The ring an HTTP thread hands its lines to the writer thread through (bench:writers' threads design): a line's
 * promise resolves only once the writer says it is on disk, a line with no room is refused and not written, and a
 * line that reaches the ring's end goes on at its start. The writer is played by the test: it moves the mark.
 */
import { describe, expect, it } from 'vitest';
import { newRing, ringSender } from '../../vps/shared-ring';

const turn = () => new Promise((resolve) => setImmediate(resolve));

function ringOf(bytes: number) {
  const ring = newRing(bytes);
  const doorbell = new Int32Array(new SharedArrayBuffer(4));
  const control = new Int32Array(ring.control);
  const settled: string[] = [];
  const send = ringSender(ring, doorbell);
  return {
    doorbell,
    text: () => Buffer.from(ring.bytes).toString('latin1'),
    /** The writer: everything up to `position` is on disk. */
    onDisk: (position: number) => {
      Atomics.store(control, 1, position);
      Atomics.notify(control, 1);
    },
    settled,
    send: (line: string) =>
      send(line).then(
        () => void settled.push(line),
        (error: Error) => void settled.push(`${line}: ${error.name}`),
      ),
  };
}

describe('a shared ring', () => {
  it('resolves a line only once the writer has it on disk, in order, and rings the writer once a turn', async () => {
    const ring = ringOf(256);
    void ring.send('a'.repeat(49));
    void ring.send('b'.repeat(49));
    expect(ring.doorbell[0]).toBe(0);
    await turn();
    expect([ring.doorbell[0], ring.settled]).toEqual([1, []]);
    ring.onDisk(49); // half the first line: not yet
    await turn();
    expect(ring.settled).toEqual([]);
    ring.onDisk(50);
    await turn();
    expect(ring.settled).toEqual(['a'.repeat(49)]);
    ring.onDisk(100);
    await turn();
    expect(ring.settled).toEqual(['a'.repeat(49), 'b'.repeat(49)]);
  });

  it('refuses a line with no room (nothing of it written), and wraps the next at the end of the ring', async () => {
    const ring = ringOf(256);
    void ring.send('a'.repeat(199)); // bytes 0-199
    void ring.send('b'.repeat(99)); // 100 more than the 56 left: refused
    await turn();
    expect(ring.settled).toEqual([`${'b'.repeat(99)}: RingFull`]);
    expect(ring.text().slice(200)).toBe('\0'.repeat(56));
    ring.onDisk(200);
    void ring.send('c'.repeat(99)); // bytes 200-299: 56 at the end, 44 at the start
    ring.onDisk(300);
    await turn();
    expect(ring.settled).toEqual([`${'b'.repeat(99)}: RingFull`, 'a'.repeat(199), 'c'.repeat(99)]);
    expect(ring.text().slice(200) + ring.text().slice(0, 44)).toBe(`${'c'.repeat(99)}\n`);
  });
});
