import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptedVotes, compareTallies, voteTallies } from '../../../load-tests/conservation';
import { apiUrlFromOutputs, formatSummary, LoadTestError, progressLine, type Summary } from '../../../load-tests/run';

const A = 'AAAAAAAAAAAAAAAAAAAAA';
const B = 'BBBBBBBBBBBBBBBBBBBB_';

describe('vote conservation', () => {
  it('reads accepted votes per poll and option from the report counters', () => {
    const tally = acceptedVotes({
      [`votes.accepted.${A}.0`]: 3,
      [`votes.accepted.${A}.2`]: 1,
      [`votes.accepted.${B}.1`]: 5,
      'http.requests': 99,
    });
    expect(tally).toEqual(
      new Map([
        [A, [3, 0, 1]],
        [B, [0, 5]],
      ]),
    );
  });

  it('passes only when every poll matches exactly', () => {
    const accepted = new Map([
      [A, [3, 0, 1]],
      [B, [0, 5]],
    ]);
    expect(
      compareTallies(
        accepted,
        new Map([
          [A, [3, 0, 1]],
          [B, [0, 5, 0]],
        ]),
      ),
    ).toMatchObject({ ok: true, accepted: 9, counted: 9, lost: 0, extra: 0 });
    const lost = compareTallies(
      accepted,
      new Map([
        [A, [2, 0, 1]],
        [B, [0, 5]],
      ]),
    );
    expect(lost).toMatchObject({ ok: false, lost: 1, extra: 0 });
    expect(lost.polls[0].difference).toEqual([-1, 0, 0]);
    expect(
      compareTallies(
        accepted,
        new Map([
          [A, [3, 1, 1]],
          [B, [0, 5]],
        ]),
      ),
    ).toMatchObject({ ok: false, lost: 0, extra: 1 });
    // A poll that vanished.
    expect(compareTallies(accepted, new Map([[A, [3, 0, 1]]]))).toMatchObject({ ok: false, lost: 5 });
  });
});

describe('votes with no answer', () => {
  // Poll A: 6 sent for option 0, 1 refused (429), 3 accepted; so 2 got no answer or a 5xx.
  const counters = {
    [`votes.sent.${A}.0`]: 6,
    [`votes.refused.${A}.0`]: 1,
    [`votes.accepted.${A}.0`]: 3,
  };

  it('may each be counted or not: counted must lie between the accepted and the sent less the refused', () => {
    const { accepted, possible } = voteTallies(counters);
    expect(possible).toEqual(new Map([[A, [5]]]));
    for (const n of [3, 4, 5])
      expect(compareTallies(accepted, new Map([[A, [n]]]), possible)).toMatchObject({ ok: true, unanswered: 2 });
    expect(compareTallies(accepted, new Map([[A, [2]]]), possible)).toMatchObject({ ok: false, lost: 1, extra: 0 });
    expect(compareTallies(accepted, new Map([[A, [6]]]), possible)).toMatchObject({ ok: false, lost: 0, extra: 1 });
  });

  it('are none when the report counted no sends (an older run): exactly the accepted votes must count', () => {
    const { accepted, possible } = voteTallies({ [`votes.accepted.${A}.0`]: 3 });
    expect(possible).toEqual(accepted);
    expect(compareTallies(accepted, new Map([[A, [4]]]), possible)).toMatchObject({ ok: false, extra: 1 });
  });

  it('are named in the summary', () => {
    const { accepted, possible } = voteTallies(counters);
    const conservation = compareTallies(accepted, new Map([[A, [4]]]), possible);
    const summary = {
      ...{ scenario: 'smoke', target: 'local' as const, url: 'http://x', requests: 6, durationSeconds: 1 },
      ...{ ratePerSecond: 6, latencyMs: { p50: 1, p95: 2, p99: 3, max: 4 }, codes: { 202: 3, 429: 1, 504: 2 } },
      ...{ errors: {}, vusersFailed: 0, artilleryExitCode: 0, votes: conservation },
    };
    expect(formatSummary({ dir: '/tmp/run', summary, conservation, ok: true })).toContain(
      'votes      3 accepted (202), 2 unanswered (each may count), 4 counted: none lost, none counted twice',
    );
    // Even one 429 fails a scenario's checks: the summary says the limits are on.
    expect(formatSummary({ dir: '/tmp/run', summary, conservation, ok: true })).toContain(
      '1 of 6 requests were refused 429: the per-address rate limits are on.',
    );
  });
});

describe('the summary of a run', () => {
  const run = (target: Summary['target'], counted: number[]) => {
    const conservation = compareTallies(new Map([[A, [3, 0, 1]]]), new Map([[A, counted]]));
    const summary = {
      scenario: 'smoke',
      target,
      url: 'http://x',
      requests: 10,
      durationSeconds: 1,
      ratePerSecond: 10,
      latencyMs: { p50: 1, p95: 2, p99: 3, max: 4 },
      codes: { 202: 4 },
      errors: {},
      vusersFailed: 0,
      artilleryExitCode: 0,
      votes: conservation,
    };
    return formatSummary({ dir: '/tmp/run', summary, conservation, ok: conservation.ok });
  };

  it('points a deployed target’s missing votes to the dead-letter queue', () => {
    expect(run('aws', [2, 0, 1])).toMatch(/1 LOST[\s\S]*npm run dlq -- inspect --target aws[\s\S]*FAIL/);
    expect(run('local', [2, 0, 1])).not.toContain('npm run dlq');
    expect(run('aws', [3, 0, 1])).not.toContain('npm run dlq');
  });
});

describe('a progress line', () => {
  it('sums the counters so far: requests, answers by class, errors when any, votes accepted', () => {
    const totals = {
      'http.requests': 1500,
      'http.codes.200': 900,
      'http.codes.202': 400,
      'http.codes.404': 120,
      'http.codes.429': 30,
      'http.codes.503': 2,
      'errors.ETIMEDOUT': 3,
      [`votes.accepted.${A}.0`]: 250,
      [`votes.accepted.${B}.1`]: 150,
      [`votes.refused.${A}.0`]: 30,
    };
    expect(progressLine(12.4, totals)).toBe(
      '    12 s  1,500 requests: 2xx 1,300, 4xx 150, 5xx 2, 3 errors; 400 votes accepted',
    );
    expect(progressLine(0, {})).toBe('     0 s  0 requests: 2xx 0, 4xx 0, 5xx 0; 0 votes accepted');
  });
});

describe('finding a deployed target', () => {
  it('reads the API URL from cdk deploy --outputs-file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'outputs-')), 'cdk-outputs.json');
    writeFileSync(
      file,
      JSON.stringify({
        ServerlessPoll: {
          ApiUrl: 'https://abc.execute-api.us-east-1.amazonaws.com/prod/',
          SiteUrl: 'https://d1.cloudfront.net',
        },
      }),
    );
    expect(apiUrlFromOutputs(file)).toBe('https://abc.execute-api.us-east-1.amazonaws.com/prod');
  });

  it('says how to get one when the file is missing', () => {
    expect(() => apiUrlFromOutputs('/nonexistent/cdk-outputs.json')).toThrow(LoadTestError);
    expect(() => apiUrlFromOutputs(join(tmpdir(), 'no-such', 'cdk-outputs.json'))).toThrow(
      /cdk-outputs\.json not found: npm run deploy \(docs\/deploy\.md\) writes it; or pass --url\.$/,
    );
  });
});
