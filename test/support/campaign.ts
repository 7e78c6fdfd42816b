/**
 * The fault campaigns' checks, over a running local runtime: cast votes, then prove each one that
 * got a 202 is counted once, or held in the dead-letter queue, or (after a redrive) counted once.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { redrive } from '../../dlq/dead-letters';
import type { Faults } from '../../local/faults';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { api, clients, pool, voteUntilAnswered } from './local';

/**
 * A runtime for fault campaigns: redeliveries after 1 s instead of 60 s, and 2 SDK attempts per
 * call (the backoff only waits).
 */
export const CAMPAIGN_RUNTIME = {
  visibilityTimeoutSeconds: 1,
  sdkMaxAttempts: 2,
  rateLimits: false,
  logLevel: 'SILENT',
} as const;

/** A campaign runtime for the whole file (started before its tests, stopped after), with the checks bound to it. */
export function useCampaignRuntime(): { runtime: LocalRuntime; check: ReturnType<typeof campaign> } {
  const context = {} as { runtime: LocalRuntime; check: ReturnType<typeof campaign> };
  beforeAll(async () => {
    context.runtime = await startLocalRuntime(CAMPAIGN_RUNTIME);
    context.check = campaign(context.runtime);
  });
  afterAll(async () => context.runtime?.stop());
  return context;
}

export function campaign(runtime: LocalRuntime) {
  const client = api(runtime);
  let tries = 0;
  /**
   * Casts `count` ballots with bounded concurrency, each retried under its key until answered (a busy
   * machine may time a vote out after it was queued); returns the accepted (202) count per option.
   */
  async function castVotes(pollId: string, count: number, options: number): Promise<number[]> {
    const accepted = new Array(3).fill(0); // test polls have 3 options; votes go to the first `options`
    await pool(count, 50, async (i) => {
      const res = await voteUntilAnswered(() => runtime, { pollId, option: i % options, key: `ballot-${i}` });
      tries += res.tries;
      if (res.status === 202) accepted[i % options]++;
      else throw new Error(`vote refused: ${res.status} ${JSON.stringify(res.json)}`);
    });
    return accepted;
  }

  /** Votes of a poll held in the dead-letter queue (kept, not lost: a redrive counts them). */
  async function deadLettered(pollId: string): Promise<number[]> {
    const dlqName = runtime.resources.deadLetterQueueUrl.split('/').pop()!;
    const held = new Array(3).fill(0);
    const messages = runtime.queueBodies(dlqName);
    for (const body of messages) {
      try {
        const vote = JSON.parse(body);
        if (vote.pollId === pollId) held[vote.option]++;
      } catch {
        // poison, not a vote
      }
    }
    return held;
  }

  /**
   * Every accepted vote is counted once, or (after maxReceiveCount failures) kept in the DLQ;
   * never lost, never doubled.
   */
  async function expectConserved(pollId: string, accepted: number[]): Promise<{ counted: number[]; held: number[] }> {
    await runtime.waitForDrain(90_000);
    const results = (await client.results(pollId)).json;
    const held = await deadLettered(pollId);
    expect(results.counts.map((n: number, i: number) => n + held[i])).toEqual(accepted);
    expect(results.total).toBe(results.counts.reduce((a: number, b: number) => a + b, 0));
    return { counted: results.counts, held };
  }

  async function expectExactCounts(pollId: string, accepted: number[]): Promise<void> {
    const { held } = await expectConserved(pollId, accepted);
    expect(held).toEqual([0, 0, 0]);
  }

  /**
   * Dead-letters what can be redriven (`npm run dlq -- redrive`) and waits for it to be counted.
   * What stays is what the consumer never saw on a last delivery (SQS moved it untouched): it may
   * have been counted by an earlier delivery whose acknowledgement was lost, so it is left for a
   * person. What holds: the table never counts a vote twice, and no vote is lost.
   */
  async function expectExactAfterRedrive(
    pollId: string,
    accepted: number[],
    label: string,
    exact: boolean,
  ): Promise<void> {
    await runtime.waitForDrain(90_000);
    const heldBefore = await deadLettered(pollId);
    const result = await redrive({
      sqs: clients(runtime).sqs,
      voteQueueUrl: runtime.resources.voteQueueUrl,
      deadLetterQueueUrl: runtime.resources.deadLetterQueueUrl,
    });
    await runtime.waitForDrain(90_000);
    const counted = (await client.results(pollId)).json.counts as number[];
    const held = await deadLettered(pollId);
    const kept = result.kept.filter((j) => j.vote?.pollId === pollId).map((j) => j.verdict);
    console.log(
      `${label}: accepted ${accepted}, dead-lettered ${heldBefore}, ` +
        `after the redrive counted ${counted} and left ${held} ` +
        `(${kept.length} ${[...new Set(kept)].join('/') || 'letters'})`,
    );
    expect(kept.filter((verdict) => verdict !== 'unknown')).toEqual([]);
    if (exact) {
      expect(
        heldBefore.some((n) => n > 0),
        'the faults should have dead-lettered some votes',
      ).toBe(true);
      expect(counted).toEqual(accepted);
      expect(held).toEqual([0, 0, 0]);
    }
    counted.forEach((n, i) => {
      expect(n).toBeLessThanOrEqual(accepted[i]);
      expect(n + held[i]).toBeGreaterThanOrEqual(accepted[i]);
    });
  }

  /** Runs `run` with faults on, and always turns them off again. */
  async function withFaults<T>(faults: Faults, run: () => Promise<T>): Promise<T> {
    Object.assign(runtime.faults, faults);
    try {
      return await run();
    } finally {
      for (const key of Object.keys(faults)) delete runtime.faults[key as keyof Faults];
    }
  }

  return {
    client,
    castVotes,
    /** Vote requests sent so far, retries included (what the runtime meters). */
    tries: () => tries,
    deadLettered,
    expectConserved,
    expectExactCounts,
    expectExactAfterRedrive,
    withFaults,
  };
}
