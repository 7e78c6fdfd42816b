/**
 * The vote consumer's ramp (cost/estimate/consumer-ramp.ts): the SQS event source from idle to a peak, on demand
 * and in provisioned mode, checked by hand, and in the record night's verdict.
 */
import { describe, expect, it } from 'vitest';
import {
  consumerRamp,
  onDemandMode,
  pollerCost,
  pollersFor,
  provisionedMode,
  rampFromIdle,
} from '../../../../cost/estimate/consumer-ramp';
import { derivePeak } from '../../../../cost/usage/peaks';
import { PROFILES } from '../../../../cost/usage/profiles';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { costReport, designStack, unwrapped } from '../../../support/cost';
import { renderDetail } from '../../../../cost/report/render-text';
import { US_EAST_1 } from '../../../support/prices';

// 10,000 votes/s, full batches of 10 every 40 ms: 250 votes/s a batch in flight, so 40 at once keep up.
const peak = { votesPerSecond: 10_000, neededConcurrency: 40, groupsOpen: 67, batchSize: 10, cycleMs: 40 };

describe('the event source from idle', () => {
  it('on demand: from 5 batches, 300 more a minute, the backlog it leaves and how far results lag', () => {
    const ramp = rampFromIdle(peak, onDemandMode(peak.groupsOpen));
    // (40 - 5) x 60 / 300 = 7 s to keep up.
    expect(ramp.reachSeconds).toBe(7);
    // A second at a time: 10,000 arrive, (5 + 5t) x 250 drain; the backlog grows while that is short of 10,000.
    let backlog = 0;
    let most = 0;
    for (let t = 1; t <= 60; t++) {
      backlog = Math.max(0, backlog + 10_000 - (5 + 5 * t) * 250);
      most = Math.max(most, backlog);
    }
    expect(ramp.backlogPeak).toBeCloseTo(most, 6);
    expect(ramp.backlogPeak).toBeGreaterThan(0);
    expect(ramp.drainedSeconds).toBeGreaterThan(ramp.reachSeconds);
    expect(ramp.maxLagSeconds).toBeGreaterThan(0);
  });

  it('provisioned: from 10 a poller, 1,000 more a minute, sooner; enough pollers kept meet it at once', () => {
    const min = rampFromIdle(peak, provisionedMode(2, peak.groupsOpen));
    // (40 - 20) x 60 / 1,000 = 1.2 s, so 2 s.
    expect(min.reachSeconds).toBe(2);
    expect(min.backlogPeak).toBeLessThan(rampFromIdle(peak, onDemandMode(peak.groupsOpen)).backlogPeak);
    expect(pollersFor(40)).toBe(4);
    expect(rampFromIdle(peak, provisionedMode(4, peak.groupsOpen))).toMatchObject({ reachSeconds: 0, backlogPeak: 0 });
    // 4 pollers x $0.00925 an hour; 720 hours a month.
    expect(pollerCost(4, US_EAST_1).usdPerHour).toBeCloseTo(0.037, 9);
    expect(pollerCost(4, US_EAST_1).usdPerMonth).toBeCloseTo(0.037 * 720, 9);
  });

  it('never drains past the groups the queue has: one batch in flight each', () => {
    const starved = rampFromIdle({ ...peak, groupsOpen: 30 }, onDemandMode(30));
    expect(starved.drainedSeconds).toBeUndefined();
  });
});

describe('in the verdict', () => {
  it('is none where the first batches carry the peak (the seed), and in the record night’s words', () => {
    expect(consumerRamp(designStack(), derivePeak(PROFILES.seed), DEFAULT_UNIT_COSTS, US_EAST_1)).toBeUndefined();
    const night = costReport({ profile: 'record-night' });
    const ramp = night.consumerRamp!;
    // 49,800 votes/s need 49,800 x 40 / (10 x 1,000) = 199.2 batches at once: 39 s on demand.
    expect(ramp.peak.neededConcurrency).toBeCloseTo(199.2, 6);
    expect(ramp.onDemand.reachSeconds).toBe(39);
    expect(ramp.provisionedReady.pollers).toBe(20);
    expect(unwrapped(renderDetail(night))).toContain(
      'The vote consumer (the SQS event source) needs 199 batches at once for 49,800 votes/s. On demand (as ' +
        'deployed) it starts at 5 and adds 300 a minute: there after 39 s;',
    );
  });
});
