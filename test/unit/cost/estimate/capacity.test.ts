/**
 * The capacity verdicts (cost/estimate/capacity.ts) and the recommendation they lead to: each verdict pinned
 * to the quota (config/aws-quotas.ts) or template value it comes from, so that changing that value
 * changes the verdict; the peak each is checked against is derived from the profile's fields.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_THROTTLE } from '../../../../config/throttling';
import { RESULTS_URL } from '../../../../config/results-delivery';
import { capacityOf, MAX_RAMP_SECONDS, RAISE_HEADROOM, roundUp } from '../../../../cost/estimate/capacity';
import type { Account } from '../../../../cost/estimate/stages';
import { recommend } from '../../../../cost/estimate/designs';
import { DEFAULT_UNIT_COSTS, type UnitCosts } from '../../../../cost/usage/unit-costs';
import { derivePeak, peakWorking } from '../../../../cost/usage/peaks';
import { PROFILES, validateProfile } from '../../../../cost/usage/profiles';
import { resultsRequestsPerViewer, type TrafficProfile } from '../../../../cost/usage/traffic-profile';
import { QUOTAS, type QuotaId } from '../../../../config/aws-quotas';
import type { StackConfig } from '../../../../cost/estimate/stack-config';
import { capacityRows } from '../../../../cost/report/capacity-lines';
import { renderDetail } from '../../../../cost/report/render-text';
import { costReport, designStack, restoreQuotas, setQuota } from '../../../support/cost';
import { quota } from '../../../../sizing/quotas';
import { votePathFor } from '../../../../sizing/vote-path';

const functionUrl = designStack({ results: 'function-url' });
const cloudFront = designStack({ results: 'cloudfront' });
const api = designStack();

const verdict = (
  stack: StackConfig,
  profile: TrafficProfile,
  account: Account = 'established',
  units: UnitCosts = DEFAULT_UNIT_COSTS,
) => capacityOf(stack, derivePeak(profile), units, { account, profile });

// Quotas changed by a test (setQuota), put back after it.
afterEach(restoreQuotas);

describe('the peak a profile brings', () => {
  it("is the hottest poll's busiest minute, its viewers over their refresh, and the other open polls", () => {
    const tv = PROFILES['tv-show'];
    const peak = derivePeak(tv);
    const votesPerSecond = (tv.votesPerPoll / (tv.votingMinutes * 60)) * tv.busiestMinuteFactor;
    expect(peak.hottestPoll.votesPerSecond).toBeCloseTo(votesPerSecond, 6);
    // Every viewer watches the whole window, asking every 2 s while votes arrive.
    expect(peak.hottestPoll.resultsRequestsPerSecond).toBeCloseTo(tv.resultsViewersPerPoll / 2, 6);
    const seed = derivePeak(PROFILES.seed);
    const open = (PROFILES.seed.pollsPerDay * PROFILES.seed.busyHourFactor * PROFILES.seed.votingMinutes) / (24 * 60);
    expect(seed.pollsOpenAtOnce).toBeCloseTo(open, 9);
    // The other polls open at once at their average: each viewer's requests over the poll's window.
    const { resultsViewersPerPoll, votingMinutes } = PROFILES.seed;
    const average = (resultsViewersPerPoll * resultsRequestsPerViewer(PROFILES.seed)) / (votingMinutes * 60);
    expect(seed.routes.results).toBeCloseTo(seed.hottestPoll.resultsRequestsPerSecond + average * (open - 1), 6);
  });
});

describe('the watchers of the busiest second follow arrivals', () => {
  // A small site's burst: 300 of a poll's 800 votes (and viewers) in its first minute, each watching for a minute.
  const burst: TrafficProfile = {
    ...PROFILES.seed,
    pollsPerDay: 40,
    votesPerPoll: 800,
    votingMinutes: 120,
    busiestMinuteFactor: 45,
    resultsViewersPerPoll: 800,
    watchMinutes: 1,
  };

  it('counts those who arrived within one watch of the busiest minute, at its rate', () => {
    const { hottestPoll } = derivePeak(burst);
    const arrivedInTheBusiestMinute = (burst.resultsViewersPerPoll / burst.votingMinutes) * burst.busiestMinuteFactor;
    expect(hottestPoll.viewersAtOnce).toBeCloseTo(arrivedInTheBusiestMinute, 9);
    expect(hottestPoll.viewersAtOnce).toBeCloseTo(300, 9);
    // Each asks every 2 s while votes pour in.
    expect(hottestPoll.resultsRequestsPerSecond).toBeCloseTo(150, 9);
  });

  it('adds the average arrivals before the busiest minute for a longer watch, never more than the viewers', () => {
    const perMinute = burst.resultsViewersPerPoll / burst.votingMinutes;
    const longer = derivePeak({ ...burst, watchMinutes: 3 }).hottestPoll;
    expect(longer.viewersAtOnce).toBeCloseTo(perMinute * (45 + 2), 9);
    const whole = derivePeak({ ...burst, watchMinutes: 120 }).hottestPoll;
    expect(whole.viewersAtOnce).toBe(burst.resultsViewersPerPoll);
  });

  it('says the rule in the working with its numbers', () => {
    const peak = derivePeak(burst);
    const results = peakWorking(burst, peak).find((line) => line.startsWith('Its results'))!;
    expect(results).toContain('800 viewers arrive over 120 min (6.67 a minute)');
    expect(results).toContain('6.67 × 45 × 1 min = 300 watching at once, each asking every 2 s = 150 req/s');
  });
});

describe('a verdict comes from the template', () => {
  it('the function URL carries the seed within its reserved concurrency, and stops carrying below it', () => {
    const seed = verdict(functionUrl, PROFILES.seed);
    const results = derivePeak(PROFILES.seed).routes.results;
    expect(seed).toMatchObject({ carries: true, bottleneck: null });
    expect(seed.tightest).toMatchObject({
      name: 'results function URL: reserved concurrency',
      load: results,
      limit: RESULTS_URL.reservedConcurrency * RESULTS_URL.requestsPerSecondPerConcurrency,
    });
    const capped = Math.floor(results / RESULTS_URL.requestsPerSecondPerConcurrency) - 1;
    const smaller = verdict({ ...functionUrl, resultsConcurrency: capped }, PROFILES.seed);
    expect(smaller).toMatchObject({ carries: false, bottleneck: 'resultsReservedConcurrency' });
    expect(smaller.carriesWith?.flags).toEqual({
      resultsConcurrency: String(roundUp((RAISE_HEADROOM * results) / RESULTS_URL.requestsPerSecondPerConcurrency)),
    });
  });

  it("the API stage's throttle: a smaller one binds, and its own flag sized for the load lifts it", () => {
    expect(verdict(api, PROFILES.seed).tightest).toMatchObject({
      name: 'API stage throttle',
      limit: API_THROTTLE.rateLimit,
    });
    const throttled = { ...api, votePath: { ...api.votePath, stageRateLimit: 500 } };
    const seed = verdict(throttled, PROFILES.seed);
    expect(seed).toMatchObject({ carries: false, bottleneck: 'apiStageThrottle' });
    // The stage's own flag, not the hot-poll flag: the seed's hottest poll needs no bigger vote path.
    expect(seed.carriesWith?.flags).toEqual({ apiRateLimit: String(roundUp(RAISE_HEADROOM * seed.tightest.load)) });
  });

  it('never deploys a stage above the account throttle it does not ask AWS to raise', () => {
    const account = quota('apiAccountRequestsPerSecond');
    // An API load just under the account's throttle: a quarter of headroom would take the stage past it.
    const near = validateProfile({ pollsPerDay: 100, resultsViewersPerPoll: 42_000, votesPerPoll: 5000 });
    const c = verdict(api, near);
    const load = c.stages.find((s) => s.name === 'API stage throttle')!.load;
    expect(load).toBeGreaterThan(account / RAISE_HEADROOM);
    expect(load).toBeLessThan(account);
    expect(c.carriesWith).toMatchObject({ flags: { apiRateLimit: String(account) }, quotaRaises: [] });
  });

  it("a hot poll's message groups and counter items: as many as the template gives", () => {
    const hot = validateProfile({ pollsPerDay: 1, votesPerPoll: 600_000, votingMinutes: 10, busiestMinuteFactor: 1 });
    // 1,000 votes a second: under 4 groups' 1,200 sends, over 2 groups' 600.
    expect(verdict(api, hot).stages.find((s) => s.name === 'message groups of the hottest poll')).toMatchObject({
      load: 1000,
      limit: 4 * QUOTAS.sqsFifoSendsPerGroup.value,
    });
    const fewer = verdict({ ...api, votePath: { ...api.votePath, groupsPerPoll: 2 } }, hot);
    expect(fewer.stages.find((s) => s.name === 'message groups of the hottest poll')!.load).toBeGreaterThan(
      fewer.stages.find((s) => s.name === 'message groups of the hottest poll')!.limit,
    );
    expect(fewer.carries).toBe(false);
    expect(fewer.carriesWith?.flags.hotPollVotesPerSecond).toBeDefined();
  });
});

describe('a verdict comes from the quota sheet', () => {
  it("tv-show on CloudFront: each raise is a quota's value, and a higher quota needs no raise", () => {
    const tv = verdict(cloudFront, PROFILES['tv-show']);
    const raised = (id: QuotaId) => tv.carriesWith?.quotaRaises.find((r) => r.quota === id);
    expect(raised('cloudFrontRequestsPerSecond')).toEqual({
      quota: 'cloudFrontRequestsPerSecond',
      from: 250_000,
      to: roundUp(RAISE_HEADROOM * derivePeak(PROFILES['tv-show']).requestsPerSecond),
    });
    expect(raised('apiAccountRequestsPerSecond')?.from).toBe(QUOTAS.apiAccountRequestsPerSecond.value);
    setQuota('cloudFrontRequestsPerSecond', 1_000_000);
    setQuota('apiAccountRequestsPerSecond', 1_000_000);
    const names = verdict(cloudFront, PROFILES['tv-show']).carriesWith?.quotaRaises.map((r) => r.quota);
    expect(names).not.toContain('cloudFrontRequestsPerSecond');
    expect(names).not.toContain('apiAccountRequestsPerSecond');
  });

  it("a new account's concurrency: the function URL's reservation cannot be deployed, without one it can", () => {
    const club = verdict(functionUrl, PROFILES.club, 'new');
    expect(club).toMatchObject({ carries: false, bottleneck: 'reservableConcurrency' });
    expect(club.carriesWith).toEqual({ flags: { resultsConcurrency: 'off' }, quotaRaises: [], rampSeconds: 0 });
    expect(verdict(functionUrl, PROFILES.club, 'established').carries).toBe(true);
  });

  it("Lambda's scaling rate: the function URL reaches a big show's results only after minutes of 429s", () => {
    // 200,000 viewers: 100,000 results requests a second, the poll's key read within what AWS gives a key.
    const show = { ...PROFILES['tv-show'], resultsViewersPerPoll: 200_000 };
    const tv = verdict(functionUrl, show);
    expect(tv.bottleneck).toBe('resultsReservedConcurrency');
    const environments = derivePeak(show).routes.results / 10;
    const steps = Math.ceil(environments / QUOTAS.lambdaScalingPerTenSeconds.value) - 1;
    expect(tv.carriesWith?.rampSeconds).toBe(10 * steps);
    expect(tv.carriesWith!.rampSeconds).toBeGreaterThan(MAX_RAMP_SECONDS);
    setQuota('lambdaScalingPerTenSeconds', 100_000);
    expect(verdict(functionUrl, show).carriesWith?.rampSeconds).toBe(0);
  });

  it("the hottest poll's key: every results environment reads it once a cache period, past what a key takes", () => {
    // tv-show's 250,000 results requests a second need 25,000 environments: 12,500 reads a second of half a unit.
    const tv = verdict(functionUrl, PROFILES['tv-show']);
    const key = tv.sizedStages.find((s) => s.name === "the hottest poll's own key: reads")!;
    expect(key.load).toBeGreaterThan((derivePeak(PROFILES['tv-show']).routes.results / 10 / 2) * 0.5);
    expect(tv.carriesWith).toBeNull();
    expect(tv.blockedBy?.name).toBe("the hottest poll's own key: reads");
    // Behind CloudFront the function reads once a request, and few reach it.
    expect(verdict(cloudFront, PROFILES['tv-show']).carriesWith).not.toBeNull();
  });

  it('a limit no flag and no raise lifts: a consumer too slow for any number of groups carries nothing', () => {
    const slow = { ...DEFAULT_UNIT_COSTS, billedMs: { ...DEFAULT_UNIT_COSTS.billedMs, countVotes: 60_000 } };
    const tv = verdict(cloudFront, PROFILES['tv-show'], 'established', slow);
    expect(tv.carriesWith).toBeNull();
  });
});

describe('what the newcomer found', () => {
  it('rounds a flag or a raise up from the load, not from the float noise of a rate of creates', () => {
    expect(roundUp(280_000.0000046)).toBe(280_000);
    expect(roundUp(280_001)).toBe(290_000);
  });

  it("sizes the stage by its own flag, and asks AWS for the account's throttle at least as high", () => {
    const tv = verdict(api, { ...PROFILES['tv-show'], resultsViewersPerPoll: 200_000 });
    const load = tv.stages.find((s) => s.name === 'API stage throttle')!.load;
    const rate = roundUp(RAISE_HEADROOM * load);
    expect(tv.carriesWith?.flags.apiRateLimit).toBe(String(rate));
    const account = tv.carriesWith!.quotaRaises.find((r) => r.quota === 'apiAccountRequestsPerSecond');
    expect(account?.to).toBeGreaterThanOrEqual(rate);
    // The hot-poll flag sizes the vote path only: the stage stays what apiRateLimit says.
    expect(tv.sizedStages.find((s) => s.name === 'API stage throttle')!.limit).toBe(rate);
  });

  it('quotes no break-even with a VPS that does not carry the peak where the bills would cross', () => {
    const tv = costReport({ profile: 'tv-show' });
    const baseline = tv.vps.find((v) => v.tier.monthlyUsd === 15 && !v.cdn)!;
    expect(baseline.carries).toBe(false);
    for (const d of tv.designs) expect([d.breakEven.notCarried, d.breakEven.votes]).toEqual([true, undefined]);
    // The report quotes one break-even, with the box the verdict names, which carries the peak.
    const text = renderDetail(tv).replace(/\n +/g, ' ');
    expect(text).toMatch(/Seed’s \$15 VPS \(3 vCPU\) does not carry it: needs \d+\.\dx the box's 3 shared vCPUs/);
    expect(tv.answer.vpsCarries).toBe(true);
    expect(tv.answer.breakEven.votes).toBeGreaterThan(0);
    expect(text).toContain(`The one break-even, ${tv.recommended.name} against ${tv.answer.vps.name}: `);
  });

  it('says an uncapped function URL is uncapped, and shows the recommended deployment stage by stage', () => {
    const club = renderDetail(costReport({ profile: 'club', 'new-account': true })).replace(/\n +/g, ' ');
    expect(club).toMatch(/deploys the results function URL uncapped \(-c resultsConcurrency=off\)/);
    expect(club).not.toMatch(/its 200 concurrent instances/);
    const tv = costReport({ profile: 'tv-show' });
    const sized = tv.recommended.capacity.sizedStages.find((s) => s.name === 'API stage throttle')!;
    expect(sized.limit).toBe(Number(tv.recommended.capacity.carriesWith!.flags.apiRateLimit));
    expect(sized.load).toBeLessThan(sized.limit);
  });
});

describe('the stack deployed as recommended', () => {
  it("record-night: the template with the printed flags carries the peak, needing only AWS's quota raises", () => {
    const night = costReport({ profile: 'record-night' });
    const flags = night.recommended.capacity.carriesWith!.flags;
    const deployed = designStack({ results: 'cloudfront', ...flags });
    expect(deployed.votePath).toEqual(
      expect.objectContaining({ groupsPerPoll: votePathFor(Number(flags.hotPollVotesPerSecond)).groupsPerPoll }),
    );
    const asDeployed = verdict(deployed, PROFILES['record-night']);
    expect(asDeployed.carriesWith?.flags).toEqual({});
    expect(asDeployed.carriesWith?.quotaRaises).toEqual(night.recommended.capacity.carriesWith!.quotaRaises);
    for (const stage of asDeployed.stages.filter((s) => s.load > s.limit))
      expect(stage.fix, stage.name).toMatchObject({ quota: expect.any(String) });
  });
});

describe('the recommendation', () => {
  it('is the cheapest design that carries the peak in time, its flags in the deploy command', () => {
    const tv = costReport({ profile: 'tv-show' });
    const cheapest = tv.designs.find((d) => d.deploy)!;
    expect(cheapest.id).toBe('function-url');
    expect(tv.recommended).toMatchObject({ id: 'cloudfront', carries: true });
    const votes = derivePeak(PROFILES['tv-show']).hottestPoll.votesPerSecond;
    const api = tv.recommended.capacity.stages.find((s) => s.name === 'API stage throttle')!.load;
    expect(tv.recommended.deploy).toBe(
      `npm run deploy -- -c results=cloudfront -c hotPollVotesPerSecond=${roundUp(RAISE_HEADROOM * votes)} ` +
        `-c apiRateLimit=${roundUp(RAISE_HEADROOM * api)}`,
    );
    // Its row says what it takes, as the recommendation counts it: the function URL's results read the poll's key
    // past what AWS gives a key, whatever flags or raises.
    const carries = Object.fromEntries(capacityRows(tv, true).map((row, i) => [tv.designs[i].id, row[1]]));
    expect(carries).toMatchObject({ cloudfront: 'with its flags and raises', 'function-url': 'no', api: 'no' });
    expect(tv.designs.find((d) => d.id === 'function-url')!.capacity.carriesWith).toBeNull();
    const night = costReport({ profile: 'record-night' });
    expect(night.recommended.carries).toBe(true);
    const nightVotes = derivePeak(PROFILES['record-night']).hottestPoll.votesPerSecond;
    expect(night.recommended.deploy).toMatch(
      new RegExp(`-c hotPollVotesPerSecond=${roundUp(RAISE_HEADROOM * nightVotes)} -c apiRateLimit=\\d+$`),
    );
  });

  it.each([
    ['a live stream: 100,000 viewers for 30 minutes, no peak given', { resultsViewersPerPoll: 100_000, minutes: 30 }],
    ['a TV final: 3 M votes in a minute, 1 M viewers', { votesPerPoll: 3e6, resultsViewersPerPoll: 1e6, minutes: 1 }],
  ])('%s: gets a verdict, and a recommendation that carries it', (_name, fields) => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-'));
    const file = join(dir, 'profile.json');
    const { minutes, ...rest } = fields;
    const profile = { pollsPerDay: 1, busiestMinuteFactor: 1, votingMinutes: minutes, watchMinutes: minutes, ...rest };
    writeFileSync(file, JSON.stringify(profile));
    const report = costReport({ profile: file });
    const results = report.peak.hottestPoll.resultsRequestsPerSecond;
    expect(results).toBeCloseTo(profile.resultsViewersPerPoll / 2, 6);
    expect(report.recommended.carries).toBe(true);
    const plainUrl = report.designs.find((d) => d.id === 'function-url')!;
    expect(plainUrl.capacity.carries).toBe(false);
    expect(report.recommended.deploy).not.toBe(plainUrl.deploy);
    expect(report.recommended.capacity.carriesWith!.rampSeconds).toBeLessThanOrEqual(MAX_RAMP_SECONDS);
  });

  it('says no design carries when none does, and names the cheapest deployable one', () => {
    const designs = costReport({ profile: 'tv-show' }).designs.map((d) => ({
      ...d,
      capacity: { ...d.capacity, carries: false, carriesWith: null },
    }));
    expect(recommend(designs)).toMatchObject({
      recommended: { id: 'function-url', carries: false },
      cheaperWithQuotaRaises: null,
    });
  });

  it('needs no quota raise when a design carries without one, and names the cheaper one that needs raises', () => {
    // A daily stream: 20,000 votes in 3 minutes, 15,000 viewers watching them.
    const stream = { pollsPerDay: 1, votesPerPoll: 20_000, votingMinutes: 3, busiestMinuteFactor: 1 };
    const file = join(mkdtempSync(join(tmpdir(), 'profile-')), 'stream.json');
    writeFileSync(file, JSON.stringify({ ...stream, resultsViewersPerPoll: 15_000, watchMinutes: 3 }));
    const report = costReport({ profile: file });
    expect(report.recommended).toMatchObject({ id: 'cloudfront', carries: true });
    expect(report.recommended.capacity.carriesWith!.quotaRaises).toEqual([]);
    const url = report.designs.find((d) => d.id === 'function-url')!;
    expect(url.bill.totalUsd).toBeLessThan(report.recommended.bill.totalUsd);
    expect(report.cheaperWithQuotaRaises).toEqual({
      id: 'function-url',
      monthlyUsd: url.bill.totalUsd,
      savingUsd: report.recommended.bill.totalUsd - url.bill.totalUsd,
      quotaRaises: url.capacity.carriesWith!.quotaRaises,
    });
    expect(report.cheaperWithQuotaRaises!.quotaRaises.map((r) => r.quota)).toContain('lambdaAccountConcurrency');
    expect(renderDetail(report).replace(/\n +/g, ' ')).toMatch(
      /Cheaper after quota raises: results from a function URL/,
    );
    // Where nothing carries without a raise, the cheapest that carries with them, and nothing beside it.
    expect(costReport({ profile: 'tv-show' }).cheaperWithQuotaRaises).toBeNull();
  });
});

describe('report.json', () => {
  it.each(['seed', 'club', 'tv-show', 'record-night'])(
    '%s: the peak, and each design’s capacity by these names',
    (name) => {
      const report = JSON.parse(JSON.stringify(costReport({ profile: name })));
      expect(report.peak).toMatchObject({
        requestsPerSecond: expect.any(Number),
        hottestPoll: { votesPerSecond: expect.any(Number), resultsRequestsPerSecond: expect.any(Number) },
      });
      for (const design of [...report.designs, report.recommended]) {
        const { carries, bottleneck, carriesWith } = design.capacity;
        expect(typeof carries).toBe('boolean');
        expect(bottleneck === null || typeof bottleneck === 'string').toBe(true);
        if (carries) expect(bottleneck).toBeNull();
        else expect(bottleneck).not.toBeNull();
        if (carriesWith !== null) {
          expect(Object.values(carriesWith.flags).every((v) => typeof v === 'string')).toBe(true);
          for (const raise of carriesWith.quotaRaises) expect(raise.to).toBeGreaterThan(raise.from);
          expect(typeof carriesWith.rampSeconds).toBe('number');
        }
      }
      expect(typeof report.recommended.carries).toBe('boolean');
      expect(report.recommended.carries).toBe(true);
    },
  );
});

describe('quotas that differ by Region', () => {
  const night = derivePeak(PROFILES['record-night']);
  const context = (region?: string) => ({ account: 'established' as const, profile: PROFILES['record-night'], region });
  const stageOf = (region: string | undefined, name: string) =>
    capacityOf(api, night, DEFAULT_UNIT_COSTS, context(region)).sizedStages.find((s) => s.name === name)!;

  it("checks a design against its Region's values: the API throttle in newer Regions, SQS FIFO's by Region", () => {
    expect(stageOf(undefined, 'API Gateway account throttle').limit).toBe(10_000);
    expect(stageOf('eu-south-2', 'API Gateway account throttle').limit).toBe(2_500);
    expect(stageOf('eu-central-1', 'API Gateway account throttle').limit).toBe(10_000);
    expect(stageOf('eu-west-1', 'SQS FIFO high-throughput sends').limit).toBe(70_000);
    expect(stageOf('eu-central-1', 'SQS FIFO high-throughput sends').limit).toBe(19_000);
    expect(stageOf('ap-northeast-1', 'SQS FIFO high-throughput sends').limit).toBe(9_000);
    expect(stageOf('ca-central-1', 'SQS FIFO high-throughput sends').limit).toBe(2_400);
  });

  it("asks for a raise from the Region's value", () => {
    const raises = (region?: string) =>
      capacityOf(cloudFront, night, DEFAULT_UNIT_COSTS, context(region)).carriesWith?.quotaRaises ?? [];
    const throttle = (region?: string) => raises(region).find((r) => r.quota === 'apiAccountRequestsPerSecond');
    expect(throttle()?.from).toBe(10_000);
    expect(throttle('eu-south-2')?.from).toBe(2_500);
    expect(throttle('eu-south-2')?.to).toBe(throttle()?.to);
  });
});
