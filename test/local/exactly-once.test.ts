/**
 * End to end over HTTP against the local runtime: every vote accepted with a 202 is counted
 * exactly once, also when the consumer fails records, crashes after its writes, has its writes
 * throttled, or meets a poison message. (With every fault at once and a redrive after it:
 * test/local/dead-letter-campaigns.test.ts, which runs beside this file.)
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { useCampaignRuntime } from '../support/campaign';
import { clients } from '../support/local';

const file = useCampaignRuntime();

describe('exactly once, end to end', () => {
  it('counts 1,000 concurrent votes exactly', async () => {
    const poll = await file.check.client.createPoll();
    const accepted = await file.check.castVotes(poll.id, 1000, 3);
    await file.check.expectExactCounts(poll.id, accepted);
  });

  // Before-apply failures may dead-letter records (never applied): counted + held = accepted.
  // Post-write faults are transient, so those runs must be exact with nothing dead-lettered.
  it.each([
    // Each failure holds its FIFO group for the 1 s visibility timeout: the row's time is that waiting.
    ['the consumer fails 20% of records before applying them', { failBeforeApply: 0.2 }, 300, 3, 'conserved'],
    ['20% of records are reported failed after they were applied', { failAfterApply: 0.2 }, 500, 3, 'exact'],
    ['invocations crash after their writes and whole batches come back', { crashAfterWrites: 0.3 }, 300, 2, 'exact'],
    [
      '30% of counter writes are throttled (beyond the SDK’s own retries)',
      { throttleUpdates: 0.3 },
      300,
      3,
      'conserved',
    ],
  ] as const)('keeps every vote when %s', { timeout: 240_000 }, async (label, faults, votes, options, expectation) => {
    const poll = await file.check.client.createPoll();
    await file.check.withFaults(faults, async () => {
      const accepted = await file.check.castVotes(poll.id, votes, options);
      if (expectation === 'exact') return file.check.expectExactCounts(poll.id, accepted);
      const { counted, held } = await file.check.expectConserved(poll.id, accepted);
      console.log(`${label}: accepted ${accepted}, counted ${counted}, dead-lettered ${held}`);
    });
  });

  it('moves a poison message to the dead-letter queue, where the alarm sees it; counts the rest', async () => {
    const poll = await file.check.client.createPoll();
    const { sqs } = clients(file.runtime);
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: file.runtime.resources.voteQueueUrl,
        MessageBody: '{"this is": "not a vote"}',
        MessageGroupId: `${poll.id}.0`,
        MessageDeduplicationId: 'poison-1',
      }),
    );
    const dlqName = file.runtime.resources.deadLetterQueueUrl.split('/').pop()!;
    const dlqBefore = file.runtime.queueDepths()[dlqName];
    const accepted = await file.check.castVotes(poll.id, 40, 3);
    await file.check.expectExactCounts(poll.id, accepted);
    // The DLQ alarm fires on ApproximateNumberOfMessagesVisible > 0 of this queue.
    expect(file.runtime.queueDepths()[dlqName]).toBe(dlqBefore + 1);
    expect(file.runtime.queueBodies(dlqName)).toContain('{"this is": "not a vote"}');
  });

  it('meters what AWS would bill for its own votes', async () => {
    const queueName = file.runtime.resources.voteQueueUrl.split('/').pop()!;
    const before = file.runtime.usage();
    const triesBefore = file.check.tries();
    const poll = await file.check.client.createPoll();
    const accepted = await file.check.castVotes(poll.id, 50, 3);
    await file.check.expectExactCounts(poll.id, accepted);
    const after = file.runtime.usage();
    const grew = (read: (u: typeof after) => number | undefined) => (read(after) ?? 0) - (read(before) ?? 0);
    // 50 ballots; a retry (a vote timed out on a busy machine) is one more request of each kind.
    const tries = file.check.tries() - triesBefore;
    expect(grew((u) => u.functions.CastVote?.invocations)).toBe(tries);
    expect(grew((u) => u.queues[queueName]?.messagesSent)).toBe(tries);
    expect(grew((u) => u.functions.CountVotes?.billedMs)).toBeGreaterThan(0);
    expect(grew((u) => u.tables[file.runtime.resources.tableName]?.writeUnits)).toBeGreaterThan(0);
    // Its poll reads are metered (how many: the poll cache's tests, test/unit/poll-cache and api-handlers).
    expect(grew((u) => u.tables[file.runtime.resources.tableName]?.byFunction.CastVote?.readUnits)).toBeGreaterThan(0);
    expect(grew((u) => u.queues[queueName]?.requests.ReceiveMessage)).toBeGreaterThan(0);
    expect(grew((u) => u.api.bytesOut)).toBeGreaterThan(0);
    const served = await fetch(`${file.runtime.url}/_local/usage`).then((r) => r.json());
    expect(served.functions.CastVote.invocations).toBe(after.functions.CastVote.invocations);
  });
});
