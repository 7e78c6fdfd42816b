/**
 * `npm run bench:batching`: the cost model's curve of votes a batch (cost/estimate/rates.ts) against the
 * local runtime's metering, at a sparse poll, the seed's busiest minute and a hot poll. A benchmark, not a
 * test: batches fill with the time a consumer cycle takes and with when votes arrive, both of which a busy
 * machine stretches, so it prints the comparison (and whether it is within 15%) and asserts nothing. The
 * tests check the curve on a clock they control (test/unit/cost/estimate/votes-per-batch.test.ts) and the metering's
 * accounting exactly (test/local/batching.test.ts).
 */
import { parseCommandLine } from '../../node/command-line';
import { VOTE_QUEUE } from '../../config/vote-queue';
import { derivePeak } from '../../cost/usage/peaks';
import { PROFILES } from '../../cost/usage/profiles';
import { benchClient } from '../api-client';
import { consumerTotals } from '../../local/metering';
import { voteRates } from '../../sizing/vote-rates';

parseCommandLine({
  command: 'npm run bench:batching --',
  summary:
    "The cost model's votes a batch, write units and SQS requests a vote against the local runtime's metering, " +
    'at three rates on one poll (about 30 s).',
  options: {},
  details: ['It prints measured beside predicted figures; nothing is asserted (these machines are shared).'],
});
// Loaded once the command line is read: the emulators take seconds, which --help need not wait.
const { startLocalRuntime } = await import('../../local/runtime');

const runtime = await startLocalRuntime({
  rateLimits: false,
  logLevel: 'SILENT',
  // Lambda scales a FIFO queue's pollers up to its active message groups: more pollers than the poll's
  // groups, so that no group waits for one.
  pollers: 2 * VOTE_QUEUE.groupsPerPoll,
  // Batches long beside the runtime's own few milliseconds a receive, so that the curve's cycle is what
  // sets how batches fill.
  faults: { slowBatchesMs: 400 },
});
const client = benchClient(runtime.url);

/** Votes on a new poll at `rate` a second (Poisson arrivals, as the curve assumes) for `seconds`; per vote. */
async function measure(rate: number, seconds: number) {
  const poll = await client.createPoll('batching', ['a', 'b', 'c']);
  const before = consumerTotals(runtime.usage());
  const started = performance.now();
  const answers: Array<Promise<number>> = [];
  let due = started;
  for (let i = 0; i < rate * seconds; i++) {
    due += (-Math.log(1 - Math.random()) * 1000) / rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    answers.push(client.post(`/api/poll/${poll}/vote`, { option: i % 3 }).then((r) => r.status));
  }
  const accepted = (await Promise.all(answers)).filter((status) => status === 202).length;
  const elapsed = (performance.now() - started) / 1000;
  await runtime.waitForDrain(30_000);
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

const stack = {
  consumer: { batchSize: VOTE_QUEUE.batchSize },
  votePath: { groupsPerPoll: VOTE_QUEUE.groupsPerPoll, counterShards: 1 },
};
const runs: Array<[string, number, number]> = [
  ['a sparse poll', 1, 4],
  ["the seed's busiest minute", derivePeak(PROFILES.seed).hottestPoll.votesPerSecond, 6],
  ['a hot poll', 20, 8],
];
try {
  for (const [name, rate, seconds] of runs) {
    const run = await measure(rate, seconds);
    // The curve is given the rate and the cycle as this run measured them.
    const curve = voteRates(run.votesPerSecond, stack, run.cycleMs);
    const keys = ['votesPerBatch', 'counterWriteUnitsPerVote', 'sqsRequestsPerVote'] as const;
    const off = Math.max(...keys.map((key) => Math.abs(run.measured[key] / curve[key] - 1)));
    const pair = (key: (typeof keys)[number]) => `${run.measured[key].toFixed(3)} (curve ${curve[key].toFixed(3)})`;
    console.log(
      `${name}, ${run.votesPerSecond.toFixed(1)} votes/s, a batch held ${run.cycleMs.toFixed(0)} ms: ` +
        `votes a batch ${pair('votesPerBatch')}, write units a vote ${pair('counterWriteUnitsPerVote')}, ` +
        `SQS requests a vote ${pair('sqsRequestsPerVote')}; at most ${(off * 100).toFixed(1)}% off` +
        (off <= 0.15 ? ' (within 15%)' : ' (MORE than 15%: a busy machine, or the curve is off; run it again)'),
    );
  }
} finally {
  await runtime.stop();
}
