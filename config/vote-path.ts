/**
 * How big the vote path is: message groups per poll and counter items per poll, sized from the
 * votes a second one poll must carry (`-c hotPollVotesPerSecond=<n>`, `npm start --
 * --hot-poll-votes-per-second <n>`); and the API stage's throttle, sized from the requests a second
 * the API must pass (`-c apiRateLimit=<n>`). Both from AWS's quotas (config/aws-quotas.ts); the stack
 * deploys what they return, and the capacity model checks a design against it. Without the flags
 * the path is today's default size.
 */
import { API_THROTTLE } from './throttling';
import { VOTE_QUEUE } from './vote-queue';
import { quota } from './aws-quotas';
import { voteRates } from './vote-rates';

/**
 * The consumer's time a batch the sizing assumes: also the estimator's default (cost/usage/unit-costs.ts
 * DEFAULT_UNIT_COSTS, where its source is given), unless a load test measured another.
 */
export const CONSUMER_BATCH_MS = 40;

/** The CDK context key (and, in kebab case, the npm start option) that sizes the vote path. */
export const HOT_POLL_FLAG = 'hotPollVotesPerSecond';
/** The CDK context key (and, in kebab case, the npm start option) that sets the API stage's throttle. */
export const API_RATE_FLAG = 'apiRateLimit';

/**
 * Each message group and each counter item is sized to run at this share of its AWS limit at the
 * flag's rate: votes hash unevenly over groups, and batches are not always full.
 */
export const VOTE_PATH_HEADROOM = 0.5;

/** The most the flag may ask for: the SQS FIFO queue's sends a second (config/aws-quotas.ts). */
export const MAX_HOT_POLL_VOTES_PER_SECOND = quota('sqsFifoSendsPerQueue');

export interface VotePath {
  /** The votes a second one poll is sized for; undefined for the default size. */
  hotPollVotesPerSecond?: number;
  /** FIFO message groups a poll's votes are spread over: each takes ~300 sends a second, one batch at a time. */
  groupsPerPoll: number;
  /** Counter items per poll, each on a partition key of its own: each key takes 1,000 writes a second. */
  counterShards: number;
  /** The API stage's throttle, every route together. */
  stageRateLimit: number;
  stageBurstLimit: number;
}

/** Today's size: what a stack deployed without the flag has. */
export const DEFAULT_VOTE_PATH: VotePath = {
  groupsPerPoll: VOTE_QUEUE.groupsPerPoll,
  counterShards: 1,
  stageRateLimit: API_THROTTLE.rateLimit,
  stageBurstLimit: API_THROTTLE.burstLimit,
};

/**
 * The vote path sized for `votesPerSecond` on one poll: never smaller than the default. Groups so
 * each sends at most VOTE_PATH_HEADROOM of its quota; counter shards so each partition key takes at
 * most that share of its write units, at the writes a vote that rate brings and the units a write
 * of an item that size takes (config/vote-rates.ts, with the consumer's assumed time a batch). The stage
 * throttle is the API's own flag (withApiRateLimit).
 */
export function votePathFor(votesPerSecond: number | undefined): VotePath {
  if (votesPerSecond === undefined) return DEFAULT_VOTE_PATH;
  const perGroup = quota('sqsFifoSendsPerGroup') * VOTE_PATH_HEADROOM;
  const groupsPerPoll = Math.max(DEFAULT_VOTE_PATH.groupsPerPoll, Math.ceil(votesPerSecond / perGroup));
  const perKey = quota('dynamoItemWriteUnits') * VOTE_PATH_HEADROOM;
  const unitsPerKey = (counterShards: number) =>
    (votesPerSecond / counterShards) *
    voteRates(
      votesPerSecond,
      { consumer: { batchSize: VOTE_QUEUE.batchSize }, votePath: { groupsPerPoll, counterShards } },
      CONSUMER_BATCH_MS,
    ).counterWriteUnitsPerVote;
  // Fewer groups an item make a smaller item, and a write of fewer units: the count is found, not solved for.
  let counterShards = 1;
  while (unitsPerKey(counterShards) > perKey && counterShards < groupsPerPoll) counterShards++;
  return { ...DEFAULT_VOTE_PATH, hotPollVotesPerSecond: votesPerSecond, groupsPerPoll, counterShards };
}

/**
 * The path with the API stage's throttle at `requestsPerSecond` (every route together), its burst
 * a second's worth within the account's (which cannot be raised); the default throttle when undefined.
 */
export function withApiRateLimit(path: VotePath, requestsPerSecond: number | undefined): VotePath {
  if (requestsPerSecond === undefined) return path;
  return {
    ...path,
    stageRateLimit: requestsPerSecond,
    stageBurstLimit: Math.min(quota('apiAccountBurst'), Math.max(API_THROTTLE.burstLimit, requestsPerSecond)),
  };
}

/** The most `-c apiRateLimit` takes: far above any account throttle AWS grants on request. */
export const MAX_API_RATE_LIMIT = 1_000_000;

/** -c apiRateLimit: requests a second, every route together. */
export const parseApiRateLimit = (value: unknown) =>
  parseRateFlag(value, API_RATE_FLAG, 'requests', MAX_API_RATE_LIMIT);

/**
 * A rate flag's value checked: a whole number from 1 to `max`, or off (undefined); a RangeError naming
 * the flag, what it counts and the bound otherwise (the stack and the CLIs turn it into their usage error).
 */
function parseRateFlag(value: unknown, flag: string, what: string, max: number, bound = ''): number | undefined {
  if (value === undefined || value === null || value === '' || value === 'off') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new RangeError(
      `${flag} must be a whole number of ${what} a second from 1 to ${max.toLocaleString('en-US')}${bound}, ` +
        `or off (got ${JSON.stringify(value)}).`,
    );
  return n;
}

/** -c hotPollVotesPerSecond: up to the FIFO queue's sends a second. */
export const parseHotPollVotesPerSecond = (value: unknown) =>
  parseRateFlag(value, HOT_POLL_FLAG, 'votes', MAX_HOT_POLL_VOTES_PER_SECOND, " (the FIFO queue's sends a second)");
