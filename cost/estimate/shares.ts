/**
 * The month's volumes for a profile (polls, votes, visits, viewers, preflights), and the shares of its usage
 * that every design has: the app's (pages, creates, poll reads, votes and the consumer counting them), and
 * CloudFront's where the API is behind it. Each results design adds its own (results-shares.ts); the month
 * is their sum (monthly-usage.ts). Pure.
 */
import { RESULTS_CACHE_SECONDS } from '../../config/caching';
import { preflightsPerVote } from './rates';
import type { VoteRates } from '../../config/vote-rates';
import type { StackConfig } from './stack-config';
import { type FunctionRole, batchCycleMs, type UnitCosts } from '../usage/unit-costs';
import { DAYS_PER_MONTH, resultsRequestsPerViewer, type TrafficProfile } from '../usage/traffic-profile';
import { voteRates } from '../../sizing/vote-rates';

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
