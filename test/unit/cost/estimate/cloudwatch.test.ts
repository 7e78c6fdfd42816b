/**
 * npm run cost -- --from-cloudwatch (cost/estimate/cloudwatch.ts, cost/cloudwatch-command.ts): recorded
 * DescribeStackResources and GetMetricData answers, in the SDK's output shapes, through injected
 * clients become the measured month, priced by the price sheet beside the fitted profile's estimate;
 * a service with no datapoints is "not measured". And the one-line failures: a missing stack, a window
 * with no data, no credentials (test/commands/cost-from-cloudwatch: an endpoint where nothing answers).
 */
import type { DescribeStackResourcesCommandOutput } from '@aws-sdk/client-cloudformation';
import type { GetMetricDataCommandInput, GetMetricDataCommandOutput } from '@aws-sdk/client-cloudwatch';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CommandFailure, UsageError } from '../../../../domain/errors';
import { cloudWatchInput, loadProfile, type CloudWatchOptions } from '../../../../cost/report-files';
import {
  type MetricsClient,
  metricQueries,
  periodFor,
  type StackResourcesClient,
} from '../../../../cost/estimate/cloudwatch';
import { cloudWatchFailure, parseWindow } from '../../../../cost/cloudwatch-command';
import type { MeasuredLine } from '../../../../cost/estimate/cloudwatch-bill';
import { estimate } from '../../../../cost/estimate/model';
import { tieredCost } from '../../../../pricing/tiers';
import { SECONDS_PER_MONTH } from '../../../../cost/usage/traffic-profile';

import { renderAnswer, renderDetail } from '../../../../cost/report/render-text';
import { renderMarkdown } from '../../../../cost/report/render-markdown';
import { verdictLines } from '../../../../cost/report/answer';
import { usd } from '../../../../cost/estimate/format';
import { unwrapped } from '../../../support/cost';
import { buildReport } from '../../../../cost/estimate/build-report';
import { US_EAST_1, BILL } from '../../../support/prices';
import { bookFile } from '../../../../pricing/price-book';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'cloudwatch');
/** A recorded answer, its times as the SDK gives them (Dates). */
const recorded = <T>(file: string): T =>
  JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'), (key, value) =>
    key === 'Timestamp' ? new Date(value) : key === 'Timestamps' ? value.map((t: string) => new Date(t)) : value,
  );

/** The recorded hour: 12:00 to 13:00 UTC. */
const NOW = new Date('2026-11-25T13:00:00Z');
const MONTH = SECONDS_PER_MONTH / 3600;

/** A client answering GetMetricData from a recording: the results for the ids it was asked, in its order. */
function metricsFrom(file: string, asked: GetMetricDataCommandInput[] = []): MetricsClient {
  const answer = recorded<GetMetricDataCommandOutput>(file);
  return {
    send: async ({ input }) => {
      asked.push(input);
      const ids = new Set(input.MetricDataQueries?.map((q) => q.Id));
      return { ...answer, MetricDataResults: answer.MetricDataResults?.filter((r) => ids.has(r.Id)) };
    },
  };
}

const stacksFrom = (file: string): StackResourcesClient => ({
  send: async ({ input }) => {
    const answer = recorded<DescribeStackResourcesCommandOutput>(file);
    expect(input.StackName).toBe('ServerlessPoll');
    return answer;
  },
});

const recordedClients = (asked?: GetMetricDataCommandInput[]) => ({
  stacks: stacksFrom('describe-stack-resources.json'),
  metrics: metricsFrom('get-metric-data.json', asked),
  globalMetrics: metricsFrom('get-metric-data-us-east-1.json', asked),
});

const options = (over: Partial<CloudWatchOptions> = {}): CloudWatchOptions => ({
  'from-cloudwatch': true,
  target: 'aws',
  stack: 'ServerlessPoll',
  hours: '1',
  'new-account': false,
  profile: 'seed',
  out: mkdtempSync(join(tmpdir(), 'cost-cloudwatch-')),
  ...over,
});

describe('the measured month, from recorded answers', () => {
  it('asks for each resource’s standard metrics over the window, CloudFront’s in us-east-1', async () => {
    const asked: GetMetricDataCommandInput[] = [];
    await cloudWatchInput(options(), recordedClients(asked), NOW);
    const metrics = asked.flatMap((a) => a.MetricDataQueries ?? []).map((q) => q.MetricStat?.Metric?.MetricName);
    for (const name of [
      'Count',
      'Invocations',
      'Duration',
      'NumberOfMessagesSent',
      'NumberOfMessagesReceived',
      'NumberOfMessagesDeleted',
      'NumberOfEmptyReceives',
      'ConsumedReadCapacityUnits',
      'ConsumedWriteCapacityUnits',
      'Requests',
      'BytesDownloaded',
    ])
      expect(metrics).toContain(name);
    const cloudFront = asked.find((a) => a.MetricDataQueries?.[0].MetricStat?.Metric?.Namespace === 'AWS/CloudFront');
    expect(cloudFront?.MetricDataQueries?.[0].MetricStat?.Metric?.Dimensions).toContainEqual({
      Name: 'Region',
      Value: 'Global',
    });
    expect(asked[0].StartTime).toEqual(new Date('2026-11-25T12:00:00Z'));
    expect(asked[0].EndTime).toEqual(NOW);
  });

  it('prices the region it reads: a region with no book is refused, one with a book priced from it', async () => {
    const inFrankfurt = { ...recordedClients(), region: async () => 'eu-central-1' };
    await expect(cloudWatchInput(options(), inFrankfurt, NOW)).rejects.toThrow(
      /^No price book for eu-central-1: .*npm run prices -- --region eu-central-1$/,
    );
    const books = mkdtempSync(join(tmpdir(), 'books-'));
    const book = JSON.parse(readFileSync(bookFile('us-east-1'), 'utf8'));
    book.region = 'eu-central-1';
    book.lines.lambdaRequests.tiers = [{ price: 0.4 }];
    writeFileSync(bookFile('eu-central-1', books), JSON.stringify(book));
    const input = await cloudWatchInput(options({ books }), inFrankfurt, NOW);
    expect(input.options.book.region).toBe('eu-central-1');
    const usd = (lines: MeasuredLine[]) => lines.find((l) => l.priceId === 'lambdaRequests')!.measured!.usd;
    const atHome = await cloudWatchInput(options(), recordedClients(), NOW);
    expect(usd(input.cloudWatch!.lines)).toBeCloseTo(2 * usd(atHome.cloudWatch!.lines), 9);
  });

  it('prices the hour projected to a month: each measured line from the price sheet', async () => {
    const input = await cloudWatchInput(options(), recordedClients(), NOW);
    const cw = input.cloudWatch!;
    const line = (id: string) => cw.lines.find((l) => l.priceId === id)!;
    // The app's five functions; CDK's helper had no datapoints.
    expect(line('lambdaRequests').measured?.windowUsage).toBeCloseTo(119_100);
    expect(line('lambdaRequests').measured?.monthUsage).toBeCloseTo(119_100 * MONTH);
    // A send a vote, a receive and a delete a consumer batch, the empty receives.
    expect(line('sqsFifoRequests').measured?.monthUsage).toBeCloseTo((50_000 + 2 * 5_000 + 600) * MONTH);
    expect(line('dynamoReadUnits').measured?.monthUsage).toBeCloseTo(57_000 * MONTH);
    expect(line('dynamoWriteUnits').measured?.monthUsage).toBeCloseTo(5_200 * MONTH);
    expect(line('httpApiRequests').measured?.monthUsage).toBeCloseTo(119_100 * MONTH);
    // GB-seconds: each function's measured duration at the memory the stack gives it.
    const fns = input.stack.functions;
    const gbs =
      (100 * 31.5 * fns.createPoll.memoryMb +
        40_000 * 9.2 * fns.getPoll.memoryMb +
        50_000 * 21.4 * fns.castVote.memoryMb +
        24_000 * 1.6 * fns.getResults.memoryMb +
        5_000 * 38 * fns.countVotes.memoryMb) /
      1000 /
      1024;
    expect(line('lambdaArmGbSeconds').measured?.monthUsage).toBeCloseTo(gbs * MONTH, 3);
    // Priced by the sheet: the API's requests have no free tier.
    const api = US_EAST_1.prices.httpApiRequests;
    expect(line('httpApiRequests').measured?.usd).toBeCloseTo(tieredCost(119_100 * MONTH, api), 6);
    expect(cw.measuredUsd).toBeCloseTo(
      cw.lines.reduce((sum, l) => sum + (l.measured?.usd ?? 0), 0),
      9,
    );
    expect(cw.measuredUsd).toBeGreaterThan(10);
  });

  it('says "not measured" where a service had no datapoints, never $0.00 as measured', async () => {
    const input = await cloudWatchInput(options(), recordedClients(), NOW);
    const cw = input.cloudWatch!;
    expect(cw.measurement.missing.CloudFront).toBe('no datapoints');
    for (const id of ['cloudFrontRequests', 'cloudFrontTransfer']) {
      const line = cw.lines.find((l) => l.priceId === id)!;
      expect(line.measured).toBeUndefined();
      expect(line.notMeasured).toBe('not measured (no datapoints)');
      expect(line.differenceUsd).toBeUndefined();
    }
    expect(cw.lines.find((l) => l.priceId === 'logsIngestion')?.notMeasured).toMatch(/not read from CloudWatch/);
    const report = buildReport(input);
    const text = renderDetail(report);
    expect(text).toContain('Measured over 1 h, 2026-11-25T12:00Z to 2026-11-25T13:00Z, projected to a month');
    const row = text.split('\n').find((l) => l.startsWith('CloudFront HTTPS requests'))!;
    expect(row).toMatch(/not measured \(no datapoints\).*not measured/);
    expect(row).not.toMatch(/\$0\.00\s+\$/);
    expect(renderMarkdown(report, 'chart.svg')).toMatch(
      /\| CloudFront HTTPS requests \| not measured \(no datapoints\) \|/,
    );
    // report.json carries it.
    expect(JSON.parse(JSON.stringify(report)).cloudWatch.lines).toHaveLength(cw.lines.length);
    // The answer npm run cost prints: the fitted profile's verdict first and last, the measured month in a line.
    const answer = renderAnswer(report, ['Reports: …']).split('\n');
    expect(answer.length).toBeLessThanOrEqual(31);
    expect(answer[1]).toBe(verdictLines(report)[0]);
    expect(unwrapped(answer.join('\n'))).toMatch(
      /^Measured by CloudWatch \(stack ServerlessPoll, aws, measured over 1 h/m,
    );
    expect(unwrapped(answer.join('\n'))).toContain(`): ${usd(cw.measuredUsd)} a month on the lines it measures`);
    expect(unwrapped(answer.join('\n')).split('\n').at(-1)).toMatch(/^In short: /);
  });

  it('tells a service the stack lacks from one that had no datapoints', async () => {
    const all = recorded<DescribeStackResourcesCommandOutput>('describe-stack-resources.json');
    const stacks: StackResourcesClient = {
      send: async () => ({
        ...all,
        StackResources: all.StackResources?.filter((r) => r.ResourceType !== 'AWS::CloudFront::Distribution'),
      }),
    };
    // DynamoDB's answers recorded with no datapoints.
    const full = metricsFrom('get-metric-data.json');
    const metrics: MetricsClient = {
      send: async (command) => {
        const answer = await full.send(command);
        const table = (label = '') => /PollTable/.test(label);
        return {
          ...answer,
          MetricDataResults: answer.MetricDataResults?.map((r) =>
            table(r.Label) ? { ...r, Timestamps: [], Values: [] } : r,
          ),
        };
      },
    };
    const input = await cloudWatchInput(options(), { ...recordedClients(), stacks, metrics }, NOW);
    const line = (id: string) => input.cloudWatch!.lines.find((l) => l.priceId === id)!;
    expect(line('cloudFrontRequests').notMeasured).toBe('not measured (not in the stack)');
    expect(line('dynamoReadUnits').notMeasured).toBe('not measured (no datapoints)');
    expect(line('dynamoWriteUnits').measured).toBeUndefined();
    expect(input.cloudWatch!.measurement.missing).toEqual({
      CloudFront: 'not in the stack',
      DynamoDB: 'no datapoints',
    });
    const row = renderDetail(buildReport(input))
      .split('\n')
      .find((l) => l.startsWith('DynamoDB on-demand write'))!;
    expect(row).toMatch(/not measured \(no datapoints\)\s+\$[\d.]+ per 1M WRU\s+not measured/);
  });

  it('counts API requests route by route where detailed metrics are on, on either API kind', async () => {
    const full = metricsFrom('get-metric-data.json');
    // Detailed metrics on: the vote route's datapoints recorded.
    const metrics: MetricsClient = {
      send: async (command) => {
        const answer = await full.send(command);
        return {
          ...answer,
          MetricDataResults: answer.MetricDataResults?.map((r) =>
            r.Label?.endsWith('route POST /api/poll/{id}/vote')
              ? { ...r, Timestamps: [new Date('2026-11-25T12:30:00Z')], Values: [50_000] }
              : r,
          ),
        };
      },
    };
    const input = await cloudWatchInput(options(), { ...recordedClients(), metrics }, NOW);
    expect(input.cloudWatch!.measurement.api?.routes).toEqual({ 'POST /api/poll/{id}/vote': 50_000 });
    expect(renderDetail(buildReport(input))).toContain('API requests by route in the window: POST /api/poll/{id}/vote');
    // A REST API's metrics are named by the API's name, its routes by method and resource on its stage.
    const rest = metricQueries([
      { LogicalResourceId: 'ApiRestApi1', PhysicalResourceId: 'abc123', ResourceType: 'AWS::ApiGateway::RestApi' },
      { LogicalResourceId: 'ApiStage1', PhysicalResourceId: 'prod', ResourceType: 'AWS::ApiGateway::Stage' },
    ] as never);
    expect(rest[0].dimensions).toEqual({ ApiName: 'RestApi' });
    expect(rest.map((q) => q.dimensions)).toContainEqual({
      ApiName: 'RestApi',
      Stage: 'prod',
      Method: 'POST',
      Resource: '/api/poll/{id}/vote',
    });
  });

  it('fits a profile to the measured mix and writes it: --profile <file> reproduces the estimate', async () => {
    const values = options();
    const input = await cloudWatchInput(values, recordedClients(), NOW);
    const { profile } = input;
    expect(profile.pollsPerDay).toBeCloseTo((100 * MONTH) / 30);
    expect(profile.votesPerPoll).toBeCloseTo(500);
    const file = join(values.out, 'fitted-profile.json');
    const again = loadProfile(file);
    expect(again).toEqual(profile);
    const bill = estimate(again, input.stack, input.units, BILL);
    expect(bill.totalUsd).toBeCloseTo(buildReport(input).bill.totalUsd, 9);
    // Line by line: the estimate beside each measured line, and their difference.
    const cw = input.cloudWatch!;
    const votes = cw.lines.find((l) => l.priceId === 'lambdaRequests')!;
    expect(votes.estimate.usd).toBeCloseTo(bill.lines.find((l) => l.priceId === 'lambdaRequests')!.usd, 9);
    expect(votes.differenceUsd).toBeCloseTo(votes.measured!.usd - votes.estimate.usd, 9);
    // The fitted mix makes as many votes and creates as measured.
    expect(bill.usage.invocations.castVote).toBeCloseTo(50_000 * MONTH, 0);
    expect(bill.usage.invocations.createPoll).toBeCloseTo(100 * MONTH, 0);
  });
});

describe('what it cannot measure is one line', () => {
  it('a window with no datapoints', async () => {
    const empty: MetricsClient = { send: async () => ({ $metadata: {}, MetricDataResults: [] }) };
    const clients = { ...recordedClients(), metrics: empty, globalMetrics: empty };
    await expect(cloudWatchInput(options(), clients, NOW)).rejects.toThrow(
      /^No datapoints for stack ServerlessPoll's resources over 1 h, .*: widen the window/,
    );
  });

  it('a stack that does not exist', async () => {
    const missing = Object.assign(new Error('Stack with id Nope does not exist'), {
      name: 'ValidationError',
      $metadata: { httpStatusCode: 400 },
    });
    const stacks: StackResourcesClient = {
      send: async () => {
        throw missing;
      },
    };
    const failure = cloudWatchInput(options({ stack: 'Nope' }), { ...recordedClients(), stacks }, NOW);
    await expect(failure).rejects.toBeInstanceOf(CommandFailure);
    await expect(failure).rejects.toThrow(/^Stack Nope does not exist on AWS.*deploy it \(npm run deploy/);
  });

  it('no credentials, and no permission', () => {
    const context = { target: 'aws', stackName: 'ServerlessPoll' } as const;
    const noCredentials = Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
    });
    expect(String(cloudWatchFailure(noCredentials, context))).toMatch(/No AWS credentials: set AWS_PROFILE/);
    const denied = Object.assign(new Error('User: arn:aws:iam::1:user/x is not authorized'), {
      name: 'AccessDenied',
      $metadata: { httpStatusCode: 403 },
    });
    expect(String(cloudWatchFailure(denied, context))).toContain(
      'cloudwatch:GetMetricData and cloudformation:DescribeStackResources',
    );
    // Not an SDK error: ours, passed through with its trace.
    const bug = new TypeError('x is undefined');
    expect(cloudWatchFailure(bug, context)).toBe(bug);
  });
});

describe('the window', () => {
  it('is the last 24 hours unless --since or --hours says; both is a usage mistake', () => {
    expect(parseWindow({}, NOW)).toEqual({ start: new Date('2026-11-24T13:00:00Z'), end: NOW });
    expect(parseWindow({ hours: '2' }, NOW).start).toEqual(new Date('2026-11-25T11:00:00Z'));
    expect(parseWindow({ since: '2026-11-25T09:30Z' }, NOW).start).toEqual(new Date('2026-11-25T09:30:00Z'));
    expect(() => parseWindow({ since: '2026-11-25T09:30Z', hours: '2' }, NOW)).toThrow(UsageError);
    expect(() => parseWindow({ hours: 'two' }, NOW)).toThrow(/--hours two must be a number/);
    expect(() => parseWindow({ since: 'yesterday' }, NOW)).toThrow(/is not an ISO time/);
    expect(() => parseWindow({ since: '2026-12-01T00:00Z' }, NOW)).toThrow(/not in the past/);
  });

  it('is read as one period, at a resolution CloudWatch still keeps for its start', () => {
    const hours = (h: number) => ({ start: new Date(NOW.getTime() - h * 3_600_000), end: NOW });
    expect(periodFor(hours(24))).toBe(86_400);
    expect(periodFor(hours(0.01))).toBe(60);
    expect(periodFor(hours(24 * 20 + 0.01))).toBe(24 * 20 * 3600 + 300);
    expect(periodFor(hours(24 * 100 + 0.5))).toBe(24 * 100 * 3600 + 3600);
  });
});
