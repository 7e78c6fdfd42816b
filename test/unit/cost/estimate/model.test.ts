/**
 * The cost model (cost/estimate/model.ts): a month of usage from a profile and a stack, one results design
 * at a time, and its bill, checked against arithmetic done by hand (shown in comments).
 */
import { describe, expect, it } from 'vitest';
import { bytesToUnits } from '../../../../pricing/price-lines';
import { NEW_ACCOUNT_CREDITS } from '../../../../pricing/plans-and-credits';
import { appShare, monthVolumes } from '../../../../cost/estimate/shares';
import { estimate } from '../../../../cost/estimate/model';
import { monthlyUsage, type MonthlyUsage } from '../../../../cost/estimate/monthly-usage';
import { priceUsage } from '../../../../cost/estimate/bill';
import { tieredCost } from '../../../../pricing/tiers';
import { RESULTS_SHARES } from '../../../../cost/estimate/results-shares';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { PROFILES } from '../../../../cost/usage/profiles';
import type { StackConfig } from '../../../../cost/estimate/stack-config';
import { billLine as line, designStack } from '../../../support/cost';
import { US_EAST_1, BILL, NEW_ACCOUNT } from '../../../support/prices';

const stack = designStack();

describe('tiered prices', () => {
  it('crosses the HTTP API tier at the 300-millionth request', () => {
    expect(tieredCost(300e6, US_EAST_1.prices.httpApiRequests)).toBeCloseTo(300, 9); // 300 M x $1/M
    expect(tieredCost(300e6 + 1, US_EAST_1.prices.httpApiRequests)).toBeCloseTo(300 + 0.9e-6, 9); // next: $0.90/M
    expect(tieredCost(400e6, US_EAST_1.prices.httpApiRequests)).toBeCloseTo(300 + 100 * 0.9, 9); // $390
  });

  it('walks the REST API tiers', () => {
    // 333 M x $3.50 = $1,165.50; then 667 M x $2.80 = $1,867.60
    expect(tieredCost(333e6, US_EAST_1.prices.restApiRequests)).toBeCloseTo(1165.5, 6);
    expect(tieredCost(1000e6, US_EAST_1.prices.restApiRequests)).toBeCloseTo(1165.5 + 1867.6, 6);
  });

  it('walks the Lambda GB-second tiers', () => {
    // x86: 6 B GB-s x $0.0000166667 = $100,000.20; the next 1 B at $0.000015 = $15,000
    expect(tieredCost(6e9, US_EAST_1.prices.lambdaX86GbSeconds)).toBeCloseTo(100_000.2, 4);
    expect(tieredCost(7e9, US_EAST_1.prices.lambdaX86GbSeconds)).toBeCloseTo(115_000.2, 4);
    // arm64: 7.5 B x $0.0000133334 = $100,000.50
    expect(tieredCost(7.5e9, US_EAST_1.prices.lambdaArmGbSeconds)).toBeCloseTo(100_000.5, 4);
  });

  it('walks CloudFront’s transfer tiers past 50 TB and Lambda logs’ ingestion tiers, a TB of 1,024 GB', () => {
    const TB = 1024;
    // 60 TB out: 10 TB x $0.085 + 40 TB x $0.080 + 10 TB x $0.060
    expect(tieredCost(60 * TB, US_EAST_1.prices.cloudFrontTransfer)).toBeCloseTo(
      TB * (10 * 0.085 + 40 * 0.08 + 10 * 0.06),
      6,
    );
    // Past 5 PB: every tier crossed, then $0.020
    const fivePb = TB * (10 * 0.085 + 40 * 0.08 + 100 * 0.06 + 350 * 0.04 + 524 * 0.03 + 4 * 1024 * 0.025);
    expect(tieredCost(5 * 1024 * TB + 1, US_EAST_1.prices.cloudFrontTransfer)).toBeCloseTo(fivePb + 0.02, 6);
    // 60 TB of Lambda logs: 10 TB x $0.50 + 20 TB x $0.25 + 20 TB x $0.10 + 10 TB x $0.05 = $12,800
    expect(tieredCost(60 * TB, US_EAST_1.prices.logsIngestion)).toBeCloseTo(12_800, 6);
  });

  it('turns bytes into the GB AWS bills for that line: 2^30 bytes', () => {
    for (const id of ['cloudFrontTransfer', 'cloudFrontOriginTransfer', 'dataTransferOut', 'logsIngestion'] as const)
      expect(bytesToUnits(2 ** 30, id)).toBe(1);
    expect(() => bytesToUnits(2 ** 30, 'lambdaRequests')).toThrow('The price lambdaRequests is not a price per GB.');
  });
});

describe('free tiers', () => {
  const usage = (changes: Partial<MonthlyUsage>): MonthlyUsage => ({
    ...monthlyUsage({ ...PROFILES.club, pollsPerDay: 0 }, stack),
    sqsRequests: 0,
    ...changes,
  });

  it("shows a new account's sign-up credits when asked, once, at most a month's bill; no 12-month free tier", () => {
    const u = usage({ apiRequests: 1.5e6 });
    expect(line(priceUsage(u, stack, BILL), 'httpApiRequests').usd).toBeCloseTo(1.5, 9); // 1.5 M x $1
    // The line is the same for a new account: AWS gives credits now, not a free million (since 2025-07-15).
    const fresh = priceUsage(u, stack, NEW_ACCOUNT);
    expect(line(fresh, 'httpApiRequests').usd).toBeCloseTo(1.5, 9);
    // Once: the credits cover the first month (up to $100); every month's bill stays what it is.
    expect(fresh).toMatchObject({
      creditsUsd: priceUsage(u, stack, BILL).totalUsd,
      totalUsd: priceUsage(u, stack, BILL).totalUsd,
    });
    const big = priceUsage(usage({ apiRequests: 300e6 }), stack, NEW_ACCOUNT);
    expect(big.creditsUsd).toBe(NEW_ACCOUNT_CREDITS.usd);
    expect(big.totalUsd).toBeCloseTo(
      big.lines.reduce((sum, l) => sum + l.usd, 0),
      9,
    );
  });

  it('always counts the permanent ones, and shares the Lambda GB-second pool between architectures', () => {
    const u = usage({
      invocations: { createPoll: 1.5e6, getPoll: 0, castVote: 0, getResults: 0, countVotes: 0 },
      gbSeconds: { arm64: 300_000, x86_64: 300_000 },
    });
    const bill = priceUsage(u, stack, BILL);
    expect(line(bill, 'lambdaRequests').usd).toBeCloseTo(0.1, 9); // (1.5 - 1) M x $0.20
    expect(line(bill, 'lambdaArmGbSeconds').usd).toBe(0); // the first 300k of the 400k pool
    expect(line(bill, 'lambdaX86GbSeconds').usd).toBeCloseTo(200_000 * 0.0000166667, 9); // 100k left of the pool
  });
});

describe('the seed profile, line by line', () => {
  const bill = estimate(PROFILES.seed, stack, DEFAULT_UNIT_COSTS, BILL);
  const u = bill.usage;
  // A poll's 5,000 votes over 30 minutes and 4 message groups, 40 ms a batch: x = 0.0278 votes arrive in a group
  // while its last batch runs, so a batch holds e^-x + x = 1.0004 votes (cost/estimate/rates.ts): ~one write a vote.
  const x = (5000 / 1800 / 4) * 0.04;
  const batches = 15e6 / (Math.exp(-x) + x);

  it('derives the month from the profile', () => {
    expect(u.polls).toBe(3000); // 100 a day x 30
    expect(u.votes).toBe(15e6); // x 5,000
    expect(u.pageLoads).toBe(15e6 + 3000); // one per voter, plus the creators'
    expect(u.resultsRequests).toBe(3000 * 5000 * 60); // 2 minutes at one request per 2 s = 60 each
    // creates, poll loads, votes, results, preflights
    expect(u.apiRequests).toBe(3000 + 15e6 + 15e6 + 900e6 + 15_003_000);
    // 945 M a month is ~365 requests/s on average: the seed's "about 350 requests / second".
    expect(u.apiRequests / (30 * 86400)).toBeCloseTo(364.6, 1);
  });

  it('prices every line as done by hand', () => {
    // API: 300 M x $1 + 645.006 M x $0.90
    expect(line(bill, 'httpApiRequests').usd).toBeCloseTo(300 + 645.006 * 0.9, 4);
    // Lambda requests: 3,000 + 15 M + 15 M + 900 M + 14.994 M batches, 1 M free, x $0.20
    expect(line(bill, 'lambdaRequests').usd).toBeCloseTo(((930.003e6 + batches - 1e6) / 1e6) * 0.2, 4);
    // GB-s = count x (billed ms + its cold-start share x 250 ms INIT) / 1000 x 0.25 GB, summed (results: 2 ms, mostly
    // from the function's cache); 400k free; x $0.0000133334. The shares follow the traffic (cold-starts.test.ts).
    const cold = u.coldStartShares;
    const gbs =
      ([
        3000 * (30 + cold.createPoll * 250),
        15e6 * (12 + cold.getPoll * 250),
        15e6 * (25 + cold.castVote * 250),
        900e6 * (2 + cold.getResults * 250),
        batches * (40 + cold.countVotes * 250),
      ].reduce((a, b) => a + b, 0) /
        1000) *
      0.25;
    expect(u.gbSeconds.arm64).toBeCloseTo(gbs, 3);
    expect(line(bill, 'lambdaArmGbSeconds').usd).toBeCloseTo((gbs - 400_000) * 0.0000133334, 4);
    // SQS: a send a vote, a receive and a delete a batch, 0.45 M idle receives, 1 M free, x $0.50
    expect(line(bill, 'sqsFifoRequests').usd).toBeCloseTo(((15e6 + 2 * batches + 0.45e6 - 1e6) / 1e6) * 0.5, 6);
    // Writes: 3,000 creates x 2 + a counter write a batch, x $0.625
    expect(line(bill, 'dynamoWriteUnits').usd).toBeCloseTo(((6000 + batches) / 1e6) * 0.625, 6);
    // Reads: (15 M poll loads + 15 M votes) x 0.5 RRU, and the results function's reads, x $0.125. Each of its
    // environments (one per 10 requests a second) reads each open poll once per 2 s: 2.08 polls open over 20 s of
    // requests, 0.104 reads a request, of half a unit each.
    const resultsReads = 900e6 * ((100 * 30) / 1440 / (10 * 2)) * 0.5;
    expect(line(bill, 'dynamoReadUnits').usd).toBeCloseTo(((15e6 + resultsReads) / 1e6) * 0.125, 6);
    // CloudFront: 15.003 M page loads x 1 request (the page carries everything) = 15.003 M, 10 M free, x $0.01 per 10k
    expect(line(bill, 'cloudFrontRequests').usd).toBeCloseTo(500.3 * 0.01, 6);
    // The router function on each of those: 15.003 M, 2 M free, x $0.10 per M
    expect(line(bill, 'cloudFrontFunctions').usd).toBeCloseTo(13.003 * 0.1, 6);
    // API responses: 945.006 M x 450 B = 425.25e9 B = 396.05 GB of AWS's 2^30 bytes, 100 GB free, x $0.09
    expect(line(bill, 'dataTransferOut').usd).toBeCloseTo((425.2527e9 / 2 ** 30 - 100) * 0.09, 4);
    // Logs: only the consumer's INFO line and metrics line per batch: 14.994 M x (300 + 370) B = 9.36 GB of 2^30
    // bytes, 5 GB free, x $0.50 (the first tier: up to 10 TB)
    expect(line(bill, 'logsIngestion').usage).toBeCloseTo((batches * 670) / 2 ** 30, 6);
    expect(line(bill, 'logsIngestion').usd).toBeCloseTo(((batches * 670) / 2 ** 30 - 5) * 0.5, 6);
    // The consumer's 4 custom metrics and the 2 alarms (dead letters, consumer failures): inside the 10 free of each
    expect(line(bill, 'customMetrics')).toMatchObject({ usage: 4, usd: 0 });
    expect(line(bill, 'alarms')).toMatchObject({ usage: 2, usd: 0 });
    expect(bill.totalUsd).toBeCloseTo(1148.47, 1);
    expect(bill.usdPerMillionVotes).toBeCloseTo(bill.totalUsd / 15, 6);
  });
});

describe('the seed profile in the other designs', () => {
  it('prices results from a function URL at Lambda’s request price only', () => {
    const b = estimate(PROFILES.seed, designStack({ results: 'function-url' }), DEFAULT_UNIT_COSTS, BILL);
    // API Gateway: creates, poll reads, votes and their preflights only: 45.006 M x $1
    expect(line(b, 'httpApiRequests').usage).toBe(45.006e6);
    expect(line(b, 'httpApiRequests').usd).toBeCloseTo(45.006, 6);
    // The 900 M results are Lambda requests, billed with the rest, as in the textbook design
    expect(line(b, 'lambdaRequests').usd).toBe(
      line(estimate(PROFILES.seed, stack, DEFAULT_UNIT_COSTS, BILL), 'lambdaRequests').usd,
    );
    expect(b.usage.functionUrlRequests).toBe(900e6);
    // Their answers leave as Lambda's data transfer out: (45.006 M + 900 M) x 450 B = 396.05 GB of 2^30 bytes, 100 GB
    // free, x $0.09
    expect(line(b, 'dataTransferOut').usd).toBeCloseTo((425.2527e9 / 2 ** 30 - 100) * 0.09, 4);
    // The textbook design's bill less its results' API requests (900 M: $855.00 tiered) and their 0.0106 RRU
    // kept (the same function answers them)
    expect(b.totalUsd).toBeCloseTo(
      estimate(PROFILES.seed, stack, DEFAULT_UNIT_COSTS, BILL).totalUsd -
        line(estimate(PROFILES.seed, stack, DEFAULT_UNIT_COSTS, BILL), 'httpApiRequests').usd +
        45.006,
      2,
    );
  });

  it('prices results and poll reads cached at CloudFront, the API behind it: no preflights, all via CloudFront', () => {
    const b = estimate(PROFILES.seed, designStack({ results: 'cloudfront' }), DEFAULT_UNIT_COSTS, BILL);
    expect(b.usage.preflights).toBe(0);
    // 15.003 M pages + 900 M results + 30.003 M creates, reads and votes passed through = 945.006 M
    expect(b.usage.cloudFrontRequests).toBe(945.006e6);
    // Each of 13 regional caches asks the API once per 2 s for each poll's 2 minutes: 3,000 x 13 x 60 = 2.34 M
    // results; and once per 30 s for each poll's 30 minutes open: 3,000 x 13 x 60 = 2.34 M of its 15 M reads. With
    // 3,000 creates and 15 M votes: 15.003 M + 2.34 M + 2.34 M.
    expect(b.usage.apiRequests).toBe(15.003e6 + 2.34e6 + 2.34e6);
    expect(b.usage.invocations.getPoll).toBe(2.34e6);
    expect(b.lines.find((l) => l.priceId === 'dataTransferOut')).toBeUndefined();
  });

  it('prices REST above HTTP for the same month', () => {
    const rest = designStack({ apiKind: 'rest' });
    expect(line(estimate(PROFILES.seed, rest, DEFAULT_UNIT_COSTS, BILL), 'restApiRequests').usd).toBeGreaterThan(
      line(estimate(PROFILES.seed, stack, DEFAULT_UNIT_COSTS, BILL), 'httpApiRequests').usd * 3,
    );
  });
});

describe('one results design at a time', () => {
  const profile = PROFILES.seed;
  const designed = (results: StackConfig['results']): StackConfig => ({ ...stack, results });
  const volumes = monthVolumes(profile, stack, DEFAULT_UNIT_COSTS);
  const app = appShare(volumes, profile, DEFAULT_UNIT_COSTS);

  // What each design adds to the seed's month, by hand: 900 M results requests; CloudFront's 13 regional caches
  // ask 3,000 x 13 x 60 = 2.34 M of them; WebSocket pushes instead, with a broadcast per poll per 2 s.
  it.each([
    ['api', { apiRequests: 900e6, clientRequests: 900e6, getResults: 900e6, functionUrlRequests: 0 }],
    ['function-url', { apiRequests: 0, clientRequests: 900e6, getResults: 900e6, functionUrlRequests: 900e6 }],
    ['cloudfront', { apiRequests: 2.34e6, clientRequests: 900e6, getResults: 2.34e6, functionUrlRequests: 0 }],
    // 3,000 polls x 60 broadcasts, plus a connect and a disconnect per viewer: 2 x 15 M
    ['websocket', { apiRequests: 0, clientRequests: 0, getResults: 180_000 + 30e6, functionUrlRequests: 0 }],
  ] as const)('the %s design adds only its own share to what every design has', (results, added) => {
    const share = RESULTS_SHARES[results](volumes, designed(results), DEFAULT_UNIT_COSTS, profile);
    const month = monthlyUsage(profile, designed(results));
    expect(month.apiRequests - app.apiRequests!).toBe(added.apiRequests);
    expect(month.clientRequests - app.clientRequests!).toBe(added.clientRequests);
    expect(month.invocations.getResults).toBe(added.getResults);
    expect(month.functionUrlRequests).toBe(added.functionUrlRequests);
    expect(share.work?.every((w) => w.role === 'getResults')).toBe(true);
  });

  it('bills WebSocket messages and connection minutes only for the WebSocket design', () => {
    for (const results of ['api', 'function-url', 'cloudfront'] as const)
      expect(monthlyUsage(profile, designed(results))).toMatchObject({
        webSocketMessages: 0,
        webSocketConnectionMinutes: 0,
      });
    // One message per viewer per push (as many as the requests the page would have made); 15 M viewers x 2 minutes
    expect(monthlyUsage(profile, designed('websocket'))).toMatchObject({
      webSocketMessages: 900e6,
      webSocketConnectionMinutes: 30e6,
    });
  });
});
