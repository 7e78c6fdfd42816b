/**
 * The fault campaign's last part: the runtime is stopped in the middle of a run (with
 * persistence on, votes still arriving, the consumer failing and crashing), then started again
 * on the same data directory. A vote answered 202 is counted once (or held in the DLQ); a vote
 * whose answer was lost may be counted too, so without keys all that holds is answered <= counted
 * <= sent; ballots retried by key until answered are counted exactly.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QUEUES_FILE } from '../../local/emulators';
import type { Faults } from '../../local/faults';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { api, pool, voteUntilAnswered } from '../support/local';

const dataDir = mkdtempSync(join(tmpdir(), 'poll-restart-'));
const runtimes: LocalRuntime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.stop().catch(() => undefined)));
  rmSync(dataDir, { recursive: true, force: true });
});

const start = async (faults: Faults = {}) => {
  const runtime = await startLocalRuntime({ dataDir, rateLimits: false, visibilityTimeoutSeconds: 1, faults });
  runtimes.push(runtime);
  return runtime;
};

const VOTES = 600;
/** After this many votes are answered (or given up on), the runtime is stopped and started again. */
const RESTART_AFTER = 300;

/** Stops a runtime without draining it, and starts another on its data; returns it and how many messages were saved. */
async function restart(runtime: LocalRuntime): Promise<{ runtime: LocalRuntime; saved: number }> {
  await runtime.stop(); // no drain: votes are still arriving, queued or in flight
  runtimes.splice(runtimes.indexOf(runtime), 1);
  const queues = JSON.parse(readFileSync(join(dataDir, QUEUES_FILE), 'utf8')) as Record<
    string,
    { messages: unknown[] }
  >;
  const saved = Object.values(queues).reduce((sum, q) => sum + q.messages.length, 0);
  const next = await start();
  expect(existsSync(join(dataDir, QUEUES_FILE))).toBe(false);
  return { runtime: next, saved };
}

/** What a poll counted, with its votes held in the dead-letter queue. */
async function countedOrHeld(runtime: LocalRuntime, pollId: string): Promise<number[]> {
  const counts = (await api(runtime).results(pollId)).json.counts as number[];
  const dlqName = runtime.resources.deadLetterQueueUrl.split('/').pop()!;
  for (const body of runtime.queueBodies(dlqName)) {
    const vote = JSON.parse(body);
    if (vote.pollId === pollId) counts[vote.option]++;
  }
  return counts;
}

describe('a restart in the middle of a run', () => {
  it('counts every vote answered 202 and none unsent; every ballot retried by key, exactly once', {
    timeout: 180_000,
  }, async () => {
    const first = await start({ crashAfterWrites: 0.3, failAfterApply: 0.2 });
    const plain = await api(first).createPoll({ options: ['A', 'B', 'C'] });
    const keyed = await api(first).createPoll({ options: ['A', 'B', 'C'] });
    const sent = [0, 0, 0];
    const answered = [0, 0, 0];
    const ballots = [0, 0, 0];
    let target = Promise.resolve(first);
    let restarted: Promise<{ runtime: LocalRuntime; saved: number }> | undefined;
    let done = 0;

    // Half the votes are sent once without a key, half are ballots sent by key until answered.
    await pool(VOTES, 50, async (i) => {
      const option = i % 3;
      if (i % 2 === 0) {
        sent[option]++;
        const res = await api(await target)
          .vote(plain.id, option)
          .catch(() => undefined);
        if (res?.status === 202) answered[option]++;
      } else {
        ballots[option]++;
        const ballot = { pollId: keyed.id, option, key: `ballot-${i}` };
        expect((await voteUntilAnswered(() => target, ballot, 50)).status).toBe(202);
      }
      if (++done === RESTART_AFTER) {
        restarted = restart(first);
        target = restarted.then((r) => r.runtime);
      }
    });
    const { runtime: second, saved } = await restarted!;
    expect(saved, 'the stop should have left votes queued').toBeGreaterThan(0);

    await second.waitForDrain(90_000);
    const plainCounted = await countedOrHeld(second, plain.id);
    const keyedCounted = await countedOrHeld(second, keyed.id);
    console.log(
      `restart: ${saved} messages saved at the stop; without keys ${sent} sent, ${answered} answered 202, ` +
        `${plainCounted} counted; by key ${ballots} ballots, ${keyedCounted} counted`,
    );
    plainCounted.forEach((n, option) => {
      expect(n, `option ${option}`).toBeGreaterThanOrEqual(answered[option]);
      expect(n, `option ${option}`).toBeLessThanOrEqual(sent[option]);
    });
    expect(keyedCounted).toEqual(ballots);
  });
});
