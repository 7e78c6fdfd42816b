/**
 * Where bench:vps runs a worker count and its load generator, and which of them bound a run: the server on a box's
 * worth of cores, the load generator on the rest, both on every core where the machine has none to spare.
 */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { limitOf, ownCores, placementOf } from '../../../bench/vps-placement';

describe('bench:vps placement', () => {
  it('reads the cores this process may use, as the kernel lists them', () => {
    expect(ownCores('Name:\tnode\nCpus_allowed_list:\t0-1\n')).toEqual([0, 1]);
    expect(ownCores('Cpus_allowed_list:\t0,2-4,7\n')).toEqual([0, 2, 3, 4, 7]);
    // Where /proc does not say (not Linux), every core Node counts.
    expect(ownCores('')).toHaveLength(availableParallelism());
  });

  it('gives a count as many cores as a box of that many vCPUs, and the load generator the rest', () => {
    expect(placementOf(1, [0, 1])).toMatchObject({ server: [0], load: [1], shared: false });
    const sixteen = Array.from({ length: 16 }, (_, i) => i);
    expect(placementOf(4, sixteen)).toMatchObject({ server: [0, 1, 2, 3], load: sixteen.slice(4), shared: false });
  });

  it('shares every core where none is left, and says the rate is then not the server’s', () => {
    const shared = placementOf(2, [0, 1]);
    expect(shared).toMatchObject({ server: [0, 1], load: [0, 1], shared: true });
    expect(shared.says).toMatch(/what the load generator left the server/);
  });

  it('names what bound a run from the cores each side kept busy', () => {
    const own = placementOf(1, [0, 1]);
    expect(limitOf({ server: 0.97, loadGenerator: 0.5 }, own)).toBe('server');
    expect(limitOf({ server: 0.6, loadGenerator: 0.95 }, own)).toBe('load generator');
    // Neither side's cores were full: the disk's waits, or the machine's other processes.
    expect(limitOf({ server: 0.6, loadGenerator: 0.4 }, own)).toBe('other');
    const shared = placementOf(2, [0, 1]);
    expect(limitOf({ server: 1.85, loadGenerator: 0.1 }, shared)).toBe('server');
    expect(limitOf({ server: 1.2, loadGenerator: 0.7 }, shared)).toBe('load generator');
    expect(limitOf({ server: 0.5, loadGenerator: 0.4 }, shared)).toBe('other');
  });
});
