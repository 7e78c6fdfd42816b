/**
 * Measured mode (cost/usage/measured.ts): a load test's metered usage becomes per-operation figures that
 * replace the model's assumptions, scaled to the profile.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MeasuredRunError, unitCostsFromUsage } from '../../../../cost/usage/measured';
import { estimate } from '../../../../cost/estimate/model';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { PROFILES } from '../../../../cost/usage/profiles';
import { billLine as line, designStack } from '../../../support/cost';
import { BILL } from '../../../support/prices';

describe('measured mode', () => {
  const usage = JSON.parse(readFileSync('test/fixtures/load-run/usage.json', 'utf8'));

  it('turns a run’s metered usage into per-operation figures', () => {
    const { units, observed } = unitCostsFromUsage(usage, 'fixture');
    expect(observed.votes).toBe(100);
    expect(units.votesPerBatch).toBeCloseTo(100 / 16, 9); // 100 votes in 16 batches
    expect(units.counterWriteUnitsPerVote).toBeCloseTo(0.2, 9); // 20 UpdateItem units / 100 votes
    expect(units.sqsRequestsPerVote).toBeCloseTo((156 - 24) / 100, 9); // billed minus empty receives
    expect(units.readUnitsPerRead).toBeCloseTo(0.5, 9); // 300 units / 600 GetItems
    expect(units.writeUnitsPerCreate).toBe(2); // 4 units / 2 BatchWrites
    expect(units.billedMs).toEqual({ createPoll: 30, getPoll: 8, castVote: 20, getResults: 6, countVotes: 30 });
    expect(units.sources.counterWriteUnitsPerVote).toContain('measured');
  });

  it('scales them to the profile', () => {
    const { units } = unitCostsFromUsage(usage, 'fixture');
    const measured = estimate(PROFILES.seed, designStack(), units, BILL);
    // Counter writes: 15 M x 0.2 + 6,000 = 3.006 M WRU at $0.625
    expect(line(measured, 'dynamoWriteUnits').usd).toBeCloseTo(3.006 * 0.625, 6);
    expect(measured.usage.invocations.countVotes).toBeCloseTo(15e6 / 6.25, 3);
  });

  it('refuses a run that queued no votes', () => {
    const noVotes = { ...usage, queues: {} };
    expect(() => unitCostsFromUsage(noVotes, 'empty')).toThrow(MeasuredRunError);
    // The defaults were not touched by the runs above: the vote path's rates stay derived from traffic.
    expect(DEFAULT_UNIT_COSTS.votesPerBatch).toBeUndefined();
  });
});
