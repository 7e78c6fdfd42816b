/**
 * The curve of votes a batch (cost/estimate/rates.ts) against a simulation of one FIFO message group on a
 * clock the test controls: Poisson arrivals from a seeded generator, one batch in flight at a time, each
 * holding the group for the consumer's cycle, the next taking what arrived meanwhile (up to the batch size)
 * or the one vote that wakes an idle group. No timers: the same figures on any machine, however busy.
 */
import { describe, expect, it } from 'vitest';
import { prng } from '../../../support/prng';
import { votesPerBatch } from '../../../../sizing/vote-rates';

/** Mean votes a batch over `votes` arrivals at `perSecond`, with batches that hold the group `cycleMs`. */
function simulate(perSecond: number, batchSize: number, cycleMs: number, votes: number, seed: number): number {
  const random = prng(seed);
  let now = 0;
  let freeAt = 0;
  let waiting = 0;
  let batches = 0;
  for (let i = 0; i < votes; i++) {
    now += (-Math.log(1 - random()) * 1000) / perSecond;
    // Batches that start, one after the other, on what waited, before this vote arrives.
    while (waiting > 0 && freeAt <= now) {
      waiting -= Math.min(waiting, batchSize);
      batches++;
      freeAt += cycleMs;
    }
    if (waiting === 0 && freeAt <= now) {
      batches++;
      freeAt = now + cycleMs;
    } else waiting++;
  }
  while (waiting > 0) {
    waiting -= Math.min(waiting, batchSize);
    batches++;
  }
  return votes / batches;
}

describe('votes a batch: the curve against a simulated message group', () => {
  it.each([
    // [votes a second in the group, batch size, cycle ms]: a sparse poll, the seed's busiest minute, storms.
    [0.15, 10, 450],
    [1.2, 10, 450],
    [5, 10, 450],
    [12, 10, 250],
    [12, 10, 500],
    [2.5, 3, 400],
  ])('%s votes/s, batches of %s, %s ms a cycle: within 2%', (perSecond, batchSize, cycleMs) => {
    const simulated = simulate(perSecond, batchSize, cycleMs, 200_000, Math.round(perSecond * 1000 + cycleMs));
    const curve = votesPerBatch(perSecond, batchSize, cycleMs);
    expect(Math.abs(simulated / curve - 1), `simulated ${simulated}, curve ${curve}`).toBeLessThan(0.02);
  });

  // The curve leaves out votes a backed-up group carries into the next batch: past ~0.6 of a batch arriving
  // in a cycle it counts fewer votes a batch than there are, so the bill counts more writes, never fewer.
  it.each([
    [8, 10],
    [10, 10],
    [2, 3],
    [40, 10],
  ])('%s votes a cycle, batches of %s: the curve errs on the side of more writes', (perCycle, batchSize) => {
    const simulated = simulate(perCycle, batchSize, 1000, 100_000, perCycle);
    expect(votesPerBatch(perCycle, batchSize, 1000)).toBeLessThanOrEqual(simulated * 1.02);
    expect(simulated).toBeLessThanOrEqual(batchSize);
  });

  it('one vote a batch when votes are far apart, the batch size when they pile up', () => {
    expect(votesPerBatch(0.001, 10, 400)).toBeCloseTo(1, 3);
    expect(votesPerBatch(1000, 10, 400)).toBe(10);
    expect(simulate(1000, 10, 400, 50_000, 7)).toBeCloseTo(10, 1);
  });
});
