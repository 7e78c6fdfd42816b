/**
 * The dead-letter path against the real emulated queues and table: what the consumer does with
 * a record on its last delivery, and `npm run dlq` (inspect, redrive, discard), whose redrive
 * must never count a vote twice, also when it is interrupted and run again.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOTE_QUEUE } from '../../config/vote-queue';
import type { SQSRecord } from 'aws-lambda';
import type { VoteMessage } from '../../domain/vote';
import { discard, inspect, redrive, type Queues } from '../../dlq/dead-letters';
import { emulatorClientConfig } from '../../local/endpoints';
import { PROJECT_ROOT } from '../../node/folders';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { sqsRecord, voteBody } from '../support/factories';
import { CAMPAIGN_RUNTIME } from '../support/campaign';
import { api, clients, pool } from '../support/local';

let runtime: LocalRuntime;
let client: ReturnType<typeof api>;
let queues: Queues;

beforeAll(async () => {
  // Redeliveries after 1 s instead of 60 s, so votes reach their last delivery quickly.
  runtime = await startLocalRuntime({ ...CAMPAIGN_RUNTIME });
  client = api(runtime);
  queues = {
    sqs: clients(runtime).sqs,
    voteQueueUrl: runtime.resources.voteQueueUrl,
    deadLetterQueueUrl: runtime.resources.deadLetterQueueUrl,
  };
});
afterAll(async () => runtime?.stop());

const LAST = VOTE_QUEUE.maxReceiveCount;

/** Invokes the consumer as Lambda would and returns the ids it reported failed. */
async function consume(...records: SQSRecord[]): Promise<string[]> {
  const invoked = await runtime.invoke('CountVotes', { Records: records });
  expect(invoked.outcome).toBe('ok');
  return invoked.result.batchItemFailures.map((f: { itemIdentifier: string }) => f.itemIdentifier);
}

/** The letters currently in the dead-letter queue, by the id of the message they came from. */
async function lettersBySource(): Promise<Map<string, string>> {
  const { letters } = await inspect(queues, { holdSeconds: 5 });
  const out = new Map<string, string>();
  for (const j of letters) out.set(j.vote?.voteId ?? j.letter.body, j.verdict);
  return out;
}

const countsOf = async (pollId: string) => (await client.results(pollId)).json.counts as number[];

async function withThrottledWrites<T>(run: () => Promise<T>): Promise<T> {
  runtime.faults.throttleUpdates = 1;
  try {
    return await run();
  } finally {
    delete runtime.faults.throttleUpdates;
  }
}

describe('the consumer on a record’s last delivery', () => {
  it('acknowledges a vote an earlier delivery counted, instead of dead-lettering it counted', async () => {
    const poll = await client.createPoll();
    const body = voteBody(poll.id, 1);
    const voteId = JSON.parse(body).voteId;
    expect(await consume(sqsRecord(body, { groupId: `${poll.id}.0`, sequenceNumber: '100', receiveCount: 1 }))).toEqual(
      [],
    );
    // The acknowledgement of that delivery is lost; every later write fails; this is the last delivery.
    const failed = await withThrottledWrites(() =>
      consume(sqsRecord(body, { groupId: `${poll.id}.0`, sequenceNumber: '100', receiveCount: LAST })),
    );
    expect(failed).toEqual([]);
    expect(await countsOf(poll.id)).toEqual([0, 1, 0]);
    expect((await lettersBySource()).has(voteId)).toBe(false);
  });

  it('dead-letters an uncounted vote with the verdict unapplied, and leaves earlier deliveries to SQS', async () => {
    const poll = await client.createPoll();
    const last = voteBody(poll.id, 0);
    const notLast = sqsRecord(voteBody(poll.id, 2), {
      groupId: `${poll.id}.1`,
      sequenceNumber: '300',
      receiveCount: 1,
    });
    const failed = await withThrottledWrites(() =>
      consume(sqsRecord(last, { groupId: `${poll.id}.0`, sequenceNumber: '200', receiveCount: LAST }), notLast),
    );
    expect(failed).toEqual([notLast.messageId]);
    expect((await lettersBySource()).get(JSON.parse(last).voteId)).toBe('unapplied');
    expect((await lettersBySource()).has(JSON.parse(notLast.body).voteId)).toBe(false);
    expect(await countsOf(poll.id)).toEqual([0, 0, 0]);
  });

  it('dead-letters votes for a poll that is gone as poll-missing, and what is not a vote as malformed', async () => {
    const gone = voteBody('gonepoll0000000000000', 0);
    const junk = sqsRecord('{"not":"a vote"}', { groupId: 'x.0', sequenceNumber: '400', receiveCount: LAST });
    expect(
      await consume(
        sqsRecord(gone, { groupId: 'gonepoll0000000000000.0', sequenceNumber: '400', receiveCount: LAST }),
        junk,
      ),
    ).toEqual([]);
    const letters = await lettersBySource();
    expect(letters.get(JSON.parse(gone).voteId)).toBe('poll-missing');
    expect(letters.get('{"not":"a vote"}')).toBe('malformed');
  });

  it('counts a redriven vote once however often it arrives, and judges it by its id on its last delivery', async () => {
    const poll = await client.createPoll();
    const redriven = voteBody(poll.id, 2, { redriven: true });
    // Sequence numbers mean nothing for a redriven vote: a later copy has a higher one.
    expect(
      await consume(sqsRecord(redriven, { groupId: `${poll.id}.0`, sequenceNumber: '500', receiveCount: 1 })),
    ).toEqual([]);
    expect(
      await consume(
        sqsRecord(redriven, { groupId: `${poll.id}.0`, sequenceNumber: '900', receiveCount: 1 }),
        sqsRecord(redriven, { groupId: `${poll.id}.2`, sequenceNumber: '901', receiveCount: 1 }),
      ),
    ).toEqual([]);
    expect(await countsOf(poll.id)).toEqual([0, 0, 1]);

    const uncounted = voteBody(poll.id, 0, { redriven: true });
    const failed = await withThrottledWrites(() =>
      consume(
        sqsRecord(redriven, { groupId: `${poll.id}.0`, sequenceNumber: '950', receiveCount: LAST }),
        sqsRecord(uncounted, { groupId: `${poll.id}.1`, sequenceNumber: '951', receiveCount: LAST }),
      ),
    );
    expect(failed).toEqual([]);
    const letters = await lettersBySource();
    expect(letters.has(JSON.parse(redriven).voteId)).toBe(false);
    expect(letters.get(JSON.parse(uncounted).voteId)).toBe('unapplied');
  });
});

describe('npm run dlq', () => {
  it('redrives votes that failed every delivery, once, also when a redrive dies before deleting its letters', {
    timeout: 180_000,
  }, async () => {
    // Every counter write throttled: each delivery spends seconds in the SDK's backoff.
    const VOTES = 24;
    const poll = await client.createPoll();
    const accepted = [0, 0, 0];
    await withThrottledWrites(async () => {
      await pool(VOTES, 20, async (i) => {
        const res = await client.vote(poll.id, i % 3);
        expect(res.status).toBe(202);
        accepted[i % 3]++;
      });
      await runtime.waitForDrain(150_000);
    });
    expect(await countsOf(poll.id)).toEqual([0, 0, 0]);
    const before = (await inspect(queues, { holdSeconds: 5 })).letters.filter((j) => j.vote?.pollId === poll.id);
    expect(before).toHaveLength(VOTES);
    expect(new Set(before.map((j) => j.verdict))).toEqual(new Set(['unapplied']));

    // A redrive that sends, then dies before deleting (its letters come back after the hold).
    const dying = new SQSClient(emulatorClientConfig(runtime.resources.sqsEndpoint));
    dying.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'DeleteMessageBatchCommand') throw new Error('the redrive died here');
        return next(args);
      },
      { step: 'initialize' },
    );
    await expect(redrive({ ...queues, sqs: dying }, { holdSeconds: 2 })).rejects.toThrow('the redrive died here');
    dying.destroy();
    await runtime.waitForDrain(60_000);
    expect(await countsOf(poll.id)).toEqual(accepted);

    await new Promise((r) => setTimeout(r, 2500));
    const again = await redrive(queues);
    expect(again.redriven.filter((j) => j.vote!.pollId === poll.id)).toHaveLength(VOTES);
    await runtime.waitForDrain(60_000);
    expect(await countsOf(poll.id)).toEqual(accepted);

    const after = (await inspect(queues, { holdSeconds: 5 })).letters.filter((j) => j.vote?.pollId === poll.id);
    expect(after).toEqual([]);
    expect((await redrive(queues)).redriven).toEqual([]);
  });

  it('never redrives a letter SQS moved itself (no verdict: it may be counted); discards only on request', async () => {
    const poll = await client.createPoll();
    // Every record is withheld from the consumer, so SQS moves it to the dead-letter queue untouched,
    // in its vote's message group: 12 in one group, more than one receive hands out.
    runtime.faults.failBeforeApply = 1;
    try {
      for (let i = 0; i < 12; i++) {
        await queues.sqs.send(
          new SendMessageCommand({
            QueueUrl: queues.voteQueueUrl,
            MessageBody: voteBody(poll.id, 0),
            MessageGroupId: `${poll.id}.0`,
            MessageDeduplicationId: `raw-${i}`,
          }),
        );
      }
      await runtime.waitForDrain(60_000);
    } finally {
      delete runtime.faults.failBeforeApply;
    }
    const mine = <T extends { vote: VoteMessage | null }>(letters: T[]) =>
      letters.filter((j) => j.vote?.pollId === poll.id);
    const inspected = await inspect(queues, { holdSeconds: 5 });
    const seen = mine(inspected.letters);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((j) => j.verdict === 'unknown')).toBe(true);
    // Later letters of the group wait behind the first ones: SQS counts more than a read can see.
    expect(inspected.approximateTotal).toBeGreaterThanOrEqual(12);
    const result = await redrive(queues);
    expect(mine(result.redriven)).toEqual([]);
    expect(mine(result.kept).length).toBeGreaterThan(0);
    await expect(discard(queues, ['unapplied'])).rejects.toThrow(/redrive unapplied votes instead/);
    // Discarding reads on as it removes, so it reaches the whole group.
    expect(mine(await discard(queues, ['unknown']))).toHaveLength(12);
    expect(mine((await inspect(queues, { holdSeconds: 5 })).letters)).toEqual([]);
    expect(await countsOf(poll.id)).toEqual([0, 0, 0]);
  });

  it('works from the command line against a running local runtime, and says what to do when none runs', async () => {
    const run = (...args: string[]) =>
      promisify(execFile)(join(PROJECT_ROOT, 'node_modules/.bin/tsx'), ['bin/dlq.ts', ...args], {
        cwd: PROJECT_ROOT,
      }).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );
    // Its own letters: a vote for a poll that is gone, and something that is not a vote.
    const gone = voteBody(`gone${'x'.repeat(17)}`, 0);
    const junk = `{"cli test": "${Date.now()}"}`;
    expect(
      await consume(
        sqsRecord(gone, { groupId: `${`gone${'x'.repeat(17)}`}.0`, receiveCount: LAST }),
        sqsRecord(junk, { groupId: 'x.0', receiveCount: LAST }),
      ),
    ).toEqual([]);
    const mine = (stdout: string) =>
      (JSON.parse(stdout).letters as Array<{ verdict: string; vote: VoteMessage | null; body?: string }>)
        .filter((l) => l.vote?.voteId === JSON.parse(gone).voteId || l.body === junk)
        .map((l) => l.verdict)
        .sort();

    const listed = await run('inspect', '--url', runtime.url, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(mine(listed.stdout)).toEqual(['malformed', 'poll-missing']);
    const text = await run('inspect', '--url', runtime.url);
    expect(text.stdout).toMatch(/\d+ letter\(s\) in the dead-letter queue/);
    expect(text.stdout).toMatch(/poll-missing +\d+ +its poll expired/);
    const discarded = await run('discard', '--verdict', 'malformed,poll-missing', '--url', runtime.url);
    expect(discarded.stdout).toMatch(/Discarded \d+ letter\(s\)/);
    expect(mine((await run('inspect', '--url', runtime.url, '--json')).stdout)).toEqual([]);

    const down = await run('inspect', '--url', 'http://127.0.0.1:9');
    expect(down.code).toBe(1);
    expect(down.stderr).not.toMatch(/--help for the usage/);
    expect(down.stderr).toMatch(/does not answer at http:\/\/127\.0\.0\.1:9\/_local\/resources.*npm start/);
    const wrong = await run('discard');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/discard needs --verdict/);
  });
});
