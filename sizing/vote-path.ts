/**
 * The vote path sized for the flags (config/vote-path.ts): message groups and counter shards from one poll's
 * votes a second, the stage throttle from the API's requests a second, each held to AWS's quotas in us-east-1.
 * The stack deploys what these return (lib/app.ts), and the capacity model checks a design against them.
 */
import { API_THROTTLE } from '../config/throttling';
import { VOTE_QUEUE } from '../config/vote-queue';
import { CONSUMER_BATCH_MS, DEFAULT_VOTE_PATH, VOTE_PATH_HEADROOM, type VotePath } from '../config/vote-path';
import { quota } from './quotas';
import { voteRates } from './vote-rates';

/**
 * The vote path sized for `votesPerSecond` on one poll: never smaller than the default. Groups so
 * each sends at most VOTE_PATH_HEADROOM of its quota; counter shards so each partition key takes at
 * most that share of its write units, at the writes a vote that rate brings and the units a write
 * of an item that size takes (sizing/vote-rates.ts, with the consumer's assumed time a batch). The stage
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
