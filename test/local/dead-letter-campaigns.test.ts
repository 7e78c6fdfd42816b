/**
 * The hard cases, beside test/local/exactly-once.test.ts: the consumer's own faults so heavy that
 * votes fail every delivery, and every fault at once, each followed by `npm run dlq -- redrive`.
 * What must hold: the table never counts a vote twice, no vote is lost, and what the redrive
 * leaves is only what nobody can know was counted (`unknown` letters, for a person).
 */
import { describe, it } from 'vitest';
import { useCampaignRuntime } from '../support/campaign';

const file = useCampaignRuntime();

describe('dead letters after a fault campaign, then a redrive', () => {
  it.each([
    [
      // 95% throttled: a write fails both SDK attempts 90% of the time, so a batch fails all 3
      // deliveries about 3 times in 4.
      'the consumer’s own faults: 95% of counter writes throttled, 20% of acknowledgements lost, ' +
        '10% of invocations crashing',
      { throttleUpdates: 0.95, failAfterApply: 0.2, crashAfterWrites: 0.1 },
      60,
      'exact after redrive',
    ],
    [
      'every fault at once: failures before and after applying, crashes after writes, throttled writes',
      { failBeforeApply: 0.1, failAfterApply: 0.1, crashAfterWrites: 0.1, throttleUpdates: 0.1 },
      400,
      'bounded after redrive',
    ],
  ] as const)('keeps every vote when %s', { timeout: 240_000 }, async (label, faults, votes, expectation) => {
    const poll = await file.check.client.createPoll();
    // Faults end with the incident; the redrive runs after it.
    const accepted = await file.check.withFaults(faults, async () => {
      const cast = await file.check.castVotes(poll.id, votes, 3);
      await file.runtime.waitForDrain(180_000);
      return cast;
    });
    await file.check.expectExactAfterRedrive(poll.id, accepted, label, expectation === 'exact after redrive');
  });
});
