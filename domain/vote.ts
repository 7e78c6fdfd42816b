import { createHash, createHmac } from 'node:crypto';
import { IDEMPOTENCY } from '../config/api-contract';
import { VOTE_QUEUE } from '../config/vote-queue';
import { invalid, invalidField, PollError } from './errors';
import { idOf, newId } from './ids';
import { COUNTER_LAYOUTS, isClosed, type CounterLayout, type Poll, type PollSize } from './poll';

/** How a poll spreads its votes: its message groups and counter items (a hot poll's), where its items are. */
export type VoteLayout = Pick<Poll, 'groups' | 'counterShards' | 'counterLayout'>;

/** What the vote function puts on the queue; the consumer trusts nothing else. */
export interface VoteMessage {
  v: 1;
  voteId: string;
  pollId: string;
  option: number;
  castAt: string;
  /**
   * The poll's counter item the vote is counted in (its message group's: voteRoute); absent: 0,
   * the poll's only one unless it was created sized for a hot poll.
   */
  counter?: number;
  /** Where that counter item is (its poll's layout), given with `counter`; absent: a poll created before layouts. */
  counterLayout?: CounterLayout;
  /**
   * Set by `npm run dlq -- redrive` on a vote it puts back on the queue. Such a vote is
   * counted with a guard of its own (its id), because its new sequence number says
   * nothing about whether it was counted before (domain/dead-letter.ts).
   */
  redriven?: true;
}

/**
 * Validates a vote request against its poll; returns the chosen option's index. Throws PollError
 * `poll_closed`, `invalid_body`, `unknown_field`, `invalid_field` or `invalid_option`.
 */
export function chooseOption(input: unknown, poll: Poll, nowMs: number): number {
  if (isClosed(poll, nowMs)) throw new PollError('poll_closed', 'This poll is closed to new votes.');
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid('invalid_body', 'The body must be a JSON object like {"option": 0}.');
  }
  const body = input as Record<string, unknown>;
  const extra = Object.keys(body).filter((key) => key !== 'option');
  if (extra.length > 0) throw invalid('unknown_field', `Unknown field(s): ${extra.slice(0, 5).join(', ')}.`);
  const option = body.option;
  if (typeof option !== 'number' || !Number.isInteger(option)) {
    throw invalidField('option', 'option must be the whole-number index of an option.');
  }
  if (option < 0 || option >= poll.options.length) {
    throw invalid('invalid_option', `option must be from 0 to ${poll.options.length - 1}.`);
  }
  return option;
}

/** A voter is their source address, hashed with the poll's secret salt: no raw address is stored. */
export const voterKey = (salt: string, sourceIp: string): string =>
  createHmac('sha256', salt).update(sourceIp).digest('base64url');

const KEY_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${IDEMPOTENCY.maxLength}}$`);

/** A vote request's idempotency key (its header's value), checked; undefined when it sent none. */
export function idempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined || KEY_PATTERN.test(header)) return header;
  throw invalid(
    'invalid_idempotency_key',
    `Idempotency-Key must be 1 to ${IDEMPOTENCY.maxLength} characters of A-Z, a-z, 0-9, _ and -.`,
  );
}

/**
 * A vote's id: random without a key; with one, derived from the poll and the key (keys are scoped
 * to their poll), so every retry of a ballot carries the id of its first try. The id is the
 * queue's deduplication id, which is how a retry is dropped: no lookup, no write of its own.
 */
export const voteIdFor = (pollId: string, key: string | undefined): string =>
  key === undefined ? newId() : idOf(createHash('sha256').update(`${pollId}/${key}`).digest());

/** A poll's size as it was created: what it records, or the default size (polls made without the flag). */
export const sizeOfPoll = (poll: Pick<Poll, 'groups' | 'counterShards'>): PollSize => ({
  groups: poll.groups ?? VOTE_QUEUE.groupsPerPoll,
  counterShards: poll.counterShards ?? 1,
});

/**
 * Votes of one poll are spread over its FIFO message groups: a group is delivered in order
 * (which exact counting relies on) but one batch at a time. A vote's shard comes from its id, so
 * a retry lands in the group of its first try: SQS deduplicates within a group.
 */
export const shardOfVote = (voteId: string, groups: number): number =>
  createHash('sha256').update(voteId).digest().readUInt32BE(0) % groups;

/**
 * Where a vote goes: its message group, and the counter item that group's votes are counted in
 * (each group's always the same one, since a poll's size is fixed: its marks never move), as the
 * message's fields: none for item 0 (a poll's only one unless it is sized for a hot poll).
 */
export function voteRoute(voteId: string, poll: VoteLayout) {
  const { groups, counterShards } = sizeOfPoll(poll);
  const group = shardOfVote(voteId, groups);
  const counter = group % counterShards;
  const item: Pick<VoteMessage, 'counter' | 'counterLayout'> =
    counter === 0 ? {} : { counter, ...(poll.counterLayout && { counterLayout: poll.counterLayout }) };
  return { group, item };
}

/**
 * One counter item of a poll. `layout` is its poll's (poll.ts CounterLayout), given for an item
 * k > 0 only: item 0 is at the poll's key in every layout.
 */
export interface CounterRef {
  pollId: string;
  counter: number;
  layout?: CounterLayout;
}

/** Counter item `counter` of a poll laid out as `layout` (absent: created before layouts). */
export const counterRef = (pollId: string, counter: number, layout?: CounterLayout): CounterRef => ({
  pollId,
  counter,
  ...(counter > 0 && { layout: layout ?? 'sort-keys' }),
});

/** The counter item a queued vote is counted in. */
export const counterOfVote = (vote: Pick<VoteMessage, 'pollId' | 'counter' | 'counterLayout'>): CounterRef =>
  counterRef(vote.pollId, vote.counter ?? 0, vote.counterLayout);

/** A counter item's identity, to group and look up by: one per item of the table. */
export const counterId = ({ pollId, counter, layout }: CounterRef): string =>
  [pollId, counter, layout].filter((part) => part !== undefined).join('#');

export const messageGroupId = (pollId: string, shard: number): string => `${pollId}.${shard}`;

/** The group's shard within its poll, or null if the id is not one of ours. */
export function shardOfGroup(groupId: string | undefined, pollId: string): string | null {
  if (!groupId?.startsWith(`${pollId}.`)) return null;
  const shard = groupId.slice(pollId.length + 1);
  return /^\d{1,3}$/.test(shard) ? shard : null;
}

/** Parses a queue message body; null when it is not a well-formed vote. */
export function parseVoteMessage(body: string): VoteMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  const ok =
    m.v === 1 &&
    typeof m.voteId === 'string' &&
    typeof m.pollId === 'string' &&
    typeof m.castAt === 'string' &&
    typeof m.option === 'number' &&
    Number.isInteger(m.option) &&
    m.option >= 0 &&
    (m.counter === undefined || (Number.isInteger(m.counter) && (m.counter as number) >= 0)) &&
    (m.counterLayout === undefined || COUNTER_LAYOUTS.includes(m.counterLayout as CounterLayout)) &&
    (m.redriven === undefined || m.redriven === true);
  return ok ? (m as unknown as VoteMessage) : null;
}
