/**
 * The cost model, checked against arithmetic done by hand (shown in comments).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../../frontend/build';
import { pageWithConfig } from '../../frontend/page';
import { BASELINE_VPS, VPS_TIERS, type VpsCapacity, type VpsMeasurement } from '../../cost/vps';
import { breakEven, vpsCost } from '../../cost/compare';
import { awsFloor, DEPLOYABLE_DESIGNS, floodCeiling, priceDesigns } from '../../cost/designs';
import { synthesizeTemplate } from '../../lib/app';
import { MeasuredRunError, unitCostsFromUsage } from '../../cost/measured';
import {
  DEFAULT_UNIT_COSTS,
  estimate,
  monthlyUsage,
  priceUsage,
  tieredCost,
  type MonthlyUsage,
} from '../../cost/model';
import { PRICES } from '../../cost/prices';
import { presetProfile, profileFromJson, PROFILES, ProfileError, validateProfile } from '../../cost/profiles';
import { readStackConfig, type StackConfig } from '../../cost/stack-config';
import { templateFor } from '../support/synth';

const stack: StackConfig = readStackConfig(templateFor('http').toJSON());
const line = (bill: ReturnType<typeof estimate>, priceId: string) => bill.lines.find((l) => l.priceId === priceId)!;

/** A measurement with round figures, so VPS sizing is arithmetic by hand (the committed one moves with each run). */
const rate = (requestsPerSecond: number) => ({
  method: 'GET',
  path: '',
  requestsPerSecond,
  latencyMs: { p50: 1, p97_5: 2, p99: 3, max: 4 },
  requests: 0,
  non2xx: 0,
  errors: 0,
});
const measurement: VpsMeasurement = {
  what: 'test',
  date: '2026-11-22',
  machine: { cpus: 2, model: 'test', os: 'test', node: 'v20' },
  command: 'test',
  bare: rate(40_000),
  routes: { options: rate(20_000), page: rate(20_000), vote: rate(10_000), results: rate(20_000) },
  optionsShareOfBare: 0.5,
  votes: { acknowledged: 1, counted: 1 },
};
const capacity: VpsCapacity = { measurement, source: 'test' };

describe('tiered prices', () => {
  it('crosses the HTTP API tier at the 300-millionth request', () => {
    expect(tieredCost(300e6, PRICES.httpApiRequests)).toBeCloseTo(300, 9); // 300 M x $1/M
    expect(tieredCost(300e6 + 1, PRICES.httpApiRequests)).toBeCloseTo(300 + 0.9e-6, 9); // the next one at $0.90/M
    expect(tieredCost(400e6, PRICES.httpApiRequests)).toBeCloseTo(300 + 100 * 0.9, 9); // $390
  });

  it('walks the REST API tiers', () => {
    // 333 M x $3.50 = $1,165.50; then 667 M x $2.80 = $1,867.60
    expect(tieredCost(333e6, PRICES.restApiRequests)).toBeCloseTo(1165.5, 6);
    expect(tieredCost(1000e6, PRICES.restApiRequests)).toBeCloseTo(1165.5 + 1867.6, 6);
  });

  it('walks the Lambda GB-second tiers', () => {
    // x86: 6 B GB-s x $0.0000166667 = $100,000.20; the next 1 B at $0.000015 = $15,000
    expect(tieredCost(6e9, PRICES.lambdaX86GbSeconds)).toBeCloseTo(100_000.2, 4);
    expect(tieredCost(7e9, PRICES.lambdaX86GbSeconds)).toBeCloseTo(115_000.2, 4);
    // arm64: 7.5 B x $0.0000133334 = $100,000.50
    expect(tieredCost(7.5e9, PRICES.lambdaArmGbSeconds)).toBeCloseTo(100_000.5, 4);
  });
});

describe('free tiers', () => {
  const usage = (changes: Partial<MonthlyUsage>): MonthlyUsage => ({
    ...monthlyUsage({ ...PROFILES.club, pollsPerDay: 0 }, stack),
    sqsRequests: 0,
    ...changes,
  });

  it('counts the new-account API Gateway million only when asked', () => {
    const u = usage({ apiRequests: 1.5e6 });
    expect(line(priceUsage(u, stack), 'httpApiRequests').usd).toBeCloseTo(1.5, 9); // 1.5 M x $1
    expect(line(priceUsage(u, stack, { newAccount: true }), 'httpApiRequests').usd).toBeCloseTo(0.5, 9); // (1.5 - 1) M x $1
  });

  it('always counts the permanent ones, and shares the Lambda GB-second pool between architectures', () => {
    const u = usage({
      invocations: { createPoll: 1.5e6, getPoll: 0, castVote: 0, getResults: 0, countVotes: 0 },
      gbSeconds: { arm64: 300_000, x86_64: 300_000 },
    });
    const bill = priceUsage(u, stack);
    expect(line(bill, 'lambdaRequests').usd).toBeCloseTo(0.1, 9); // (1.5 - 1) M x $0.20
    expect(line(bill, 'lambdaArmGbSeconds').usd).toBe(0); // the first 300k of the 400k pool
    expect(line(bill, 'lambdaX86GbSeconds').usd).toBeCloseTo(200_000 * 0.0000166667, 9); // 100k left of the pool
  });
});

describe('the seed profile, line by line', () => {
  const bill = estimate(PROFILES.seed, stack);
  const u = bill.usage;

  it('derives the month from the profile', () => {
    expect(u.polls).toBe(3000); // 100 a day x 30
    expect(u.votes).toBe(15e6); // x 5,000
    expect(u.pageLoads).toBe(15e6 + 3000); // one per voter, plus the creators'
    expect(u.resultsRequests).toBe(3000 * 5000 * 60); // 2 minutes at one request per 2 s = 60 each
    expect(u.apiRequests).toBe(3000 + 15e6 + 15e6 + 900e6 + 15_003_000); // creates, poll loads, votes, results, preflights
    // 945 M a month is ~365 requests/s on average: the seed's "about 350 requests / second".
    expect(u.apiRequests / (30 * 86400)).toBeCloseTo(364.6, 1);
  });

  it('prices every line as done by hand', () => {
    // API: 300 M x $1 + 645.006 M x $0.90
    expect(line(bill, 'httpApiRequests').usd).toBeCloseTo(300 + 645.006 * 0.9, 4);
    // Lambda requests: 3,000 + 15 M + 15 M + 900 M + 1.5 M batches = 931.503 M, 1 M free, x $0.20
    expect(line(bill, 'lambdaRequests').usd).toBeCloseTo(930.503 * 0.2, 4);
    // GB-s = count x (billed ms + 0.5% x 250 ms INIT) / 1000 x 0.25 GB, summed (results: 2 ms, mostly from the function's cache); 400k free; x $0.0000133334
    const gbs =
      ([3000 * 31.25, 15e6 * 13.25, 15e6 * 26.25, 900e6 * 3.25, 1.5e6 * 41.25].reduce((a, b) => a + b, 0) / 1000) *
      0.25;
    expect(u.gbSeconds.arm64).toBeCloseTo(gbs, 3);
    expect(line(bill, 'lambdaArmGbSeconds').usd).toBeCloseTo((gbs - 400_000) * 0.0000133334, 4);
    // SQS: 15 M x 1.2 + 0.45 M idle receives, 1 M free, x $0.50
    expect(line(bill, 'sqsFifoRequests').usd).toBeCloseTo(17.45 * 0.5, 6);
    // Writes: 3,000 creates x 2 + 15 M x 0.125 counter writes = 1.881 M x $0.625
    expect(line(bill, 'dynamoWriteUnits').usd).toBeCloseTo(1.881 * 0.625, 6);
    // Reads: (15 M poll loads + 15 M votes) x 0.5 RRU + 900 M results x 0.0106 RRU (measured: the results function's cache) = 24.54 M x $0.125
    expect(line(bill, 'dynamoReadUnits').usd).toBeCloseTo(24.54 * 0.125, 6);
    // CloudFront: 15.003 M page loads x 1 request (the page carries everything) = 15.003 M, 10 M free, x $0.01 per 10k
    expect(line(bill, 'cloudFrontRequests').usd).toBeCloseTo(500.3 * 0.01, 6);
    // The router function on each of those: 15.003 M, 2 M free, x $0.10 per M
    expect(line(bill, 'cloudFrontFunctions').usd).toBeCloseTo(13.003 * 0.1, 6);
    // API responses: 945.006 M x 450 B = 425.25 GB, 100 GB free, x $0.09
    expect(line(bill, 'dataTransferOut').usd).toBeCloseTo((425.2527 - 100) * 0.09, 4);
    // Logs: only the consumer's INFO line and metrics line per batch: 1.5 M x (300 + 370) B = 1.005 GB, inside the 5 GB free
    expect(line(bill, 'logsIngestion').usage).toBeCloseTo(1.005, 6);
    expect(line(bill, 'logsIngestion').usd).toBe(0);
    // The consumer's 4 custom metrics and the 2 alarms (dead letters, consumer failures): inside the 10 free of each
    expect(line(bill, 'customMetrics')).toMatchObject({ usage: 4, usd: 0 });
    expect(line(bill, 'alarms')).toMatchObject({ usage: 2, usd: 0 });
    expect(bill.totalUsd).toBeCloseTo(1121.82, 1);
    expect(bill.usdPerMillionVotes).toBeCloseTo(bill.totalUsd / 15, 6);
  });

  it('sizes the VPS from this app’s measured capacity for the month’s mix, and finds where serverless overtakes the $15 box', () => {
    const vps = vpsCost(BASELINE_VPS, PROFILES.seed, bill, capacity);
    // Mix: 15.003 M pages, 15 M poll reads, 15.003 M votes and creates, 900 M results (one origin: no preflights).
    // Seconds per million: (15.003 + 15 + 900) / 20,000 + 15.003 / 10,000 = 0.04800045 -> 945.006 M / that = 19,687 req/s.
    expect(vps.capacityRps).toBeCloseTo(945.006 / 0.04800045, 0);
    // 2,000 req/s peak (3 x the 365 average is less) -> 1 box at 10% load; 515 GB is within 3 TB
    expect(vps).toMatchObject({ boxes: 1, overageUsd: 0, totalUsd: 15 });
    expect(vps.utilisation).toBeCloseTo(2000 / (945.006 / 0.04800045), 6);
    // At 50% of capacity: $15 / (19,687 x 0.5 x 2,592,000 s) per request = $0.000588 per million
    expect(vps.usdPerMillionAtCeiling).toBeCloseTo(15 / ((945.006 / 0.04800045) * 0.5 * 2.592), 9);
    const even = breakEven(BASELINE_VPS, PROFILES.seed, stack, capacity);
    expect(even.votes).toBeGreaterThan(1e5);
    expect(even.votes).toBeLessThan(15e6);
    // At the break-even volume the two bills match.
    const scaled = { ...PROFILES.seed, pollsPerDay: (PROFILES.seed.pollsPerDay * even.votes!) / 15e6 };
    expect(estimate(scaled, stack).totalUsd).toBeCloseTo(15, 2);
  });

  it('needs more boxes (sharded: not built) when one hot poll peaks past one process', () => {
    const tv = estimate(PROFILES['tv-show'], stack);
    // Mix: 8 M pages, 8 M reads, 8 M votes, 600 M results: (616 / 20,000 + 8 / 10,000) = 0.0316 s per M -> 19,747 req/s;
    // 20,000 req/s peak / (19,747 x 50%) = 2.03 -> 3 boxes
    expect(vpsCost(VPS_TIERS[0], PROFILES['tv-show'], tv, capacity).boxes).toBe(3);
  });

  it('prices results from a function URL at Lambda’s request price only: under $300 for the seed', () => {
    const fnUrl = readStackConfig(synthesizeTemplate({ results: 'function-url' }));
    const b = estimate(PROFILES.seed, fnUrl);
    // API Gateway: creates, poll reads, votes and their preflights only: 45.006 M x $1
    expect(line(b, 'httpApiRequests').usage).toBe(45.006e6);
    expect(line(b, 'httpApiRequests').usd).toBeCloseTo(45.006, 6);
    // The 900 M results are Lambda requests, billed with the rest: 930.503 M x $0.20 (as the textbook design)
    expect(line(b, 'lambdaRequests').usd).toBeCloseTo(930.503 * 0.2, 4);
    expect(b.usage.functionUrlRequests).toBe(900e6);
    // Their answers leave as Lambda's data transfer out: (45.006 M + 900 M) x 450 B = 425.25 GB, 100 GB free, x $0.09
    expect(line(b, 'dataTransferOut').usd).toBeCloseTo((425.2527 - 100) * 0.09, 4);
    // 45.01 + 186.10 + 29.27 + 8.73 SQS + 6.60 duration + 5.00 + 1.30 CloudFront + 3.07 reads + 1.18 writes + 0.06 S3 + 0.01 logs
    expect(b.totalUsd).toBeCloseTo(286.32, 1);
    expect(b.totalUsd).toBeLessThanOrEqual(300);
  });

  it('prices results cached at CloudFront with the whole API behind it: no preflights, every call a CloudFront request', () => {
    const cf = readStackConfig(synthesizeTemplate({ results: 'cloudfront' }));
    const b = estimate(PROFILES.seed, cf);
    expect(b.usage.preflights).toBe(0);
    // 15.003 M pages + 900 M results + 30.003 M creates, reads and votes passed through = 945.006 M
    expect(b.usage.cloudFrontRequests).toBe(945.006e6);
    // Each of 13 regional caches asks the API once per 2 s for each poll's 2 minutes: 3,000 x 13 x 60 = 2.34 M
    expect(b.usage.apiRequests).toBe(30.003e6 + 2.34e6);
    expect(b.lines.find((l) => l.priceId === 'dataTransferOut')).toBeUndefined();
  });

  it('puts the floor at every browser request at Lambda’s request price, nothing else', () => {
    // 15.003 M pages + 15.003 M creates and reads + 15 M votes + 15.003 M preflights + 900 M results = 960.009 M x $0.20
    expect(awsFloor(bill)).toEqual({ requests: 960.009e6, usd: expect.closeTo(192.0018, 4), pricePerMillion: 0.2 });
  });
});

describe('the designs', () => {
  const stacks = Object.fromEntries(
    DEPLOYABLE_DESIGNS.map((d) => [d.id, readStackConfig(synthesizeTemplate(d.context))]),
  );

  it('keeps cost/designs.json equal to each design’s synthesized template (npm run cost:snapshot)', () => {
    expect(JSON.parse(readFileSync('cost/designs.json', 'utf8'))).toEqual(stacks);
  });

  it('knows each from its template', () => {
    expect(stacks.api).toMatchObject({
      results: 'api',
      apiKind: 'http',
      corsPreflight: true,
      apiThroughCloudFront: false,
    });
    expect(stacks['api-rest']).toMatchObject({ results: 'api', apiKind: 'rest' });
    expect(stacks['function-url']).toMatchObject({
      results: 'function-url',
      resultsConcurrency: 200,
      corsPreflight: true,
    });
    expect(stacks.cloudfront).toMatchObject({
      results: 'cloudfront',
      apiThroughCloudFront: true,
      corsPreflight: false,
    });
  });

  it('lists every deployable design with the flags that deploy it, cheapest first, and WebSocket as an estimate', () => {
    const priced = priceDesigns(PROFILES.seed, stacks, DEFAULT_UNIT_COSTS, {});
    expect(priced.map((d) => [d.id, d.deploy])).toEqual([
      ['function-url', 'npm run deploy -- -c results=function-url'],
      ['cloudfront', 'npm run deploy -- -c results=cloudfront'],
      ['websocket', undefined],
      ['api', 'npm run deploy'],
      ['api-rest', 'npm run deploy -- -c apiKind=rest'],
    ]);
    const totals = priced.map((d) => d.bill.totalUsd);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
  });

  it('bounds what a flood of the function URL costs an hour, from its concurrency cap', () => {
    // 200 instances x 10 req/s = 2,000 req/s = 7.2 M requests an hour, each at most:
    // Lambda request $0.20/M = 2e-7; 2 ms x 0.25 GB x $0.0000133334 = 6.667e-9;
    // a read 0.5 RRU x $0.125/M = 6.25e-8; 450 B out x $0.09/GB = 4.05e-8. Sum 3.0967e-7 x 7.2 M = $2.2296.
    const flood = floodCeiling(stacks['function-url'], PROFILES.seed, DEFAULT_UNIT_COSTS)!;
    expect(flood).toMatchObject({ concurrency: 200, requestsPerSecond: 2000 });
    expect(flood.usdPerHour).toBeCloseTo(2.2296, 3);
    expect(
      floodCeiling({ ...stacks['function-url'], resultsConcurrency: undefined }, PROFILES.seed, DEFAULT_UNIT_COSTS),
    ).toBeUndefined();
    expect(floodCeiling(stacks.api, PROFILES.seed, DEFAULT_UNIT_COSTS)).toBeUndefined();
  });
});

describe('the stack as the model reads it', () => {
  it.each(['http', 'rest'] as const)('reads the %s template', (kind) => {
    const config = readStackConfig(templateFor(kind).toJSON());
    expect(config.apiKind).toBe(kind);
    expect(config.corsPreflight).toBe(true);
    expect(config.results).toBe('api');
    expect(config.consumer).toEqual({ batchSize: 10, maxBatchingWindowSeconds: 0 });
    expect(
      Object.values(config.functions).every(
        (f) =>
          f.memoryMb === 256 &&
          f.architecture === 'arm64' &&
          f.logFormat === 'JSON' &&
          f.systemLogLevel === 'WARN' &&
          !f.tracing,
      ),
    ).toBe(true);
  });

  it('prices REST above HTTP for the same month', () => {
    const rest = readStackConfig(templateFor('rest').toJSON());
    expect(line(estimate(PROFILES.seed, rest), 'restApiRequests').usd).toBeGreaterThan(
      line(estimate(PROFILES.seed, stack), 'httpApiRequests').usd * 3,
    );
  });
});

describe('measured mode', () => {
  const usage = JSON.parse(readFileSync('test/fixtures/load-run/usage.json', 'utf8'));

  it('turns a run’s metered usage into per-operation figures', () => {
    const { units, observed } = unitCostsFromUsage(usage, 'fixture');
    expect(observed.votes).toBe(100);
    expect(units.votesPerBatch).toBeCloseTo(100 / 16, 9); // 100 votes in 16 batches
    expect(units.counterWriteUnitsPerVote).toBeCloseTo(0.2, 9); // 20 UpdateItem units / 100 votes
    expect(units.sqsRequestsPerVote).toBeCloseTo((156 - 24) / 100, 9); // billed minus empty receives
    expect(units.readUnitsPerRead).toBeCloseTo(0.5, 9); // 300 units / 600 GetItems
    expect(units.writeUnitsPerCreate).toBe(2); // 4 units / 2 BatchWrites
    expect(units.billedMs).toEqual({ createPoll: 30, getPoll: 8, castVote: 20, getResults: 6, countVotes: 30 });
    expect(units.sources.counterWriteUnitsPerVote).toContain('measured');
  });

  it('scales them to the profile', () => {
    const { units } = unitCostsFromUsage(usage, 'fixture');
    const measured = estimate(PROFILES.seed, stack, units);
    // Counter writes: 15 M x 0.2 + 6,000 = 3.006 M WRU at $0.625
    expect(line(measured, 'dynamoWriteUnits').usd).toBeCloseTo(3.006 * 0.625, 6);
    expect(measured.usage.invocations.countVotes).toBeCloseTo(15e6 / 6.25, 3);
  });

  it('refuses a run that queued no votes', () => {
    const noVotes = { ...usage, queues: {} };
    expect(() => unitCostsFromUsage(noVotes, 'empty')).toThrow(MeasuredRunError);
    expect(DEFAULT_UNIT_COSTS.votesPerBatch).toBe(10); // the defaults were not touched by the runs above
  });
});

describe('profiles', () => {
  it('count a page load as the one page the site serves, gzipped as CloudFront sends it (within 5%)', () => {
    const page = pageWithConfig(buildSite().page, { apiUrl: 'https://abc.execute-api.us-east-1.amazonaws.com' });
    const gzipped = gzipSync(page).length;
    expect(
      Math.abs(PROFILES.seed.pageBytes - gzipped) / gzipped,
      `pageBytes ${PROFILES.seed.pageBytes}, the page ${gzipped} B gzipped`,
    ).toBeLessThan(0.05);
  });

  it.each([
    [{ votesPerPoll: -1 }, 'votesPerPoll', /votesPerPoll must be a number from 0 to 1,000,000,000 \(got -1\)/],
    [{ pollsPerDay: 1e9 }, 'pollsPerDay', /pollsPerDay must be a number from 0 to 1,000,000 \(got 1000000000\)/],
    [{ pollsPerDay: 1e6, votesPerPoll: 1e9 }, 'pollsPerDay', /more than a trillion votes/],
    [{ pollsPerDay: 'lots' }, 'pollsPerDay', /pollsPerDay must be a number/],
    [{ refresh: 'sometimes' }, 'refresh', /refresh must be "busy", "quiet" or a number of seconds/],
    [{ viewers: 3 }, 'viewers', /Unknown profile field "viewers"/],
    [{ oneVotePerVoter: 'yes' }, 'oneVotePerVoter', /oneVotePerVoter must be true or false/],
  ])('names the bad field in %j', (input, field, message) => {
    try {
      validateProfile(input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ProfileError);
      expect((error as ProfileError).field).toBe(field);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('takes only a JSON object from a profile file, and no preset by an inherited name', () => {
    expect(() => profileFromJson([], 'list.json')).toThrow(/must hold a JSON object of profile fields.*got an array/);
    expect(() => profileFromJson('seed', 'text.json')).toThrow(ProfileError);
    expect(profileFromJson({ votesPerPoll: 7 }, 'mine.json')).toMatchObject({
      name: 'mine.json',
      votesPerPoll: 7,
      pollsPerDay: PROFILES.seed.pollsPerDay,
    });
    expect(presetProfile('constructor')).toBeUndefined();
    expect(presetProfile('club')).toBe(PROFILES.club);
  });

  it('accepts every preset', () => {
    for (const profile of Object.values(PROFILES)) expect(validateProfile(profile)).toEqual(profile);
  });
});

describe('npm run cost', () => {
  /** The CLI's output with its prose unwrapped (it wraps at 100 columns, continuing lines with an indent). */
  const run = (...args: string[]) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'cost/cli.ts', ...args], { encoding: 'utf8' });
    return { ...result, stdout: result.stdout.replace(/\n {4}(?=\S)/g, ' ').replace(/\n {2}(?!- )(?=\S)/g, ' ') };
  };

  it('prints the bill, the VPS comparison and writes the reports', () => {
    const out = mkdtempSync(join(tmpdir(), 'cost-'));
    const result = run('--profile', 'club', '--out', out, '--template', writeTemplate());
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Total\s+<?\$[\d.,]+/);
    expect(result.stdout).toContain('Break-even');
    // Prose is wrapped and tables are narrow enough for a terminal.
    const raw = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'cost/cli.ts', '--profile', 'club', '--out', out, '--template', writeTemplate()],
      { encoding: 'utf8' },
    ).stdout;
    const widest = Math.max(...raw.split('\n').map((line) => line.length));
    expect(widest).toBeLessThanOrEqual(120);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.profile.name).toBe('club');
    expect(readFileSync(join(out, 'chart.svg'), 'utf8')).toMatch(/^<svg/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<svg');
  });

  it('draws a chart with a title, a drawn legend, no label across the profile line, and a width that follows the screen', () => {
    const out = mkdtempSync(join(tmpdir(), 'cost-'));
    expect(run('--profile', 'seed', '--out', out, '--template', writeTemplate()).status).toBe(0);
    const svg = readFileSync(join(out, 'chart.svg'), 'utf8');
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+" width="100%"[^>]*role="img" aria-labelledby="chart-title"/);
    expect(svg).toMatch(/<text id="chart-title"[^>]*>Monthly cost against monthly votes: profile “seed”/);
    const texts = [...svg.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)].map(([, attrs, text]) => ({
      x: Number(/\bx="([\d.-]+)"/.exec(attrs)![1]),
      y: Number(/\by="([\d.-]+)"/.exec(attrs)![1]),
      anchor: /text-anchor="(\w+)"/.exec(attrs)?.[1] ?? 'start',
      text,
    }));
    // One label per series, each beside a drawn swatch (a line), none drawn in ASCII.
    const legendLabels = texts.filter((t) => /^(AWS|VPS): /.test(t.text));
    expect(legendLabels).toHaveLength(DEPLOYABLE_DESIGNS.length + 1 + VPS_TIERS.length);
    for (const label of legendLabels) expect(svg).toContain(`x2="${label.x - 6}" y1="${label.y - 4}"`);
    expect(texts.filter((t) => /--|==|\.\.\./.test(t.text))).toEqual([]);
    // The dotted "this profile" line runs down the plot: no text in the plot may run across it.
    const [, lineX, top, bottom] = /<line x1="([\d.]+)" x2="\1" y1="([\d.]+)" y2="([\d.]+)" stroke="#999"/
      .exec(svg)!
      .map(Number);
    const across = texts.filter((t) => {
      const width = t.text.length * 7; // 12 px text is narrower than 7 px a character
      const left = t.anchor === 'start' ? t.x : t.anchor === 'end' ? t.x - width : t.x - width / 2;
      return t.y > top && t.y < bottom && left < lineX && left + width > lineX;
    });
    expect(across.map((t) => t.text)).toEqual([]);
  });

  it('answers --help, and a usage mistake in one line with exit code 2', () => {
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run cost -- \[options\]/);
    expect(help.stdout).toContain('--profile <name|file.json>');
    for (const [args, message] of [
      [['--profile', 'missing.json'], /^--profile missing\.json: no such file\. Run npm run cost -- --help/],
      [['--profile', 'nope'], /^Unknown profile "nope": use one of seed, club, tv-show/],
      [['--bogus'], /^Unknown option '--bogus'\./],
      [['--profile'], /argument missing/],
      [['--from', tmpdir()], /has no usage\.json: only runs against the local target are metered/],
    ] as const) {
      const result = run(...args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('opens with the cheapest design to deploy and its command, the AWS floor, and the VPS at this app’s measured capacity', () => {
    const result = run('--out', mkdtempSync(join(tmpdir(), 'cost-')), '--template', writeTemplate());
    expect(result.status, result.stderr).toBe(0);
    // After the profile's name and a blank line.
    const [first, second, third] = result.stdout.split('\n').slice(2, 5);
    expect(first).toMatch(
      /^Cheapest AWS design you can deploy for this profile: results from a function URL, \$[\d,.]+ a month .* Deploy it: npm run deploy -- -c results=function-url$/,
    );
    expect(second).toMatch(
      /^AWS floor: \$192\.00 a month: the 960 M requests browsers send, each at \$0\.20 per million/,
    );
    expect(third).toMatch(
      /^On a VPS: \$6\.00 a month on DO \$6 \(1 vCPU, 1 GB\): one process of the VPS edition serves this profile's mix at [\d,.]+ k?req\/s \(npm run bench:vps on \d{4}-\d\d-\d\d/,
    );
    expect(result.stdout).toMatch(/results via the HTTP API \(textbook\) ←/);
    expect(result.stdout).toMatch(/Reference, another program \(not used for sizing\): GO Poll/);
  });

  it('sizes the VPS from a bench file; sets a load test of a VPS beside the profile as a floor, never as its capacity; refuses other folders and failed runs', () => {
    const own = run(
      '--vps-from',
      'cost/vps-capacity.json',
      '--out',
      mkdtempSync(join(tmpdir(), 'cost-')),
      '--template',
      writeTemplate(),
    );
    expect(own.status, own.stderr).toBe(0);
    const load = run(
      '--vps-from',
      'test/fixtures/vps-load-run',
      '--out',
      mkdtempSync(join(tmpdir(), 'cost-')),
      '--template',
      writeTemplate(),
    );
    expect(load.status, load.stderr).toBe(0);
    // Sized from the benchmark as without the load test: $6 at a few percent, not dozens of boxes.
    expect(load.stdout).toMatch(/^On a VPS: \$6\.00 a month on DO \$6/m);
    expect(load.stdout).toMatch(
      /^Your VPS \(http:\/\/203\.0\.113\.7:3081, vote-storm, test\/fixtures\/vps-load-run\): served 80 req\/s at p99 6 ms, a floor, below this profile's design rate of 2,000 req\/s/m,
    );
    const wrong = run('--vps-from', 'test/fixtures/load-run');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/is not a load test of the VPS edition/);
    const failedRun = mkdtempSync(join(tmpdir(), 'vps-run-'));
    const summary = JSON.parse(readFileSync('test/fixtures/vps-load-run/summary.json', 'utf8'));
    writeFileSync(join(failedRun, 'summary.json'), JSON.stringify({ ...summary, artilleryExitCode: 1 }));
    const failed = run('--vps-from', failedRun);
    expect(failed.status).toBe(2);
    expect(failed.stderr).toMatch(/is a failed run \(see its summary\.json\): it shows nothing about the box\./);
  });

  it('says what the stack costs idle, and that a small measured run is rough', () => {
    const out = mkdtempSync(join(tmpdir(), 'cost-'));
    const result = run('--from', 'test/fixtures/load-run', '--out', out, '--template', writeTemplate());
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /Idle, with no traffic at all: \$0\.00 a month \(SQS FIFO requests .*inside the free tier/,
    );
    expect(result.stdout).toMatch(/measured from only 100 vote\(s\) .* are rough, and are scaled here to 15\.0 M/);
  });

  it('names the bad field of a profile file and exits 2', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'profile-')), 'bad.json');
    writeFileSync(file, JSON.stringify({ watchMinutes: 'ten' }));
    const result = run('--profile', file);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('watchMinutes must be a number');
  });
});

function writeTemplate(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'template-')), 'template.json');
  writeFileSync(file, JSON.stringify(templateFor('http').toJSON()));
  return file;
}
