/**
 * What one operation uses, by the function that runs it: the defaults, and what a load test
 * measures in their place (cost/usage/measured.ts). A leaf: the model, the vote path and the stack's
 * reading all take these, so none of them need another for them.
 */
import { CONSUMER_BATCH_MS } from '../../config/vote-path';
import type { MeasuredVoteRates } from '../../config/vote-rates';

export type FunctionRole = 'createPoll' | 'getPoll' | 'castVote' | 'getResults' | 'countVotes';

/** Every function the bill prices, by its role. */
export const FUNCTION_ROLES: readonly FunctionRole[] = [
  'createPoll',
  'getPoll',
  'castVote',
  'getResults',
  'countVotes',
];

/** `CreatePoll` (a function's name in the template's metadata and in metered usage) -> `createPoll`. */
export const functionRole = (name: string): FunctionRole | undefined =>
  FUNCTION_ROLES.find((role) => role.toLowerCase() === name.toLowerCase());

/**
 * What one operation uses. The defaults are measurements of this code where we
 * have them and stated assumptions where not; measured mode (--from) replaces
 * them with a load test's figures.
 */
export interface UnitCosts extends MeasuredVoteRates {
  /** Average billed milliseconds per invocation (the consumer: per batch, and so its cycle: cost/estimate/rates.ts). */
  billedMs: Record<FunctionRole, number>;
  /**
   * How long a batch holds its message groups, receive to delete (the local runtime meters it): how many
   * votes the next batch of a group finds (cost/estimate/rates.ts). Unset: the consumer's billed time a batch.
   */
  batchCycleMs?: number;
  /**
   * What INIT bills a cold start (billed since 2025-08-01); the share of invocations that start cold follows
   * from the traffic (cost/estimate/cold-starts.ts).
   */
  initMs: number;
  /** An eventually consistent GetItem of an item under 4 KB. */
  readUnitsPerRead: number;
  /**
   * What one results request reads, with the results function keeping each poll's counts in memory
   * for the results max-age (domain/results-cache.ts): measured by a load test; unset, it
   * follows from the traffic (cost/estimate/rates.ts resultsReadsPerRequest).
   */
  readUnitsPerResultsRequest?: number;
  /** A create writes the poll and its counter item (BatchWriteItem, both under 1 KB). */
  writeUnitsPerCreate: number;
  /** The conditional PutItem that claims a voter, when a poll allows one vote per voter. */
  writeUnitsPerVoterClaim: number;
  /** Lambda's pollers ask an idle queue ~10-15 times a minute. */
  emptyReceivesPerMonth: number;
  /** The consumer logs one INFO line per batch. */
  appLogBytesPerBatch: number;
  /** A function with custom metrics writes one embedded-metric-format line per invocation. */
  metricLogBytesPerInvocation: number;
  /** START/END/REPORT lines, written unless logs are JSON with system level WARN. */
  platformLogBytesPerInvocation: number;
  /** The page carries its script, styles and config: one request a visit. */
  siteRequestsPerPageLoad: number;
  /** A request as a browser sends it, headers and body: what CloudFront bills to pass it to an origin. */
  requestBytes: number;
  /** Share of site requests CloudFront passes to S3. */
  siteOriginMissShare: number;
  storedBytesPerPoll: number;
  storedBytesPerVoterClaim: number;
  /** Where each figure comes from (printed with the bill). */
  sources: Record<string, string>;
}

/** What each operation uses when no load test says otherwise, each figure with its source. */
export const DEFAULT_UNIT_COSTS: UnitCosts = {
  billedMs: { createPoll: 30, getPoll: 12, castVote: 25, getResults: 2, countVotes: CONSUMER_BATCH_MS },
  initMs: 250,
  readUnitsPerRead: 0.5,
  writeUnitsPerCreate: 2,
  writeUnitsPerVoterClaim: 1,
  emptyReceivesPerMonth: 450_000,
  appLogBytesPerBatch: 300,
  metricLogBytesPerInvocation: 370,
  platformLogBytesPerInvocation: 300,
  siteRequestsPerPageLoad: 1,
  requestBytes: 700,
  siteOriginMissShare: 0.01,
  storedBytesPerPoll: 1_500,
  storedBytesPerVoterClaim: 120,
  sources: {
    billedMs:
      'assumption: warm Node.js on arm64, one DynamoDB or SQS call per request (~10-40 ms); results 2 ms, ' +
      'most answered from the function’s cache (1.1 ms measured by npm run load -- results-viewers, local); ' +
      'the consumer 40 ms a batch (npm run load -- vote-storm measured 7.1 ms locally on 2026-11-24, with ' +
      'DynamoDB in the same process: AWS’s round trips are slower, so the model keeps 40 unless --from says); ' +
      'a batch holds its message groups that long (the event source’s receive and delete add to it: a longer ' +
      'hold fills batches more, so this overstates writes a vote, if anything)',
    readUnitsPerResultsRequest:
      'derived: each of the results function’s environments (at least one per 10 requests a second) reads each ' +
      'open poll once per results max-age (cost/estimate/rates.ts); npm run load -- results-viewers measured ' +
      '0.0106 on one local container, where one environment serves them all',
    coldStartShare:
      'assumption: an idle environment is gone after 10 minutes (AWS publishes no value: mikhail.io measured 10 ' +
      'minutes in 2019); each function starts cold after a gap that long between its requests, and for each ' +
      'environment a poll needs at once when no poll was open (cost/estimate/cold-starts.ts); 250 ms INIT each',
    votesPerBatch:
      'derived: the votes a message group gets while its last batch is processed (cost/estimate/rates.ts), from each ' +
      "poll's votes a second, its message groups and the consumer's time a batch",
    counterWriteUnitsPerVote: 'derived: one write per poll’s counter per batch (cost/estimate/rates.ts)',
    sqsRequestsPerVote: 'derived: a send per vote, a receive and a batch delete per batch (cost/estimate/rates.ts)',
    emptyReceivesPerMonth:
      'assumption: idle pollers make ~10-15 empty receives a minute (user reports, not documented by AWS)',
    siteOriginMissShare: 'assumption: 1% of site requests miss CloudFront’s cache',
    requestBytes:
      'assumption: 700 bytes a request, headers included (a browser’s usual headers, a vote’s few bytes of body)',
    siteRequestsPerPageLoad:
      'measured: the built page inlines its script, styles and config ' +
      '(npm run build:site; test/local/gateway-and-fidelity)',
    metricLogBytesPerInvocation: 'measured: the consumer’s metrics line (Powertools Metrics, 4 counts) is 366 bytes',
  },
};

/** How long a batch holds its message groups: measured by a load test, else the consumer's time a batch. */
export const batchCycleMs = (units: Pick<UnitCosts, 'batchCycleMs' | 'billedMs'>): number =>
  units.batchCycleMs ?? units.billedMs.countVotes;
