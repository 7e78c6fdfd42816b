/**
 * The ports: what the handlers need from the world, as small interfaces, all of them here. On
 * AWS they are DynamoDB, SQS, SSM and Powertools (lambdas/adapters/); in the VPS edition memory
 * and a log on disk (vps/); in handler tests, in-memory fakes (test/support/fakes.ts).
 */
import type { ConsumerMetricName } from '../config/vote-queue';
import type { CaptchaAction } from './captcha';
import type { Verdict, CountGuards } from './dead-letter';
import type { Poll } from './poll';
import type { PollCounts } from './results';
import type { PollTally, QueuedRecord, RedrivenVote } from './tally';
import type { CounterRef, VoteLayout, VoteMessage } from './vote';

/** Polls, their counts and voter claims, as the API functions read and write them. */
export interface PollStore {
  /** Stores a new poll and its zeroed counts (one counter item per counter shard of its size). */
  putNewPoll(poll: Poll): Promise<void>;
  getPoll(id: string): Promise<Poll | undefined>;
  /** The poll's counts: its counter items summed (results.ts sumCounts). */
  getCounts(id: string): Promise<PollCounts | undefined>;
  /**
   * One vote per voter: claims the voter for this poll. `ballot` (the id of a vote sent with an
   * idempotency key) is kept with the claim, so a retry of that ballot finds it its own.
   */
  claimVoter(pollId: string, voter: string, expiresAt: number, ballot?: string): Promise<VoterClaim>;
  /** Undoes a claim whose vote could not be accepted, so the voter may try again; only this ballot's claim. */
  releaseVoter(pollId: string, voter: string, ballot?: string): Promise<void>;
}

/** `claimed`: by this request; `retried`: by an earlier try of the same ballot; `taken`: by another vote. */
export type VoterClaim = 'claimed' | 'retried' | 'taken';

/** Where an accepted vote goes; once `send` resolves, the vote must never be lost. */
export interface VoteSink {
  /**
   * `keyed`: the vote came with an idempotency key, so a vote with its id within the window is
   * the same vote, counted once (SQS drops it by its deduplication id; the VPS edition remembers it).
   * `poll`: how its poll spreads votes, for a sink that does (the queue's message groups and counter items:
   * vote.ts voteRoute); the VPS edition's log counts in one place.
   */
  send(vote: VoteMessage, to: { keyed: boolean; poll: VoteLayout }): Promise<void>;
}

export type ApplyOutcome =
  | { kind: 'applied' }
  /** The condition failed: these are the marks that are stored. */
  | { kind: 'conflict'; applied: Record<string, string> }
  | { kind: 'poll-missing' };

/** The counts as the vote consumer writes them (domain/tally.ts says why this is exact). */
export interface CountStore {
  /** Adds a tally to its counter item in one conditional write, unless a vote of it was applied before. */
  applyTally(tally: PollTally, nowIso: string): Promise<ApplyOutcome>;
  /** What a counter item says was applied (strongly consistent); undefined when the poll is gone. */
  readGuards(item: CounterRef): Promise<CountGuards | undefined>;
  /** Counts one redriven vote unless its id was counted before. */
  applyRedrivenVote(vote: RedrivenVote, nowIso: string): Promise<'applied' | 'poll-missing'>;
}

/** Where the consumer puts a record it judged on its last delivery. */
export interface DeadLetterSink {
  send(record: QueuedRecord, verdict: Verdict): Promise<void>;
}

/** Milliseconds since the epoch; a port so that tests can hold time still. */
export type Clock = () => number;

/** Where a handler reports what it could not handle. */
export interface Log {
  error(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
}

/** What the consumer counts for operators to watch (the CloudWatch metrics on AWS). */
export interface ConsumerMetrics {
  add(name: ConsumerMetricName, value: number): void;
  deadLettered(verdict: Verdict): void;
  /** Writes what was added; called once per invocation. */
  publish(): void;
}

/** Whether a request's CAPTCHA token is good for an action: the body without it, or a thrown PollError. */
export type CaptchaCheck = (body: unknown, sourceIp: string, action: CaptchaAction) => Promise<unknown>;
