/**
 * Each results design's share of the month's usage (results=api, function-url, cloudfront, and websocket,
 * an estimate of a design not built), and the read units a results request costs at the results function's
 * traffic, which the capacity verdicts read too. Pure.
 */
import { RESULTS_CACHE_SECONDS } from '../../config/caching';
import { type ResultsTraffic, resultsEnvironments, resultsReadsPerRequest } from './rates';
import type { StackConfig } from './stack-config';
import type { UnitCosts } from '../usage/unit-costs';
import { resultsRequestsPerViewer, type TrafficProfile } from '../usage/traffic-profile';
import { type LambdaWork, type MonthVolumes, type UsageShare, cachedAtOrigin, cachePeriodsOfWatch } from './shares';
import { quota } from '../../sizing/quotas';

/** With WebSocket push, the server sends an update this often while votes arrive (as fast as the page would ask). */
const PUSH_INTERVAL_SECONDS = RESULTS_CACHE_SECONDS;

/** Bytes of one pushed results message. */
const PUSH_MESSAGE_BYTES = 200;

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

/** Every results request invokes the results function, which reads the counts as the stack reads them. */
function invokedEveryRequest(
  { resultsRequests }: MonthVolumes,
  stack: ResultsStack,
  units: UnitCosts,
  profile: TrafficProfile,
): UsageShare {
  return {
    work: [resultsWork(resultsRequests, units)],
    readUnits: resultsRequests * resultsReadUnits(stack, units, monthResultsTraffic(profile, units)),
    clientRequests: resultsRequests,
  };
}

/** results=api: every results request goes through API Gateway to the results function. */
function apiResults(volumes: MonthVolumes, stack: ResultsStack, units: UnitCosts, profile: TrafficProfile): UsageShare {
  return { ...invokedEveryRequest(volumes, stack, units, profile), apiRequests: volumes.resultsRequests };
}

/**
 * results=function-url: only Lambda's own request and duration (no API Gateway request, and a GET
 * with no custom header needs no preflight); its answers are Lambda's data transfer out.
 */
function functionUrlResults(
  volumes: MonthVolumes,
  stack: ResultsStack,
  units: UnitCosts,
  profile: TrafficProfile,
): UsageShare {
  return {
    ...invokedEveryRequest(volumes, stack, units, profile),
    directBytes: volumes.resultsRequests * profile.apiResponseBytes,
    functionUrlRequests: volumes.resultsRequests,
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
