/**
 * The vote path's accounting against the local runtime's metering, exactly: what the cost model charges a
 * batch and a vote (cost/estimate/rates.ts: a SendMessage a vote, a receive and a batch delete a batch, one
 * counter write a poll a batch) is what the runtime metered, whatever the batches held. How full batches get
 * depends on timing, so it is checked on a clock the test controls
 * (test/unit/cost/estimate/votes-per-batch.test.ts) and measured against this runtime by a benchmark
 * (npm run bench:batching), never asserted here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOTE_QUEUE } from '../../config/vote-queue';
import { SQS_REQUESTS_PER_BATCH } from '../../config/vote-rates';
import { consumerTotals } from '../../local/metering';
import { type LocalRuntime, startLocalRuntime } from '../../local/runtime';
import { api } from '../support/local';
import { counterWriteUnits, voteRates } from '../../sizing/vote-rates';

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    rateLimits: false,
    logLevel: 'SILENT',
    pollers: 2 * VOTE_QUEUE.groupsPerPoll,
    // A consumer slower than the votes arrive, so that batches hold several votes and the fold shows.
    faults: { slowBatchesMs: 400 },
  });
});
afterAll(async () => runtime?.stop());

const stack = {
  consumer: { batchSize: VOTE_QUEUE.batchSize },
  votePath: { groupsPerPoll: VOTE_QUEUE.groupsPerPoll, counterShards: 1 },
};

describe("the vote path's accounting, as the runtime meters it", () => {
  it('a send a vote, a receive and a delete a batch, a counter write a batch: as the model charges', async () => {
    const client = api(runtime);
    const poll = await client.createPoll();
    const before = consumerTotals(runtime.usage());
    const votes = 60;
    const statuses = await Promise.all(Array.from({ length: votes }, (_, i) => client.vote(poll.id, i % 3)));
    expect(statuses.map((r) => r.status)).toEqual(Array(votes).fill(202));
    await runtime.waitForDrain(30_000);
    expect((await client.results(poll.id)).json.total).toBe(votes);

    const after = consumerTotals(runtime.usage());
    const batches = after.batches - before.batches;
    // Sixty votes at once on a consumer that holds each batch 400 ms: batches fold votes, within the batch size.
    expect(batches).toBeLessThan(votes);
    expect(batches).toBeGreaterThanOrEqual(Math.ceil(votes / VOTE_QUEUE.batchSize));
    expect(after.sqsRequests - before.sqsRequests).toBe(votes + SQS_REQUESTS_PER_BATCH * batches);
    expect(after.writeUnits - before.writeUnits).toBe(batches * counterWriteUnits(stack.votePath));

    // The model, given the votes a batch this run had, charges per vote what was metered per vote.
    const model = voteRates(0, stack, 0, { votesPerBatch: votes / batches });
    expect(model.sqsRequestsPerVote).toBeCloseTo((after.sqsRequests - before.sqsRequests) / votes, 9);
    expect(model.counterWriteUnitsPerVote).toBeCloseTo((after.writeUnits - before.writeUnits) / votes, 9);
  });
});
