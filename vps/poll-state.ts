/**
 * The VPS edition's storage: polls, their counts and voter claims in memory, every change
 * made durable in the journal before it is applied and acknowledged. It is the PollStore and
 * the VoteSink the handlers use (domain/ports.ts), as DynamoDB and SQS are on AWS.
 * A vote is counted when its record is on disk: no queue, no consumer, no carpool needed.
 */
import { IDEMPOTENCY } from '../config/api-contract';
import { PollError } from '../domain/errors';
import { isExpired, type Poll } from '../domain/poll';
import type { PollStore, VoterClaim, VoteSink } from '../domain/ports';
import type { PollCounts } from '../domain/results';
import type { VoteMessage } from '../domain/vote';
import { lineOf } from './journal';

/** What the log holds. Short keys: there is one `vote` line per vote. */
export type StateRecord =
  | { k: 'poll'; poll: Poll }
  /** A vote counted for option `o` of poll `p`, cast at `at`; `id`: its vote id, if it came with an idempotency key. */
  | { k: 'vote'; p: string; o: number; at: string; id?: string }
  /** A keyed vote still in its window, already in its poll's counts: what a compacted log keeps of it. */
  | { k: 'ballot'; p: string; o: number; at: string; id: string }
  /** A voter claim; `b` is the vote id of the keyed ballot that made it. */
  | { k: 'claim'; p: string; h: string; b?: string }
  | { k: 'release'; p: string; h: string }
  /** A compacted poll's counts (the votes it replaces). */
  | { k: 'counts'; p: string; c: number[]; at: string };

const optional = (value: unknown): boolean => value === undefined || typeof value === 'string';

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
      return typeof r.p === 'string' && Number.isInteger(r.o) && typeof r.at === 'string' && optional(r.id);
    case 'ballot':
      return typeof r.p === 'string' && Number.isInteger(r.o) && typeof r.at === 'string' && typeof r.id === 'string';
    case 'claim':
      return typeof r.p === 'string' && typeof r.h === 'string' && optional(r.b);
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
  /** Voter claims that are on disk, each with the ballot that made it (none for a vote without a key). */
  voters: Map<string, string | undefined>;
  /** Its counts as getCounts answers them, until they change: one object, so its answer is kept too. */
  view?: PollCounts;
}

/** A keyed vote, remembered for the idempotency window (as SQS remembers its deduplication id). */
interface Ballot {
  pollId: string;
  option: number;
  castAt: string;
  /** Settles when its record is on disk (or could not be written). */
  written: Promise<void>;
}

const WINDOW_MS = IDEMPOTENCY.windowSeconds * 1000;

/** Where records are made durable before they are applied: the journal (`line`: the record encoded already). */
export type Persist = (record: StateRecord, apply: () => void, line?: string) => Promise<void>;

/** A vote's record in the log. */
export type VoteRecord = Extract<StateRecord, { k: 'vote' }>;

/** What the log says of a vote the sink accepts; its id only with a key (the id a retry of it names). */
export const voteRecord = ({ voteId, pollId, option, castAt }: VoteMessage, keyed: boolean): VoteRecord => ({
  k: 'vote',
  p: pollId,
  o: option,
  at: castAt,
  ...(keyed ? { id: voteId } : {}),
});

const quoted = JSON.stringify;

/**
 * A vote's log line. Its JSON is made field by field, in voteRecord's order: what JSON.stringify makes of the
 * record (tested), in half the time.
 */
export const voteLine = ({ p, o, at, id }: VoteRecord): string => {
  const keyed = id === undefined ? '' : `,"id":${quoted(id)}`;
  return lineOf(`{"k":"vote","p":${quoted(p)},"o":${quoted(o)},"at":${quoted(at)}${keyed}}`);
};

export class PollState implements PollStore, VoteSink {
  private readonly polls = new Map<string, Entry>();
  /** Claims on their way to disk: a second claim for the same voter waits for the first. */
  private readonly claiming = new Map<string, Promise<void>>();
  /** Keyed votes by vote id, for the idempotency window. */
  private readonly ballots = new Map<string, Ballot>();

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
        voters: new Map(),
      });
      return;
    }
    const entry = this.polls.get(record.p);
    if (!entry) return;
    entry.view = undefined;
    if (record.k === 'vote') {
      if (record.o >= 0 && record.o < entry.counts.length) entry.counts[record.o]++;
      entry.updatedAt = record.at;
    } else if (record.k === 'counts') {
      entry.counts = entry.poll.options.map((_, i) => record.c[i] ?? 0);
      entry.updatedAt = record.at;
    } else if (record.k === 'claim') entry.voters.set(record.h, record.b);
    else if (record.k === 'release') entry.voters.delete(record.h);
    if ((record.k === 'vote' || record.k === 'ballot') && record.id !== undefined) {
      this.ballots.set(record.id, {
        pollId: record.p,
        option: record.o,
        castAt: record.at,
        written: Promise.resolve(),
      });
    }
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
    entry.view ??= Object.freeze({
      votes: Object.freeze(Object.fromEntries(entry.counts.map((n, i) => [String(i), n]))),
      total: entry.counts.reduce((a, b) => a + b, 0),
      optionCount: entry.counts.length,
      updatedAt: entry.updatedAt,
      closesAt: entry.poll.closesAt,
      expiresAt: entry.poll.expiresAt,
    });
    return entry.view;
  }

  async claimVoter(pollId: string, voter: string, expiresAt: number, ballot?: string): Promise<VoterClaim> {
    const entry = this.polls.get(pollId);
    if (!entry) return 'taken';
    const key = `${pollId}#${voter}`;
    const pending = this.claiming.get(key);
    if (pending) {
      await pending.catch(() => undefined);
      return this.claimVoter(pollId, voter, expiresAt, ballot);
    }
    if (entry.voters.has(voter))
      return ballot !== undefined && entry.voters.get(voter) === ballot ? 'retried' : 'taken';
    const record: StateRecord = { k: 'claim', p: pollId, h: voter, ...(ballot === undefined ? {} : { b: ballot }) };
    const written = this.persist(record, () => this.apply(record));
    this.claiming.set(key, written);
    try {
      await written;
      return 'claimed';
    } finally {
      this.claiming.delete(key);
    }
  }

  async releaseVoter(pollId: string, voter: string, ballot?: string): Promise<void> {
    if (ballot !== undefined && this.polls.get(pollId)?.voters.get(voter) !== ballot) return;
    const record: StateRecord = { k: 'release', p: pollId, h: voter };
    await this.persist(record, () => this.apply(record));
  }

  /**
   * The VoteSink: once this resolves, the vote is on disk and counted. A keyed vote whose id was
   * seen within the window is that vote again: it resolves when the first is on disk, or is refused
   * if it names another option (a key reused for a different ballot).
   */
  send(vote: VoteMessage, { keyed }: { keyed: boolean }): Promise<void> {
    const record = voteRecord(vote, keyed);
    return this.sendRecord(record, voteLine(record));
  }

  /**
   * `send`, given the vote's record (with its id if it came with a key), and its line if encoded already.
   * Not an async function: a vote's promise is its flush's, with no layer of its own (the box's hot path).
   */
  sendRecord(record: VoteRecord, line?: string): Promise<void> {
    const { p: pollId, o: option, at: castAt, id: voteId } = record;
    const earlier = voteId === undefined ? undefined : this.ballots.get(voteId);
    if (earlier && Date.parse(castAt) - Date.parse(earlier.castAt) < WINDOW_MS) {
      if (earlier.option !== option) {
        return Promise.reject(
          new PollError('idempotency_key_reused', 'This Idempotency-Key was sent with another option.'),
        );
      }
      return earlier.written;
    }
    const written = this.persist(record, () => this.apply(record), line);
    if (voteId !== undefined) {
      this.ballots.set(voteId, { pollId, option, castAt, written });
      written.catch(() => {
        // Not on disk, so not a vote: a retry writes it again.
        if (this.ballots.get(voteId)?.written === written) this.ballots.delete(voteId);
      });
    }
    return written;
  }

  /**
   * Forgets keyed votes past the idempotency window, and polls past their expiry as DynamoDB's TTL
   * deletes them (the next compaction drops both from disk).
   */
  sweep(nowMs: number): number {
    for (const [id, ballot] of this.ballots)
      if (nowMs - Date.parse(ballot.castAt) >= WINDOW_MS) this.ballots.delete(id);
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
    const polls = [...this.polls.values()].flatMap((entry): StateRecord[] => [
      { k: 'poll', poll: entry.poll },
      { k: 'counts', p: entry.poll.id, c: entry.counts, at: entry.updatedAt },
      ...[...entry.voters].map(([h, b]): StateRecord => ({ k: 'claim', p: entry.poll.id, h, ...(b ? { b } : {}) })),
    ]);
    const ballots = [...this.ballots]
      .filter(([, ballot]) => this.polls.has(ballot.pollId))
      .map(([id, { pollId, option, castAt }]): StateRecord => ({ k: 'ballot', p: pollId, o: option, at: castAt, id }));
    return [...polls, ...ballots];
  }

  get size(): { polls: number; votes: number } {
    let votes = 0;
    for (const entry of this.polls.values()) for (const n of entry.counts) votes += n;
    return { polls: this.polls.size, votes };
  }
}
