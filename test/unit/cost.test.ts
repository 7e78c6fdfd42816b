/**
 * The cost model, checked against arithmetic done by hand (shown in comments).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASELINE_VPS, VPS_TIERS } from '../../cost/vps';
import { breakEven, vpsCost } from '../../cost/compare';
import { MeasuredRunError, unitCostsFromUsage } from '../../cost/measured';
import { DEFAULT_UNIT_COSTS, estimate, monthlyUsage, priceUsage, tieredCost, type MonthlyUsage } from '../../cost/model';
import { PRICES } from '../../cost/prices';
import { presetProfile, profileFromJson, PROFILES, ProfileError, validateProfile } from '../../cost/profiles';
import { readStackConfig, type StackConfig } from '../../cost/stack-config';
import { templateFor } from '../support/synth';

const stack: StackConfig = readStackConfig(templateFor('http').toJSON());
const line = (bill: ReturnType<typeof estimate>, priceId: string) => bill.lines.find((l) => l.priceId === priceId)!;

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
  const usage = (changes: Partial<MonthlyUsage>): MonthlyUsage => ({ ...monthlyUsage({ ...PROFILES.club, pollsPerDay: 0 }, stack), sqsRequests: 0, ...changes });

  it('counts the new-account API Gateway million only when asked', () => {
    const u = usage({ apiRequests: 1.5e6 });
    expect(line(priceUsage(u, stack), 'httpApiRequests').usd).toBeCloseTo(1.5, 9); // 1.5 M x $1
    expect(line(priceUsage(u, stack, { newAccount: true }), 'httpApiRequests').usd).toBeCloseTo(0.5, 9); // (1.5 - 1) M x $1
  });

  it('always counts the permanent ones, and shares the Lambda GB-second pool between architectures', () => {
    const u = usage({ invocations: { createPoll: 1.5e6, getPoll: 0, castVote: 0, getResults: 0, countVotes: 0 }, gbSeconds: { arm64: 300_000, x86_64: 300_000 } });
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
    // GB-s = count x (billed ms + 0.5% x 250 ms INIT) / 1000 x 0.25 GB, summed; 400k free; x $0.0000133334
    const gbs = [3000 * 31.25, 15e6 * 13.25, 15e6 * 26.25, 900e6 * 13.25, 1.5e6 * 41.25].reduce((a, b) => a + b, 0) / 1000 * 0.25;
    expect(u.gbSeconds.arm64).toBeCloseTo(gbs, 3);
    expect(line(bill, 'lambdaArmGbSeconds').usd).toBeCloseTo((gbs - 400_000) * 0.0000133334, 4);
    // SQS: 15 M x 1.2 + 0.45 M idle receives, 1 M free, x $0.50
    expect(line(bill, 'sqsFifoRequests').usd).toBeCloseTo(17.45 * 0.5, 6);
    // Writes: 3,000 creates x 2 + 15 M x 0.125 counter writes = 1.881 M x $0.625
    expect(line(bill, 'dynamoWriteUnits').usd).toBeCloseTo(1.881 * 0.625, 6);
    // Reads: (15 M poll loads + 15 M votes + 900 M results) x 0.5 RRU = 465 M x $0.125
    expect(line(bill, 'dynamoReadUnits').usd).toBeCloseTo(465 * 0.125, 6);
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
    expect(bill.totalUsd).toBeCloseTo(1206.88, 1);
    expect(bill.usdPerMillionVotes).toBeCloseTo(bill.totalUsd / 15, 6);
  });

  it('sizes the VPS for the peak and finds where serverless overtakes the $15 box', () => {
    const vps = vpsCost(BASELINE_VPS, PROFILES.seed, bill);
    // 2,000 req/s peak (3 x the 365 average is less) / (12,000 x 50%) -> 1 box; 515 GB is within 3 TB
    expect(vps).toMatchObject({ boxes: 1, overageUsd: 0, totalUsd: 15 });
    const even = breakEven(BASELINE_VPS, PROFILES.seed, stack);
    expect(even.votes).toBeGreaterThan(1e5);
    expect(even.votes).toBeLessThan(15e6);
    // At the break-even volume the two bills match.
    const scaled = { ...PROFILES.seed, pollsPerDay: (PROFILES.seed.pollsPerDay * even.votes!) / 15e6 };
    expect(estimate(scaled, stack).totalUsd).toBeCloseTo(15, 2);
  });

  it('needs more boxes when one hot poll peaks high', () => {
    const tv = estimate(PROFILES['tv-show'], stack);
    // 20,000 req/s / (5,800 x 1 vCPU x 50%) = 6.9 -> 7 boxes of the $6 tier
    expect(vpsCost(VPS_TIERS[0], PROFILES['tv-show'], tv).boxes).toBe(7);
  });
});

describe('the stack as the model reads it', () => {
  it.each(['http', 'rest'] as const)('reads the %s template', (kind) => {
    const config = readStackConfig(templateFor(kind).toJSON());
    expect(config.apiKind).toBe(kind);
    expect(config.corsPreflight).toBe(true);
    expect(config.resultsDelivery).toBe('direct');
    expect(config.consumer).toEqual({ batchSize: 10, maxBatchingWindowSeconds: 0 });
    expect(Object.values(config.functions).every((f) => f.memoryMb === 256 && f.architecture === 'arm64' && f.logFormat === 'JSON' && f.systemLogLevel === 'WARN' && !f.tracing)).toBe(true);
  });

  it('prices REST above HTTP for the same month', () => {
    const rest = readStackConfig(templateFor('rest').toJSON());
    expect(line(estimate(PROFILES.seed, rest), 'restApiRequests').usd).toBeGreaterThan(line(estimate(PROFILES.seed, stack), 'httpApiRequests').usd * 3);
  });

  it('keeps cost/stack-config.json equal to the synthesized stack (npm run cost:snapshot)', () => {
    expect(JSON.parse(readFileSync('cost/stack-config.json', 'utf8'))).toEqual(stack);
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
    expect(profileFromJson({ votesPerPoll: 7 }, 'mine.json')).toMatchObject({ name: 'mine.json', votesPerPoll: 7, pollsPerDay: PROFILES.seed.pollsPerDay });
    expect(presetProfile('constructor')).toBeUndefined();
    expect(presetProfile('club')).toBe(PROFILES.club);
  });

  it('accepts every preset', () => {
    for (const profile of Object.values(PROFILES)) expect(validateProfile(profile)).toEqual(profile);
  });
});

describe('npm run cost', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'cost/cli.ts', ...args], { encoding: 'utf8' });

  it('prints the bill, the VPS comparison and writes the reports', () => {
    const out = mkdtempSync(join(tmpdir(), 'cost-'));
    const result = run('--profile', 'club', '--out', out, '--template', writeTemplate());
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Total\s+<?\$[\d.,]+/);
    expect(result.stdout).toContain('Break-even');
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.profile.name).toBe('club');
    expect(readFileSync(join(out, 'chart.svg'), 'utf8')).toMatch(/^<svg/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<svg');
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

  it('says what the stack costs idle, and that a small measured run is rough', () => {
    const out = mkdtempSync(join(tmpdir(), 'cost-'));
    const result = run('--from', 'test/fixtures/load-run', '--out', out, '--template', writeTemplate());
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Idle, with no traffic at all: \$0\.00 a month \(SQS FIFO requests .*inside the free tier/);
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
