/**
 * A profile's month of usage, in the units AWS bills: the shares added up (shares.ts, results-shares.ts),
 * then Lambda's part as the stack configures each function (GB-seconds with the INITs of its cold starts,
 * logs, traces), storage, and what the stack keeps all month (alarms, dashboards, metrics). Pure.
 */
import { bytesToUnits } from '../../pricing/price-lines';
import type { FunctionConfig, StackConfig } from './stack-config';
import { coldStartShare } from './cold-starts';
import { type FunctionRole, DEFAULT_UNIT_COSTS, FUNCTION_ROLES, type UnitCosts } from '../usage/unit-costs';
import { DAYS_PER_MONTH, SECONDS_PER_MONTH, type TrafficProfile } from '../usage/traffic-profile';
import { type LambdaWork, appShare, monthVolumes, sumShares, throughCloudFrontShare } from './shares';
import { RESULTS_SHARES } from './results-shares';

/** A month of usage, in the units AWS bills. */
export interface MonthlyUsage {
  polls: number;
  votes: number;
  pageLoads: number;
  resultsRequests: number;
  preflights: number;
  apiRequests: number;
  /** Results read from a function URL (results=function-url): billed as Lambda requests only. */
  functionUrlRequests: number;
  /** What browsers send, whatever answers it: pages, creates, poll reads, votes, preflights, results. */
  clientRequests: number;
  invocations: Record<FunctionRole, number>;
  /** Of each function's invocations, the share that start cold and bill an INIT (cost/estimate/cold-starts.ts). */
  coldStartShares: Record<FunctionRole, number>;
  gbSeconds: { arm64: number; x86_64: number };
  /**
   * The same GB-seconds by function, whatever its architecture: what a change to one function moves (npm run cost
   * --compare-to). None in a measured month: Lambda's metrics there are not split so.
   */
  functionGbSeconds?: Record<FunctionRole, number>;
  sqsRequests: number;
  writeUnits: number;
  readUnits: number;
  storageGb: number;
  logsGb: number;
  logsStoredGb: number;
  xrayTraces: number;
  cloudFrontRequests: number;
  cloudFrontFunctionInvocations: number;
  cloudFrontGb: number;
  /** Requests CloudFront passes to the API and to S3, in GB. */
  cloudFrontOriginGb: number;
  s3Gets: number;
  apiTransferGb: number;
  webSocketMessages: number;
  webSocketConnectionMinutes: number;
  alarms: number;
  dashboards: number;
  customMetrics: number;
  /** Instance hours of Lambda Managed Instances (a what-if: StackConfig managedInstances). */
  managedInstanceHours: number;
}

/** X-Ray's default sampling: the first request each second, then 5% of the rest. */
function sampledTraces(requests: number): number {
  const reservoir = Math.min(requests, SECONDS_PER_MONTH);
  return reservoir + 0.05 * (requests - reservoir);
}

/** Each function's invocations in the month's work. */
function invocationsOf(work: LambdaWork[]): Record<FunctionRole, number> {
  const invocations = Object.fromEntries(FUNCTION_ROLES.map((role) => [role, 0])) as Record<FunctionRole, number>;
  for (const item of work) invocations[item.role] += item.invocations;
  return invocations;
}

/**
 * The share of each function's invocations that start cold, from the gaps between its requests: all but the
 * create function are kept busy while a poll is open; a create is a call of its own.
 */
function coldStartShares(
  invocations: Record<FunctionRole, number>,
  profile: TrafficProfile,
  units: UnitCosts,
): Record<FunctionRole, number> {
  const arrivals = { pollsPerMonth: profile.pollsPerDay * DAYS_PER_MONTH, secondsPerMonth: SECONDS_PER_MONTH };
  const busySeconds = (role: FunctionRole) => (role === 'createPoll' ? 0 : profile.votingMinutes * 60);
  return Object.fromEntries(
    FUNCTION_ROLES.map((role) => [
      role,
      coldStartShare(
        { invocations: invocations[role], busySeconds: busySeconds(role), billedMs: units.billedMs[role] },
        arrivals,
      ),
    ]),
  ) as Record<FunctionRole, number>;
}

/** Lambda's part of the bill for the month's work, per function as the stack configures it. */
function lambdaUsage(
  work: LambdaWork[],
  stack: StackConfig,
  units: UnitCosts,
  profile: TrafficProfile,
): Pick<
  MonthlyUsage,
  'invocations' | 'coldStartShares' | 'gbSeconds' | 'functionGbSeconds' | 'logsGb' | 'logsStoredGb' | 'xrayTraces'
> {
  const invocations = invocationsOf(work);
  const coldShares = coldStartShares(invocations, profile, units);
  const gbSeconds = { arm64: 0, x86_64: 0 };
  const functionGbSeconds = Object.fromEntries(FUNCTION_ROLES.map((role) => [role, 0])) as Record<FunctionRole, number>;
  let logBytes = 0;
  let logsStoredGb = 0;
  let tracedRequests = 0;
  for (const item of work) {
    const fn = stack.functions[item.role];
    const seconds = (item.invocations * (item.billedMs + coldShares[item.role] * units.initMs)) / 1000;
    // On Managed Instances a function bills its instances' hours, not its GB-seconds (and starts no cold INIT).
    if (!stack.managedInstances?.roles.includes(item.role)) {
      gbSeconds[fn.architecture] += (seconds * fn.memoryMb) / 1024;
      functionGbSeconds[item.role] += (seconds * fn.memoryMb) / 1024;
    }
    const bytes = item.invocations * logBytesPerInvocation(item.role, fn, units);
    logBytes += bytes;
    // Steady state: each month's logs are kept for the retention period (uncompressed size: an upper bound).
    logsStoredGb += (bytesToUnits(bytes, 'logsStorage') * Math.min(fn.logRetentionDays ?? 3650, 3650)) / DAYS_PER_MONTH;
    if (fn.tracing) tracedRequests += item.invocations;
  }
  const xrayTraces = tracedRequests > 0 ? sampledTraces(tracedRequests) : 0;
  const logsGb = bytesToUnits(logBytes, 'logsIngestion');
  return { invocations, coldStartShares: coldShares, gbSeconds, functionGbSeconds, logsGb, logsStoredGb, xrayTraces };
}

/** What one invocation writes to CloudWatch Logs: platform lines, the consumer's own line, a metrics line. */
function logBytesPerInvocation(role: FunctionRole, fn: FunctionConfig, units: UnitCosts): number {
  const platformLines = fn.logFormat === 'Text' || ['DEBUG', 'INFO'].includes(fn.systemLogLevel);
  const appLines = role === 'countVotes' && ['DEBUG', 'INFO'].includes(fn.applicationLogLevel);
  const metricLines = fn.customMetrics > 0;
  return (
    (platformLines ? units.platformLogBytesPerInvocation : 0) +
    (appLines ? units.appLogBytesPerBatch : 0) +
    (metricLines ? units.metricLogBytesPerInvocation : 0)
  );
}

/** Polls and voter claims live from creation until a day after they close: about a day and a half. */
function storedGb(profile: TrafficProfile, units: UnitCosts): number {
  const storedPolls = profile.pollsPerDay * 1.5;
  const claims = profile.oneVotePerVoter ? profile.votesPerPoll * units.storedBytesPerVoterClaim : 0;
  return bytesToUnits(storedPolls * (units.storedBytesPerPoll + claims), 'dynamoStorage');
}

/** The month's usage: the app's share, the results design's share and, where it applies, CloudFront's. */
export function monthlyUsage(
  profile: TrafficProfile,
  stack: StackConfig,
  units: UnitCosts = DEFAULT_UNIT_COSTS,
): MonthlyUsage {
  const volumes = monthVolumes(profile, stack, units);
  const { polls, votes, pageLoads, resultsRequests, preflights } = volumes;
  const month = sumShares([
    appShare(volumes, profile, units),
    RESULTS_SHARES[stack.results](volumes, stack, units, profile),
    ...(stack.apiThroughCloudFront ? [throughCloudFrontShare(volumes, profile, units)] : []),
  ]);
  // Behind CloudFront, API Gateway's answers reach viewers through it, billed there; API Gateway to CloudFront is free.
  const apiAnswerBytes = stack.apiThroughCloudFront ? 0 : month.apiRequests * profile.apiResponseBytes;
  const sitePages = pageLoads * units.siteRequestsPerPageLoad;
  const lambda = lambdaUsage(month.work, stack, units, profile);
  return {
    polls,
    votes,
    pageLoads,
    resultsRequests,
    preflights,
    apiRequests: month.apiRequests,
    functionUrlRequests: month.functionUrlRequests,
    clientRequests: month.clientRequests,
    invocations: lambda.invocations,
    coldStartShares: lambda.coldStartShares,
    gbSeconds: lambda.gbSeconds,
    functionGbSeconds: lambda.functionGbSeconds,
    sqsRequests: votes * volumes.voteRates.sqsRequestsPerVote + units.emptyReceivesPerMonth,
    writeUnits: month.writeUnits,
    readUnits: month.readUnits,
    storageGb: storedGb(profile, units),
    logsGb: lambda.logsGb,
    logsStoredGb: lambda.logsStoredGb,
    xrayTraces: lambda.xrayTraces,
    cloudFrontRequests: month.cloudFrontRequests,
    // The router runs on the site's requests only (a results behavior, where there is one, has none).
    cloudFrontFunctionInvocations: stack.siteRouter ? sitePages : 0,
    cloudFrontGb: bytesToUnits(month.cloudFrontBytes, 'cloudFrontTransfer'),
    cloudFrontOriginGb: bytesToUnits(
      month.cloudFrontOriginBytes + sitePages * units.siteOriginMissShare * units.requestBytes,
      'cloudFrontOriginTransfer',
    ),
    s3Gets: sitePages * units.siteOriginMissShare,
    apiTransferGb: bytesToUnits(apiAnswerBytes + month.directBytes, 'dataTransferOut'),
    webSocketMessages: month.webSocketMessages,
    webSocketConnectionMinutes: month.webSocketConnectionMinutes,
    alarms: stack.alarms,
    dashboards: stack.dashboards,
    customMetrics: Object.values(stack.functions).reduce((sum, fn) => sum + fn.customMetrics, 0),
    managedInstanceHours: (stack.managedInstances?.instances ?? 0) * (SECONDS_PER_MONTH / 3600),
  };
}
