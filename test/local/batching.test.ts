/**
 * The cost model's curve of writes, invocations and queue requests a vote (cost/estimate/rates.ts) against
 * the local runtime's metering, at three rates on one poll: a sparse poll, the seed's busiest
 * minute, and a hot poll whose message groups get votes faster than a batch takes. The curve is
 * given the rate and the time a batch held its groups, both as the run measured them; what it
 * predicts (votes a batch, write units and SQS requests a vote) must be within 15% of what the run
 * metered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOTE_QUEUE } from '../../config/app-config';
import { derivePeak } from '../../cost/usage/peaks';
import { PROFILES } from '../../cost/usage/profiles';
import { voteRates } from '../../cost/estimate/rates';
import type { Usage } from '../../local/metering';
import { type LocalRuntime, startLocalRuntime } from '../../local/runtime';
import { api } from '../support/local';
import { prng } from '../support/prng';

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    rateLimits: false,
    logLevel: 'SILENT',
    // Lambda scales a FIFO queue's pollers up to its active message groups: more pollers than the poll's 4
    // groups, so that no group waits for one.
    pollers: 2 * VOTE_QUEUE.groupsPerPoll,
    // Batches long beside the runtime's own few milliseconds a receive (more on a busy machine, and not in
    // the time a batch holds its groups), so that the curve's cycle is what sets how batches fill.
    faults: { slowBatchesMs: 400 },
  });
});
afterAll(async () => runtime?.stop());

/** The consumer's and the queue's metered totals. */
function consumerTotals(usage: Usage) {
  const consumer = Object.entries(usage.functions).find(([name]) => /countvotes/i.test(name))?.[1];
  const queues = Object.values(usage.queues);
  return {
    batches: consumer?.invocations ?? 0,
    heldMs: consumer?.batchHeldMs ?? 0,
    writeUnits: Object.values(usage.tables).reduce((sum, t) => sum + (t.unitsByAction.UpdateItem ?? 0), 0),
    sqsRequests: queues.reduce((sum, q) => sum + q.billedRequests - q.emptyReceives, 0),
  };
}

/** Votes on a new poll at `rate` a second for `seconds`, counted; what the run metered, per vote. */
async function measure(rate: number, seconds: number) {
  const client = api(runtime);
  const poll = await client.createPoll();
  const before = consumerTotals(runtime.usage());
  const started = performance.now();
  const answers: Array<Promise<number>> = [];
  // Voters arrive at random (a Poisson stream, as the curve assumes; seeded, so a run can be replayed), each on
  // a schedule: a vote's answer does not hold the next one back.
  const random = prng(Math.round(rate * 1000));
  let due = started;
  for (let i = 0; i < rate * seconds; i++) {
    due += (-Math.log(1 - random()) * 1000) / rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    answers.push(client.vote(poll.id, i % 3).then((r) => r.status));
  }
  const accepted = (await Promise.all(answers)).filter((status) => status === 202).length;
  const elapsed = (performance.now() - started) / 1000;
  await expect.poll(async () => (await client.results(poll.id)).json.total, { timeout: 30_000 }).toBe(accepted);
  const after = consumerTotals(runtime.usage());
  const batches = after.batches - before.batches;
  return {
    votesPerSecond: accepted / elapsed,
    cycleMs: (after.heldMs - before.heldMs) / batches,
    measured: {
      votesPerBatch: accepted / batches,
      counterWriteUnitsPerVote: (after.writeUnits - before.writeUnits) / accepted,
      sqsRequestsPerVote: (after.sqsRequests - before.sqsRequests) / accepted,
    },
  };
}

const stack = { consumer: { batchSize: VOTE_QUEUE.batchSize }, votePath: { groupsPerPoll: 4, counterShards: 1 } };

describe('the curve of writes a vote, against the metering', () => {
  it.each([
    ['a sparse poll', 1, 4],
    ["the seed's busiest minute", derivePeak(PROFILES.seed).hottestPoll.votesPerSecond, 6],
    ['a hot poll', 20, 8],
  ])('%s: within 15%', async (name, rate, seconds) => {
    const run = await measure(rate, seconds);
    const curve = voteRates(run.votesPerSecond, stack, run.cycleMs);
    const pair = (key: keyof typeof run.measured) => `${run.measured[key].toFixed(3)} (curve ${curve[key].toFixed(3)})`;
    console.log(
      `${name}, ${run.votesPerSecond.toFixed(1)} votes/s: votes a batch ${pair('votesPerBatch')}, write units a vote ` +
        `${pair('counterWriteUnitsPerVote')}, SQS requests a vote ${pair('sqsRequestsPerVote')}`,
    );
    for (const key of ['votesPerBatch', 'counterWriteUnitsPerVote', 'sqsRequestsPerVote'] as const)
      expect(Math.abs(run.measured[key] / curve[key] - 1), `${key}: ${JSON.stringify(run)}`).toBeLessThanOrEqual(0.15);
    // The hot poll's batches fill: it is where the curve leaves one write a vote.
    if (rate >= 20) expect(run.measured.votesPerBatch).toBeGreaterThan(1.5);
  });
});
