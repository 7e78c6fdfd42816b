/**
 * The cost model: a traffic profile and the stack's configuration become a
 * month of usage, and usage becomes a bill, line by line. Plain TypeScript
 * with no Node or AWS imports, so the frontend can run it too.
 */
import { RESULTS_CACHE_SECONDS } from '../../config/caching';
import { bytesToUnits, NEW_ACCOUNT_CREDITS, PRICES, type Price, type PriceId } from '../../config/aws-prices';
import { quota } from '../../config/aws-quotas';
import { preflightsPerVote, type ResultsTraffic, resultsEnvironments, resultsReadsPerRequest } from './rates';
import { type VoteRates, voteRates } from '../../config/vote-rates';
import type { FunctionConfig, StackConfig } from './stack-config';
import { coldStartShare } from './cold-starts';
import { type CloudFrontPricing, priceCloudFront } from './flat-rate';
import {
  type FunctionRole,
  batchCycleMs,
  DEFAULT_UNIT_COSTS,
  FUNCTION_ROLES,
  type UnitCosts,
} from '../usage/unit-costs';
import {
  DAYS_PER_MONTH,
  resultsRequestsPerViewer,
  SECONDS_PER_MONTH,
  type TrafficProfile,
} from '../usage/traffic-profile';

// What the profile and a load test give the model, offered here as before (cost/usage/traffic-profile.ts,
// cost/usage/unit-costs.ts hold them so that neither the profile nor the vote path imports the model).

/**
 * Regional edge caches a poll's viewers reach when results are cached at CloudFront: each asks the
 * origin once per cache period.
 */
export const CACHE_ORIGINS_PER_POLL = 13;
/**
 * Of `requests` for `polls` polls, those a cache in front passes to the origin: each of a poll's
 * CACHE_ORIGINS_PER_POLL caches asks once per cache period, for `cachePeriods` periods.
 */
export const cachedAtOrigin = (requests: number, polls: number, cachePeriods: number): number =>
  Math.min(requests, polls * CACHE_ORIGINS_PER_POLL * cachePeriods);
/** The periods of a cache's max-age in so many minutes: how often each cache asks the origin in them. */
export const cachePeriods = (minutes: number, maxAgeSeconds: number): number =>
  Math.ceil((minutes * 60) / maxAgeSeconds);
/**
 * Of a month's poll reads, those a cache that keeps each for `seconds` passes to the origin: each of a poll's
 * caches asks once per period while the poll is open (its answers' max-age ends at its close); all without one.
 */
export const pollReadsPastCache = (reads: number, polls: number, votingMinutes: number, seconds: number): number =>
  seconds > 0 ? cachedAtOrigin(reads, polls, cachePeriods(votingMinutes, seconds)) : reads;
/** The results cache periods in one viewer's watch of a poll. */
export const cachePeriodsOfWatch = (profile: Pick<TrafficProfile, 'watchMinutes'>): number =>
  cachePeriods(profile.watchMinutes, RESULTS_CACHE_SECONDS);
/** With WebSocket push, the server sends an update this often while votes arrive (as fast as the page would ask). */
const PUSH_INTERVAL_SECONDS = RESULTS_CACHE_SECONDS;
/** Bytes of one pushed results message. */
const PUSH_MESSAGE_BYTES = 200;

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

/** The month's volumes, in the profile's terms: what every share of the usage is counted from. */
export interface MonthVolumes {
  polls: number;
  votes: number;
  /** Visits to the site: voters', watchers' who do not vote, and creators'. */
  pageLoads: number;
  /** Poll reads browsers send (GET /api/poll/{id}): a visit's, but a creator's. */
  pollReads: number;
  /** Those that reach API Gateway: all, but where a cache in front keeps them (results=cloudfront). */
  originPollReads: number;
  /** People watching results, over all polls. */
  viewers: number;
  /** What viewers' pages ask for while watching (with push: the updates they would have asked for). */
  resultsRequests: number;
  preflights: number;
  /** The consumer's batching at the average poll's votes a second (cost/estimate/rates.ts). */
  voteRates: VoteRates;
}

/** A poll's votes a second over its window, on average: the rate the month's batches are sized at. */
export const averagePollVotesPerSecond = (profile: Pick<TrafficProfile, 'votesPerPoll' | 'votingMinutes'>): number =>
  profile.votesPerPoll / (profile.votingMinutes * 60);

/** Lambda work: one function's invocations and the milliseconds each bills. */
export interface LambdaWork {
  role: FunctionRole;
  invocations: number;
  billedMs: number;
}

/**
 * A share of the month's usage: what one part of the app (the pages and votes every design has,
 * one results design, the API behind CloudFront) adds to each metered total. The month is the sum
 * of its shares; a total a share leaves out, it adds nothing to.
 */
export interface UsageShare {
  work?: LambdaWork[];
  apiRequests?: number;
  readUnits?: number;
  writeUnits?: number;
  cloudFrontRequests?: number;
  cloudFrontBytes?: number;
  /** Bytes CloudFront passes on to the API or to S3 (the requests it does not answer from its cache). */
  cloudFrontOriginBytes?: number;
  /** Bytes sent to browsers by Lambda or a WebSocket API directly, not as API Gateway's answers. */
  directBytes?: number;
  /** What browsers send: the floor prices it (cost/estimate/designs.ts awsFloor). */
  clientRequests?: number;
  functionUrlRequests?: number;
  webSocketMessages?: number;
  webSocketConnectionMinutes?: number;
}

/** The numeric totals of a share, in the order a month adds them up. */
const SHARE_TOTALS = [
  'apiRequests',
  'readUnits',
  'writeUnits',
  'cloudFrontRequests',
  'cloudFrontBytes',
  'cloudFrontOriginBytes',
  'directBytes',
  'clientRequests',
  'functionUrlRequests',
  'webSocketMessages',
  'webSocketConnectionMinutes',
] as const;

const NO_TOTALS = Object.fromEntries(SHARE_TOTALS.map((total) => [total, 0])) as Record<
  (typeof SHARE_TOTALS)[number],
  number
>;

/** Shares added up, each total in the order the shares are given (floating-point sums depend on it). */
export function sumShares(shares: UsageShare[]): Required<UsageShare> {
  // Loops, not a map per total: the model adds shares up at every volume it prices.
  const month: Required<UsageShare> = { work: [], ...NO_TOTALS };
  for (const share of shares) {
    if (share.work) month.work.push(...share.work);
    for (const total of SHARE_TOTALS) month[total] += share[total] ?? 0;
  }
  return month;
}

/** The month's volumes for a profile; preflights only where the stack's API needs them. */
export function monthVolumes(
  profile: TrafficProfile,
  stack: Pick<StackConfig, 'corsPreflight' | 'corsMaxAgeSeconds' | 'consumer' | 'votePath' | 'pollReadCacheSeconds'>,
  units: UnitCosts,
): MonthVolumes {
  const polls = profile.pollsPerDay * DAYS_PER_MONTH;
  const votes = polls * profile.votesPerPoll;
  const watchersWhoDoNotVote = Math.max(0, profile.resultsViewersPerPoll - profile.votesPerPoll) * polls;
  const viewers = polls * profile.resultsViewersPerPoll;
  const pageLoads = votes * profile.pageLoadsPerVoter + watchersWhoDoNotVote + polls;
  const pollReads = pageLoads - polls;
  return {
    polls,
    votes,
    pageLoads,
    pollReads,
    originPollReads: pollReadsPastCache(pollReads, polls, profile.votingMinutes, stack.pollReadCacheSeconds),
    viewers,
    resultsRequests: viewers * resultsRequestsPerViewer(profile),
    // Only POSTs (create, vote) need a CORS preflight; the browser keeps its answer for the max-age.
    preflights: stack.corsPreflight ? votes * preflightsPerVote(profile, stack) + polls : 0,
    voteRates: voteRates(averagePollVotesPerSecond(profile), stack, batchCycleMs(units), units),
  };
}

/** What every design has: pages, creates, poll reads, votes and the consumer counting them. */
export function appShare(volumes: MonthVolumes, profile: TrafficProfile, units: UnitCosts): UsageShare {
  const { polls, votes, pageLoads, originPollReads, preflights, voteRates } = volumes;
  const sitePages = pageLoads * units.siteRequestsPerPageLoad;
  return {
    work: [
      { role: 'createPoll', invocations: polls, billedMs: units.billedMs.createPoll },
      { role: 'getPoll', invocations: originPollReads, billedMs: units.billedMs.getPoll },
      { role: 'castVote', invocations: votes, billedMs: units.billedMs.castVote },
      { role: 'countVotes', invocations: votes / voteRates.votesPerBatch, billedMs: units.billedMs.countVotes },
    ],
    apiRequests: polls + originPollReads + votes + preflights,
    readUnits: (originPollReads + votes) * units.readUnitsPerRead,
    writeUnits:
      polls * units.writeUnitsPerCreate +
      votes * voteRates.counterWriteUnitsPerVote +
      (profile.oneVotePerVoter ? votes * units.writeUnitsPerVoterClaim : 0),
    cloudFrontRequests: sitePages,
    cloudFrontBytes: pageLoads * profile.pageBytes,
    clientRequests: sitePages + pageLoads + votes + preflights,
  };
}

/**
 * Read units a results request that reaches the results function costs, at the function's traffic:
 * behind CloudFront, a read each (CloudFront is the cache: config/function-env.ts resultsKeepCounts); else what the
 * function's own cache leaves to the table (cost/estimate/rates.ts), or what a load test measured. Each read
 * reads every counter key of the poll.
 */
export function resultsReadUnits(
  stack: Pick<StackConfig, 'results' | 'votePath'>,
  units: UnitCosts,
  traffic: ResultsTraffic,
): number {
  const perKey =
    stack.results === 'cloudfront'
      ? units.readUnitsPerRead
      : (units.readUnitsPerResultsRequest ??
        resultsReadsPerRequest(traffic, RESULTS_CACHE_SECONDS, quota('lambdaRequestsPerConcurrency')) *
          units.readUnitsPerRead);
  return perKey * stack.votePath.counterShards;
}

/**
 * Read units a second on each counter key of one poll taking `pollRequestsPerSecond` of that traffic's
 * results: each environment reads it once a period (behind CloudFront: each request that reaches the
 * function), or what a load test measured a request.
 */
export function pollKeyReadUnits(
  stack: Pick<StackConfig, 'results'>,
  units: UnitCosts,
  traffic: ResultsTraffic,
  pollRequestsPerSecond: number,
): number {
  if (stack.results === 'cloudfront') return pollRequestsPerSecond * units.readUnitsPerRead;
  if (units.readUnitsPerResultsRequest !== undefined) return pollRequestsPerSecond * units.readUnitsPerResultsRequest;
  const environments = resultsEnvironments(traffic, quota('lambdaRequestsPerConcurrency'));
  return Math.min(pollRequestsPerSecond, environments / RESULTS_CACHE_SECONDS) * units.readUnitsPerRead;
}

/** The results function's traffic in a month's average open minute: a poll's viewers asking, the polls open. */
export function monthResultsTraffic(profile: TrafficProfile, units: UnitCosts): ResultsTraffic {
  const window = profile.votingMinutes * 60;
  const perPoll = (profile.resultsViewersPerPoll * resultsRequestsPerViewer(profile)) / window;
  // At least the poll being watched; more where polls overlap.
  const pollsOpen = Math.max(1, (profile.pollsPerDay * profile.votingMinutes) / (24 * 60));
  return { requestsPerSecond: perPoll * pollsOpen, pollsOpen, billedMs: units.billedMs.getResults };
}

/** What a results design's share reads of the stack. */
type ResultsStack = Pick<StackConfig, 'results' | 'votePath'>;

/** The results function answering every results request. */
const resultsWork = (invocations: number, units: UnitCosts): LambdaWork => ({
  role: 'getResults',
  invocations,
  billedMs: units.billedMs.getResults,
});

/** results=api: every results request goes through API Gateway to the results function. */
function apiResults(
  { resultsRequests }: MonthVolumes,
  stack: ResultsStack,
  units: UnitCosts,
  profile: TrafficProfile,
): UsageShare {
  return {
    work: [resultsWork(resultsRequests, units)],
    apiRequests: resultsRequests,
    readUnits: resultsRequests * resultsReadUnits(stack, units, monthResultsTraffic(profile, units)),
    clientRequests: resultsRequests,
  };
}

/**
 * results=function-url: only Lambda's own request and duration (no API Gateway request, and a GET
 * with no custom header needs no preflight); its answers are Lambda's data transfer out.
 */
function functionUrlResults(
  { resultsRequests }: MonthVolumes,
  stack: ResultsStack,
  units: UnitCosts,
  profile: TrafficProfile,
): UsageShare {
  return {
    work: [resultsWork(resultsRequests, units)],
    readUnits: resultsRequests * resultsReadUnits(stack, units, monthResultsTraffic(profile, units)),
    directBytes: resultsRequests * profile.apiResponseBytes,
    clientRequests: resultsRequests,
    functionUrlRequests: resultsRequests,
  };
}

/** results=cloudfront: viewers ask CloudFront; each regional cache asks the API at most once per cache period. */
function cloudFrontResults(
  volumes: MonthVolumes,
  stack: ResultsStack,
  units: UnitCosts,
  profile: TrafficProfile,
): UsageShare {
  const { polls, resultsRequests } = volumes;
  const originRequests = cachedAtOrigin(resultsRequests, polls, cachePeriodsOfWatch(profile));
  return {
    work: [resultsWork(originRequests, units)],
    apiRequests: originRequests,
    readUnits: originRequests * resultsReadUnits(stack, units, monthResultsTraffic(profile, units)),
    cloudFrontRequests: resultsRequests,
    cloudFrontOriginBytes: originRequests * units.requestBytes,
    cloudFrontBytes: resultsRequests * profile.apiResponseBytes,
    clientRequests: resultsRequests,
  };
}

/**
 * results=websocket (an estimate, not built): a connection per viewer, one broadcast per poll per
 * push interval, one message per viewer per push; viewers send no results requests.
 */
function webSocketResults(
  volumes: MonthVolumes,
  _stack: ResultsStack,
  units: UnitCosts,
  profile: TrafficProfile,
): UsageShare {
  const { polls, viewers, resultsRequests: messages } = volumes;
  const broadcasts = polls * Math.ceil((profile.watchMinutes * 60) / PUSH_INTERVAL_SECONDS);
  // Each broadcast reads the counts and the connection list, then posts to every connection (~1 ms each).
  const postsPerBroadcast = broadcasts > 0 ? messages / broadcasts : 0;
  return {
    work: [
      { role: 'getResults', invocations: broadcasts, billedMs: units.billedMs.getResults + postsPerBroadcast },
      // Connect and disconnect: an invocation and a 1-WRU write each.
      resultsWork(2 * viewers, units),
    ],
    readUnits: broadcasts * units.readUnitsPerRead + messages * (100 / 4096),
    writeUnits: 2 * viewers,
    directBytes: messages * PUSH_MESSAGE_BYTES,
    webSocketMessages: messages,
    webSocketConnectionMinutes: viewers * profile.watchMinutes,
  };
}

/** Each results design's share of the month: how viewers' results reach them, and what that uses. */
export const RESULTS_SHARES: Record<
  StackConfig['results'],
  (volumes: MonthVolumes, stack: ResultsStack, units: UnitCosts, profile: TrafficProfile) => UsageShare
> = {
  api: apiResults,
  'function-url': functionUrlResults,
  cloudfront: cloudFrontResults,
  websocket: webSocketResults,
};

/**
 * With the API behind the site's distribution (results=cloudfront), creates, poll reads and votes
 * reach it: a CloudFront request each, and their answers leave through CloudFront (its fetches from an
 * AWS origin are free); creates and votes pass through, poll reads only where its cache does not keep them.
 */
export function throughCloudFrontShare(
  { polls, votes, pollReads, originPollReads }: MonthVolumes,
  profile: TrafficProfile,
  units: UnitCosts,
): UsageShare {
  const requests = polls + pollReads + votes;
  return {
    cloudFrontRequests: requests,
    cloudFrontBytes: requests * profile.apiResponseBytes,
    cloudFrontOriginBytes: (polls + originPollReads + votes) * units.requestBytes,
  };
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
): Pick<MonthlyUsage, 'invocations' | 'coldStartShares' | 'gbSeconds' | 'logsGb' | 'logsStoredGb' | 'xrayTraces'> {
  const invocations = invocationsOf(work);
  const coldShares = coldStartShares(invocations, profile, units);
  const gbSeconds = { arm64: 0, x86_64: 0 };
  let logBytes = 0;
  let logsStoredGb = 0;
  let tracedRequests = 0;
  for (const item of work) {
    const fn = stack.functions[item.role];
    const seconds = (item.invocations * (item.billedMs + coldShares[item.role] * units.initMs)) / 1000;
    // On Managed Instances a function bills its instances' hours, not its GB-seconds (and starts no cold INIT).
    if (!stack.managedInstances?.roles.includes(item.role))
      gbSeconds[fn.architecture] += (seconds * fn.memoryMb) / 1024;
    const bytes = item.invocations * logBytesPerInvocation(item.role, fn, units);
    logBytes += bytes;
    // Steady state: each month's logs are kept for the retention period (uncompressed size: an upper bound).
    logsStoredGb += (bytesToUnits(bytes, 'logsStorage') * Math.min(fn.logRetentionDays ?? 3650, 3650)) / DAYS_PER_MONTH;
    if (fn.tracing) tracedRequests += item.invocations;
  }
  const xrayTraces = tracedRequests > 0 ? sampledTraces(tracedRequests) : 0;
  const logsGb = bytesToUnits(logBytes, 'logsIngestion');
  return { invocations, coldStartShares: coldShares, gbSeconds, logsGb, logsStoredGb, xrayTraces };
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

/** The cost of `units` raw units under tiered prices (tiers are cumulative over the month). */
export function tieredCost(units: number, price: Pick<Price, 'tiers' | 'per'>): number {
  let cost = 0;
  let floor = 0;
  for (const tier of price.tiers) {
    const ceiling = tier.upTo ?? Infinity;
    if (units <= floor) break;
    cost += ((Math.min(units, ceiling) - floor) / price.per) * tier.price;
    floor = ceiling;
  }
  return cost;
}

export interface BillLine {
  priceId: PriceId;
  service: string;
  item: string;
  /** Raw units used (requests, GB-s, GB...). */
  usage: number;
  /** Units left after free tiers. */
  billable: number;
  unit: string;
  unitPrice: string;
  usd: number;
  assumption?: string;
}

export interface Bill {
  lines: BillLine[];
  /** What the lines add up to: every month's bill (credits are once: they are not taken off here). */
  totalUsd: number;
  /** The same lines with no always-free allowance taken off: what the month costs once usage is past them. */
  withoutFreeUsd: number;
  /**
   * A new account's sign-up credits (--new-account), given once: what they take off the first month, at
   * most its bill. Designs are ranked, and break-evens found, on the month without them.
   */
  creditsUsd: number;
  votes: number;
  /** Undefined in a month with no votes: a price per vote there is none of. */
  usdPerMillionVotes?: number;
  usage: MonthlyUsage;
  /** A month with CloudFront: a flat-rate plan or pay as you go, the cheaper, and why (cost/estimate/flat-rate.ts). */
  cloudFront?: CloudFrontPricing;
}

export interface BillOptions {
  /** Count the credits a new account gets at sign-up (prices.ts NEW_ACCOUNT_CREDITS), and its quotas. */
  newAccount?: boolean;
}

/**
 * Each price's words on a bill line: its unit ("requests" for "1M requests"), and the price as the bill
 * prints it ("$0.2 per 1M requests", "(tiered)" after it when it has tiers). Made once: a bill is made at
 * every volume the report prices.
 */
const priceTexts = new WeakMap<Price, Pick<BillLine, 'unit' | 'unitPrice'>>();
function priceText(price: Price): Pick<BillLine, 'unit' | 'unitPrice'> {
  let text = priceTexts.get(price);
  if (text === undefined) {
    const first = price.tiers[0].price.toPrecision(3).replace(/\.?0+$/, '');
    text = {
      // "1M requests" -> "requests": usage is counted in raw units.
      unit: price.unit.replace(/^[\d.]+[kM]? /, ''),
      unitPrice: `$${first} per ${price.unit}${price.tiers.length > 1 ? ' (tiered)' : ''}`,
    };
    priceTexts.set(price, text);
  }
  return text;
}

/** A month's usage as a bill, line by line, free tiers taken off (a shared pool once across its lines). */
export function priceUsage(usage: MonthlyUsage, stack: StackConfig, options: BillOptions = {}): Bill {
  const pools = new Map<string, number>();
  const line = (priceId: PriceId, amount: number): BillLine => {
    const price: Price = PRICES[priceId];
    let free = 0;
    if (price.free) {
      const left = price.free.pool ? (pools.get(price.free.pool) ?? price.free.units) : price.free.units;
      free = Math.min(amount, left);
      if (price.free.pool) pools.set(price.free.pool, left - free);
    }
    const billable = amount - free;
    return {
      priceId,
      service: price.service,
      item: price.item,
      usage: amount,
      billable,
      ...priceText(price),
      usd: tieredCost(billable, price),
      assumption: price.assumption,
    };
  };
  const lines = [
    line(stack.apiKind === 'http' ? 'httpApiRequests' : 'restApiRequests', usage.apiRequests),
    line(
      'lambdaRequests',
      Object.values(usage.invocations).reduce((a, b) => a + b, 0),
    ),
    line('lambdaArmGbSeconds', usage.gbSeconds.arm64),
    line('lambdaX86GbSeconds', usage.gbSeconds.x86_64),
    line('sqsFifoRequests', usage.sqsRequests),
    line('dynamoWriteUnits', usage.writeUnits),
    line('dynamoReadUnits', usage.readUnits),
    line('dynamoStorage', usage.storageGb),
    line('logsIngestion', usage.logsGb),
    line('logsStorage', usage.logsStoredGb),
    line('alarms', usage.alarms),
    line('dashboards', usage.dashboards),
    line('customMetrics', usage.customMetrics),
    line('xrayTraces', usage.xrayTraces),
    line('webSocketMessages', usage.webSocketMessages),
    line('webSocketConnectionMinutes', usage.webSocketConnectionMinutes),
    line('cloudFrontRequests', usage.cloudFrontRequests),
    line('cloudFrontFunctions', usage.cloudFrontFunctionInvocations),
    line('cloudFrontTransfer', usage.cloudFrontGb),
    line('cloudFrontOriginTransfer', usage.cloudFrontOriginGb),
    line('s3Gets', usage.s3Gets),
    line('managedInstanceHours', usage.managedInstanceHours),
    line('managedInstanceFee', usage.managedInstanceHours),
    line('dataTransferOut', usage.apiTransferGb),
  ].filter((l) => l.usage > 0);
  const cloudFront = withFlatRatePlan(lines, usage, options, (id) => line(id, 1));
  const totalUsd = lines.reduce((sum, l) => sum + l.usd, 0);
  const withoutFreeUsd = lines.reduce((sum, l) => sum + tieredCost(l.usage, PRICES[l.priceId]), 0);
  const creditsUsd = options.newAccount ? Math.min(totalUsd, NEW_ACCOUNT_CREDITS.usd) : 0;
  return {
    lines,
    totalUsd,
    withoutFreeUsd,
    creditsUsd,
    votes: usage.votes,
    usdPerMillionVotes: perMillion(totalUsd, usage.votes),
    usage,
    cloudFront,
  };
}

/** CloudFront's lines a flat-rate plan includes: its requests, its transfer to viewers and its Functions. */
const IN_FLAT_RATE_PLAN: PriceId[] = ['cloudFrontRequests', 'cloudFrontTransfer', 'cloudFrontFunctions'];

/**
 * Where a flat-rate plan costs less than CloudFront's pay-as-you-go lines, those lines are billed $0 ("in the
 * plan") and the plan's month is added (`planLine`); the choice and why, either way. Changes `lines` in place.
 */
function withFlatRatePlan(
  lines: BillLine[],
  usage: MonthlyUsage,
  options: BillOptions,
  planLine: (id: PriceId) => BillLine,
): CloudFrontPricing | undefined {
  if (!(usage.cloudFrontRequests > 0)) return undefined;
  const included = lines.filter((l) => IN_FLAT_RATE_PLAN.includes(l.priceId));
  const month = {
    requests: usage.cloudFrontRequests,
    transferGb: usage.cloudFrontGb,
    paygUsd: included.reduce((sum, l) => sum + l.usd, 0),
  };
  const pricing = priceCloudFront(month, options.newAccount === true);
  if (!pricing.plan) return pricing;
  for (const l of included) Object.assign(l, { usd: 0, unitPrice: `in the ${pricing.plan.name} plan` });
  lines.push(planLine(pricing.plan.id));
  return pricing;
}

/** Dollars per million of `count`; undefined where there are none to divide by (or too few to make a number of). */
export function perMillion(usd: number, count: number): number | undefined {
  const value = (usd / count) * 1e6;
  return count > 0 && Number.isFinite(value) ? value : undefined;
}

/** The whole estimate for one profile. */
export function estimate(
  profile: TrafficProfile,
  stack: StackConfig,
  units: UnitCosts = DEFAULT_UNIT_COSTS,
  options: BillOptions = {},
): Bill {
  return priceUsage(monthlyUsage(profile, stack, units), stack, options);
}
