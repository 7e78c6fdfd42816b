/**
 * The load tests' own plumbing: the smoke scenario through artillery against the
 * local runtime, the vote-conservation check after it, and proof that the check
 * fails when votes are lost.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { formatSummary, runLoadTest } from '../../load-tests/run';

let runtime: LocalRuntime;
const resultsRoot = mkdtempSync(join(tmpdir(), 'load-results-'));

beforeAll(async () => {
  runtime = await startLocalRuntime({ rateLimits: false });
});
afterAll(async () => runtime?.stop());

describe('npm run load', () => {
  it('runs the smoke scenario, and every accepted vote is counted', async () => {
    const result = await runLoadTest({ scenario: 'smoke', target: 'local', runtime, resultsRoot, quiet: true });
    expect(result.summary.artilleryExitCode).toBe(0);
    expect(result.summary.vusersFailed).toBe(0);
    expect(result.summary.codes).toMatchObject({ '200': expect.any(Number), '202': expect.any(Number), '400': expect.any(Number), '404': expect.any(Number) });
    expect(result.summary.votes.accepted).toBe(result.summary.codes['202']);
    expect(result.conservation).toMatchObject({ ok: true, lost: 0, extra: 0 });
    expect(result.ok).toBe(true);

    // One folder with what the cost model reads.
    for (const file of ['artillery.json', 'summary.json', 'usage.json']) expect(existsSync(join(result.dir, file)), file).toBe(true);
    const usage = JSON.parse(readFileSync(join(result.dir, 'usage.json'), 'utf8'));
    expect(usage.functions.CastVote.invocations).toBe(result.summary.votes.accepted);
  });

  it('fails the run and names the poll when accepted votes are lost', async () => {
    runtime.faults.dropSends = 1; // every SendMessage acknowledged, none enqueued
    try {
      const result = await runLoadTest({ scenario: 'smoke', target: 'local', runtime, resultsRoot, quiet: true });
      expect(result.summary.artilleryExitCode).toBe(0); // the API answered 202 every time
      expect(result.conservation.ok).toBe(false);
      expect(result.conservation.lost).toBe(result.summary.votes.accepted);
      expect(result.ok).toBe(false);
      expect(formatSummary(result)).toMatch(new RegExp(`${result.summary.votes.accepted} LOST[\\s\\S]*poll ${result.conservation.polls[0].pollId}`));
    } finally {
      delete runtime.faults.dropSends;
    }
  });
});
