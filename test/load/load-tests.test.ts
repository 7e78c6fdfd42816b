/**
 * The load tests' own plumbing: the smoke scenario through artillery against the
 * local runtime, the vote-conservation check after it, and proof that the check
 * fails when votes are lost.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../node/command-line';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { checkApi, formatSummary, LoadTestError, runLoadTest, type LoadRunResult } from '../../load-tests/run';

let runtime: LocalRuntime;
const resultsRoot = mkdtempSync(join(tmpdir(), 'load-results-'));

beforeAll(async () => {
  runtime = await startLocalRuntime({ rateLimits: false });
});
afterAll(async () => runtime?.stop());

describe('npm run load', () => {
  it('runs the smoke scenario, and every accepted vote is counted', async () => {
    const lines: string[] = [];
    const progress = (line: string) => lines.push(line);
    const result = await runLoadTest({ scenario: 'smoke', target: 'local', runtime, resultsRoot, progress });
    expect(result.summary.artilleryExitCode).toBe(0);
    expect(result.summary.vusersFailed).toBe(0);
    expect(result.summary.codes).toMatchObject({
      '200': expect.any(Number),
      '202': expect.any(Number),
      '400': expect.any(Number),
      '404': expect.any(Number),
    });
    expect(result.summary.votes.accepted).toBe(result.summary.codes['202']);
    expect(result.conservation).toMatchObject({ ok: true, lost: 0, extra: 0 });
    expect(result.ok).toBe(true);

    // Progress from artillery's periodic reports: their totals add up to the run's; its own output in a file.
    expect(lines[0]).toMatch(
      /^smoke on local \(http:\/\/127\.0\.0\.1:\d+\): a line every 10 s; artillery's output in /,
    );
    const { requests, votes } = result.summary;
    expect(lines.at(-1)).toMatch(
      new RegExp(`^ +\\d+ s  ${requests} requests: 2xx .*; ${votes.accepted} votes accepted$`),
    );
    expect(readFileSync(result.log!, 'utf8')).toMatch(/Summary report/);

    // One folder with what the cost model reads.
    for (const file of ['artillery.json', 'summary.json', 'usage.json'])
      expect(existsSync(join(result.dir, file)), file).toBe(true);
    const usage = JSON.parse(readFileSync(join(result.dir, 'usage.json'), 'utf8'));
    // Every vote sent reached the function once (none is refused in this scenario).
    const { accepted, unanswered } = result.summary.votes;
    expect(usage.functions.CastVote.invocations).toBe(accepted + unanswered);
  });

  it('fails the run and names the poll when accepted votes are lost', async () => {
    runtime.faults.dropSends = 1; // every SendMessage acknowledged, none enqueued
    try {
      const result = await runLoadTest({ scenario: 'smoke', target: 'local', runtime, resultsRoot, output: 'quiet' });
      expect(result.summary.artilleryExitCode).toBe(0); // the API answered 202 every time
      expect(result.conservation.ok).toBe(false);
      expect(result.conservation.lost).toBe(result.summary.votes.accepted);
      expect(result.ok).toBe(false);
      expect(formatSummary(result)).toMatch(
        new RegExp(`${result.summary.votes.accepted} LOST[\\s\\S]*poll ${result.conservation.polls[0].pollId}`),
      );
    } finally {
      delete runtime.faults.dropSends;
    }
  });

  it('says in one line when the URL is not one, nothing answers, or not this API, and leaves no results', async () => {
    const error = (url: string) => runLoadTest({ scenario: 'smoke', target: 'aws', url, resultsRoot, output: 'quiet' });
    await expect(error('notaurl')).rejects.toThrow(
      expect.objectContaining({ name: 'UsageError', message: expect.stringMatching(/^--url notaurl is not a URL/) }),
    );
    await expect(error('http://127.0.0.1:39999')).rejects.toThrow(
      /^Nothing answers at http:\/\/127\.0\.0\.1:39999 \(ECONNREFUSED\)/,
    );
    // The site answers 200 with a page on paths outside /api: not the API's 404.
    await expect(checkApi(`${runtime.url}/api/poll`)).rejects.toThrow(LoadTestError);
    await expect(checkApi(runtime.url)).resolves.toBe('local');
    expect(readdirSync(resultsRoot).filter((d) => d.startsWith('smoke-aws-'))).toEqual([]);
  });

  it('tests what --url points at, and with no --target takes it from what answers there', async () => {
    const before = runtime.usage().api.requests;
    const result = await runLoadTest({ scenario: 'smoke', url: runtime.url, resultsRoot, output: 'quiet' });
    expect(result.summary).toMatchObject({ target: 'local', url: runtime.url, artilleryExitCode: 0 });
    // The load went to this runtime, not to one the run started for itself.
    expect(runtime.usage().api.requests - before).toBeGreaterThanOrEqual(result.summary.requests);
    expect(result.conservation).toMatchObject({ ok: true, lost: 0, extra: 0 });
  });

  it('refuses a --url where another kind of server than --target answers, saying what answers there', async () => {
    const run = (target: 'vps' | 'aws') =>
      runLoadTest({ scenario: 'smoke', target, url: runtime.url, resultsRoot, output: 'quiet' });
    const local = 'the local runtime \\(npm start\\)';
    const limitsOff = 'use --target local, with npm start -- --rate-limits off';
    await expect(run('vps')).rejects.toThrow(
      new RegExp(`^${runtime.url} is ${local}, not the VPS edition \\(npm run vps\\): ${limitsOff}`),
    );
    await expect(run('aws')).rejects.toThrow(LoadTestError);
    await expect(run('aws')).rejects.toThrow(new RegExp(`^${runtime.url} is ${local}, not a deployed stack`));
    expect(readdirSync(resultsRoot).filter((d) => /^smoke-(vps|aws)-/.test(d))).toEqual([]);
  });

  it('asks which deployed stack answers at a --url given alone: the two get different loads', async () => {
    // The API's 404 for every path, as a deployed stack answers, with neither the VPS header nor /_local/.
    const stack = createServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"poll_not_found"}}'),
    );
    await new Promise<void>((resolve) => stack.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(stack.address() as AddressInfo).port}`;
    try {
      await expect(checkApi(url)).resolves.toBe('deployed');
      const run = runLoadTest({ scenario: 'smoke', url, resultsRoot, output: 'quiet' });
      await expect(run).rejects.toThrow(UsageError);
      await expect(run).rejects.toThrow(/is a deployed stack \(AWS or LocalStack\): say which with --target aws or/);
    } finally {
      stack.close();
    }
  });

  it('explains a wall of 429s: the stack’s rate limits are on', () => {
    const summary = {
      scenario: 'smoke',
      target: 'aws',
      url: 'https://x',
      requests: 100,
      durationSeconds: 3,
      ratePerSecond: 33,
      latencyMs: { p50: 1, p95: 1, p99: 1, max: 1 },
      codes: { '202': 30, '429': 70 },
      errors: {},
      vusersFailed: 9,
      artilleryExitCode: 1,
      votes: { accepted: 30, unanswered: 0, counted: 30, lost: 0, extra: 0, ok: true },
    };
    const text = formatSummary({
      dir: resultsRoot,
      summary,
      conservation: { ok: true, accepted: 30, unanswered: 0, counted: 30, lost: 0, extra: 0, polls: [] },
      ok: false,
    } as LoadRunResult);
    expect(text).toContain(
      '70 of 100 requests were refused 429: the per-address rate limits are on. ' +
        'Deploy with npm run deploy -- -c rateLimits=off',
    );
    const onVps = formatSummary({
      dir: resultsRoot,
      summary: { ...summary, target: 'vps' },
      conservation: { ok: true, accepted: 30, unanswered: 0, counted: 30, lost: 0, extra: 0, polls: [] },
      ok: false,
    } as LoadRunResult);
    expect(onVps).toMatch(
      /the per-address rate limits are on\. Start the VPS edition with --rate-limits off for the test/,
    );
  });
});
