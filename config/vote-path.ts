/**
 * How big the vote path is: message groups per poll and counter items per poll, sized from the
 * votes a second one poll must carry (`-c hotPollVotesPerSecond=<n>`, `npm start --
 * --hot-poll-votes-per-second <n>`); and the API stage's throttle, sized from the requests a second
 * the API must pass (`-c apiRateLimit=<n>`). Here its settings and its default size (what a stack without the
 * flags has); sizing/vote-path.ts sizes it from AWS's quotas (config/aws-quotas.ts), the stack deploys what that
 * returns, and the capacity model checks a design against it.
 */
import { API_THROTTLE } from './throttling';
import { VOTE_QUEUE } from './vote-queue';
import { QUOTAS } from './aws-quotas';

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
export const MAX_HOT_POLL_VOTES_PER_SECOND = QUOTAS.sqsFifoSendsPerQueue.value;

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

/** The most `-c apiRateLimit` takes: far above any account throttle AWS grants on request. */
export const MAX_API_RATE_LIMIT = 1_000_000;
