/**
 * How big the vote path is: message groups per poll, counter items per poll, and the API stage's
 * throttle. One function sizes it from the votes a second one poll must carry
 * (`-c hotPollVotesPerSecond=<n>`, `npm start -- --hot-poll-votes-per-second <n>`), from AWS's
 * quotas (cost/quotas.ts); the stack deploys what it returns, and the capacity model checks a
 * design against it. Without the flag the path is today's default size.
 */
import { API_THROTTLE, VOTE_QUEUE } from '../config/app-config';
import { quota } from './quotas';

/** The CDK context key (and, in kebab case, the npm start option) that sizes the vote path. */
export const HOT_POLL_FLAG = 'hotPollVotesPerSecond';

/**
 * Each message group and each counter item is sized to run at this share of its AWS limit at the
 * flag's rate: votes hash unevenly over groups, and batches are not always full.
 */
export const VOTE_PATH_HEADROOM = 0.5;

/** Requests the API takes per vote at a hot poll: the poll read before it, its CORS preflight, the vote. */
export const API_REQUESTS_PER_VOTE = 3;

/** The most the flag may ask for: the SQS FIFO queue's sends a second (cost/quotas.ts). */
export const MAX_HOT_POLL_VOTES_PER_SECOND = quota('sqsFifoSendsPerQueue');

export interface VotePath {
  /** The votes a second one poll is sized for; undefined for the default size. */
  hotPollVotesPerSecond?: number;
  /** FIFO message groups a poll's votes are spread over: each takes ~300 sends a second, one batch at a time. */
  groupsPerPoll: number;
  /** Counter items per poll: each takes 1,000 writes a second. */
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
 * each sends at most VOTE_PATH_HEADROOM of its quota; counter shards so each takes at most that
 * share of an item's writes, one write per full batch; a stage throttle that passes the votes and
 * the requests that come with them, its burst within the account's (which cannot be raised).
 */
export function votePathFor(votesPerSecond: number | undefined): VotePath {
  if (votesPerSecond === undefined) return DEFAULT_VOTE_PATH;
  const perGroup = quota('sqsFifoSendsPerGroup') * VOTE_PATH_HEADROOM;
  const writesPerSecond = votesPerSecond / quota('fifoEventSourceBatchSize');
  return {
    hotPollVotesPerSecond: votesPerSecond,
    groupsPerPoll: Math.max(DEFAULT_VOTE_PATH.groupsPerPoll, Math.ceil(votesPerSecond / perGroup)),
    counterShards: Math.max(1, Math.ceil(writesPerSecond / (quota('dynamoItemWriteUnits') * VOTE_PATH_HEADROOM))),
    stageRateLimit: Math.max(DEFAULT_VOTE_PATH.stageRateLimit, Math.ceil(API_REQUESTS_PER_VOTE * votesPerSecond)),
    stageBurstLimit: Math.min(
      quota('apiAccountBurst'),
      Math.max(DEFAULT_VOTE_PATH.stageBurstLimit, Math.ceil(votesPerSecond)),
    ),
  };
}

/**
 * The flag's value checked: a whole number from 1 to the queue's quota; an Error naming the bound
 * otherwise (the stack and the CLIs turn it into their usage error).
 */
export function parseHotPollVotesPerSecond(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '' || value === 'off') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_HOT_POLL_VOTES_PER_SECOND)
    throw new RangeError(
      `${HOT_POLL_FLAG} must be a whole number of votes a second from 1 to ` +
        `${MAX_HOT_POLL_VOTES_PER_SECOND.toLocaleString('en-US')} (the FIFO queue's sends a second), ` +
        `or off (got ${JSON.stringify(value)}).`,
    );
  return n;
}
