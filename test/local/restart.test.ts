/**
 * The fault campaign's last part: the runtime is stopped in the middle of a run (with
 * persistence on) while the consumer fails and crashes, then started again on the same
 * data directory. Every accepted vote is counted exactly once (or held in the DLQ).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QUEUES_FILE } from '../../local/emulators';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { api, pool } from '../support/local';

const dataDir = mkdtempSync(join(tmpdir(), 'poll-restart-'));
const runtimes: LocalRuntime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.stop().catch(() => undefined)));
  rmSync(dataDir, { recursive: true, force: true });
});

const start = async (faults = {}) => {
  const runtime = await startLocalRuntime({ dataDir, rateLimits: false, visibilityTimeoutSeconds: 1, faults });
  runtimes.push(runtime);
  return runtime;
};

describe('a restart in the middle of a run', () => {
  it('keeps every accepted vote, counted once, across the restart', async () => {
    const first = await start({ crashAfterWrites: 0.3, failAfterApply: 0.2 });
    const poll = await api(first).createPoll({ options: ['A', 'B', 'C'] });
    const accepted = [0, 0, 0];
    await pool(600, 50, async (i) => {
      const res = await api(first).vote(poll.id, i % 3);
      if (res.status === 202) accepted[i % 3]++;
    });
    const waiting = first.queueDepths();
    await first.stop(); // no drain: votes are still queued or in flight
    runtimes.pop();

    const saved = JSON.parse(readFileSync(join(dataDir, QUEUES_FILE), 'utf8')) as Record<
      string,
      { messages: unknown[] }
    >;
    const savedMessages = Object.values(saved).reduce((sum, q) => sum + q.messages.length, 0);
    console.log(
      `restart: ${accepted.reduce((a, b) => a + b)} accepted, ${JSON.stringify(waiting)} waiting at the stop, ${savedMessages} saved`,
    );
    expect(savedMessages).toBeGreaterThan(0); // the stop really was mid-run

    const second = await start();
    expect(existsSync(join(dataDir, QUEUES_FILE))).toBe(false);
    await second.waitForDrain(90_000);
    const results = (await api(second).results(poll.id)).json;
    const dlqName = second.resources.deadLetterQueueUrl.split('/').pop()!;
    const held = [0, 0, 0];
    for (const body of second.queueBodies(dlqName)) held[JSON.parse(body).option]++;
    expect(results.counts.map((n: number, i: number) => n + held[i])).toEqual(accepted);
  });
});
