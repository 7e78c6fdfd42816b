/**
 * The VPS edition's storage: polls, their counts and voter claims in memory, every change
 * made durable in the journal before it is applied and acknowledged. It is the PollStore and
 * the VoteSink the handlers use (lambdas/domain/ports.ts), as DynamoDB and SQS are on AWS.
 * A vote is counted when its record is on disk: no queue, no consumer, no carpool needed.
 */
import { isExpired, type Poll } from '../lambdas/domain/poll';
import type { PollStore, VoteSink } from '../lambdas/domain/ports';
import type { PollCounts } from '../lambdas/domain/results';
import type { VoteMessage } from '../lambdas/domain/vote';

/** What the log holds. Short keys: there is one `vote` line per vote. */
export type StateRecord =
  | { k: 'poll'; poll: Poll }
  /** A vote counted for option `o` of poll `p`, cast at `at`. */
  | { k: 'vote'; p: string; o: number; at: string }
  | { k: 'claim'; p: string; h: string }
  | { k: 'release'; p: string; h: string }
  /** A compacted poll's counts (the votes it replaces). */
  | { k: 'counts'; p: string; c: number[]; at: string };

export function isStateRecord(value: unknown): value is StateRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  switch (r.k) {
    case 'poll':
      return (
        typeof r.poll === 'object' &&
        r.poll !== null &&
        typeof (r.poll as Poll).id === 'string' &&
        Array.isArray((r.poll as Poll).options)
      );
    case 'vote':
      return typeof r.p === 'string' && Number.isInteger(r.o) && typeof r.at === 'string';
    case 'claim':
    case 'release':
      return typeof r.p === 'string' && typeof r.h === 'string';
    case 'counts':
      return typeof r.p === 'string' && Array.isArray(r.c) && r.c.every(Number.isInteger) && typeof r.at === 'string';
    default:
      return false;
  }
}

interface Entry {
  poll: Poll;
  counts: number[];
  updatedAt: string;
  /** Voter claims that are on disk. */
  voters: Set<string>;
}

/** Where records are made durable before they are applied: the journal. */
export type Persist = (record: StateRecord, apply: () => void) => Promise<void>;

export class PollState implements PollStore, VoteSink {
  private readonly polls = new Map<string, Entry>();
  /** Claims on their way to disk: a second claim for the same voter must wait for none. */
  private readonly claiming = new Set<string>();

  /** Until the log is replayed, changes are only applied: they are the log's own. */
  private persist: Persist = async (_record, apply) => apply();

  /** From here on, changes go through `persist` (after the log was replayed into this state). */
  persistWith(persist: Persist): void {
    this.persist = persist;
  }

  /** Replays one record of the log; a record for an unknown poll (it expired and was compacted away) is ignored. */
  apply(record: StateRecord): void {
    if (record.k === 'poll') {
      this.polls.set(record.poll.id, {
        poll: record.poll,
        counts: record.poll.options.map(() => 0),
        updatedAt: record.poll.createdAt,
        voters: new Set(),
      });
      return;
    }
    const entry = this.polls.get(record.p);
    if (!entry) return;
    if (record.k === 'vote') {
      if (record.o >= 0 && record.o < entry.counts.length) entry.counts[record.o]++;
      entry.updatedAt = record.at;
    } else if (record.k === 'counts') {
      entry.counts = entry.poll.options.map((_, i) => record.c[i] ?? 0);
      entry.updatedAt = record.at;
    } else if (record.k === 'claim') entry.voters.add(record.h);
    else entry.voters.delete(record.h);
  }

  async putNewPoll(poll: Poll): Promise<void> {
    const record: StateRecord = { k: 'poll', poll };
    await this.persist(record, () => this.apply(record));
  }

  async getPoll(id: string): Promise<Poll | undefined> {
    return this.polls.get(id)?.poll;
  }

  async getCounts(id: string): Promise<PollCounts | undefined> {
    const entry = this.polls.get(id);
    if (!entry) return undefined;
    return {
      votes: Object.fromEntries(entry.counts.map((n, i) => [String(i), n])),
      total: entry.counts.reduce((a, b) => a + b, 0),
      optionCount: entry.counts.length,
      updatedAt: entry.updatedAt,
      closesAt: entry.poll.closesAt,
      expiresAt: entry.poll.expiresAt,
    };
  }

  async claimVoter(pollId: string, voter: string): Promise<boolean> {
    const entry = this.polls.get(pollId);
    const key = `${pollId}#${voter}`;
    if (!entry || entry.voters.has(voter) || this.claiming.has(key)) return false;
    this.claiming.add(key);
    try {
      const record: StateRecord = { k: 'claim', p: pollId, h: voter };
      await this.persist(record, () => this.apply(record));
      return true;
    } finally {
      this.claiming.delete(key);
    }
  }

  async releaseVoter(pollId: string, voter: string): Promise<void> {
    const record: StateRecord = { k: 'release', p: pollId, h: voter };
    await this.persist(record, () => this.apply(record));
  }

  /** The VoteSink: once this resolves, the vote is on disk and counted. */
  async send(vote: VoteMessage): Promise<void> {
    const record: StateRecord = { k: 'vote', p: vote.pollId, o: vote.option, at: vote.castAt };
    await this.persist(record, () => this.apply(record));
  }

  /** Forgets polls past their expiry, as DynamoDB's TTL deletes them (the next compaction drops them from disk). */
  sweep(nowMs: number): number {
    let removed = 0;
    for (const [id, entry] of this.polls) {
      if (isExpired(entry.poll, nowMs)) {
        this.polls.delete(id);
        removed++;
      }
    }
    return removed;
  }

  /** The whole state as records: what a compacted log holds. */
  snapshot(): StateRecord[] {
    return [...this.polls.values()].flatMap((entry): StateRecord[] => [
      { k: 'poll', poll: entry.poll },
      { k: 'counts', p: entry.poll.id, c: entry.counts, at: entry.updatedAt },
      ...[...entry.voters].map((h): StateRecord => ({ k: 'claim', p: entry.poll.id, h })),
    ]);
  }

  get size(): { polls: number; votes: number } {
    let votes = 0;
    for (const entry of this.polls.values()) for (const n of entry.counts) votes += n;
    return { polls: this.polls.size, votes };
  }
}
