import { POLL_LIMITS } from '../config/api-contract';
import { TABLE } from '../config/table';
import { invalid, invalidField } from './errors';
import { newId } from './ids';

/** A poll as stored. `closesAt` ends voting; `expiresAt` (TTL) ends everything. */
export interface Poll {
  id: string;
  title: string;
  options: string[];
  oneVotePerVoter: boolean;
  createdAt: string;
  /** Epoch seconds. */
  closesAt: number;
  /** Epoch seconds: closesAt plus a grace period to read final results. */
  expiresAt: number;
  /** Per-poll secret for hashing voter identities; never returned by the API. */
  voterSalt: string;
  /**
   * The vote path's size when the poll was created by a stack sized for a hot poll: its message
   * groups and counter items. Fixed for the poll's life, so a redeploy never moves a group's
   * marks; absent (today's polls): the default size (vote.ts sizeOfPoll).
   */
  groups?: number;
  counterShards?: number;
  /** Where its counter items k > 0 are; absent: a poll created before layouts ('sort-keys'). */
  counterLayout?: CounterLayout;
}

/**
 * Where a poll's counter items k > 0 are kept; item 0 is at the poll's own key in both.
 * `sort-keys`: under the poll's partition key, one sort key each (polls created before layouts:
 * they share that key's 1,000 write units a second). `partition-keys`: each on a partition key of
 * its own, so that each gets its own (AWS's write sharding); every sized poll created since.
 */
export const COUNTER_LAYOUTS = ['sort-keys', 'partition-keys'] as const;
export type CounterLayout = (typeof COUNTER_LAYOUTS)[number];

/** How many message groups a poll's votes are spread over, and how many counter items count them. */
export interface PollSize {
  groups: number;
  counterShards: number;
}

/** What the API shows of a poll. */
export interface PublicPoll {
  id: string;
  title: string;
  options: string[];
  oneVotePerVoter: boolean;
  createdAt: string;
  closesAt: string;
  closed: boolean;
}

const ALLOWED_FIELDS = new Set(['title', 'options', 'lifetimeMinutes', 'oneVotePerVoter']);

/**
 * Text as a reader sees it, to compare options: one Unicode form (café typed two ways is one
 * word; a full-width ｆｕｌｌ is full), invisible format characters gone (a zero-width space, a
 * direction mark), and one case. The joiner inside emoji sequences stays: it changes what is drawn.
 */
export const asSeen = (text: string): string =>
  text
    .normalize('NFKC')
    .replace(/(?!\u200d)\p{Cf}/gu, '')
    .toLowerCase();

/**
 * How a refusal names a field: by its name in the API, or (the site's form, which checks with these same
 * rules before it sends) by the label its reader sees.
 */
export type FieldNames = (field: string) => string;
const API_NAMES: FieldNames = (field) => field;

function cleanText(value: unknown, field: string, maxLength: number, name: FieldNames): string {
  const refuse = (rule: string) => invalidField(field, `${name(field)} ${rule}.`);
  if (typeof value !== 'string') throw refuse('must be a string');
  // Control characters would corrupt logs and layouts; refuse rather than strip silently.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) throw refuse('must not contain control characters');
  // A lone surrogate cannot be stored as UTF-8: it would come back as U+FFFD.
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value)) {
    throw refuse('must be valid Unicode text');
  }
  const text = value.trim();
  if (asSeen(text).trim().length === 0) throw refuse('must not be empty');
  // Count code points, not UTF-16 units, so an emoji counts as one character.
  if ([...text].length > maxLength) throw refuse(`is longer than ${maxLength} characters`);
  return text;
}

/**
 * Validates a create request and builds the poll to store, of `size` when the stack sizes the vote
 * path (none: the default size, stored as today). Throws PollError `invalid_body`,
 * `unknown_field` or `invalid_field` (naming its field by `name`: the API's names unless told).
 */
export function createPoll(input: unknown, nowMs: number, size?: PollSize, name = API_NAMES): Poll {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid('invalid_body', 'The body must be a JSON object.');
  }
  const body = input as Record<string, unknown>;
  const unknown = Object.keys(body).filter((key) => !ALLOWED_FIELDS.has(key));
  if (unknown.length > 0) throw invalid('unknown_field', `Unknown field(s): ${unknown.slice(0, 5).join(', ')}.`);

  const title = cleanText(body.title, 'title', POLL_LIMITS.titleMaxLength, name);

  const refuseOptions = (rule: string) => invalidField('options', `${name('options')} ${rule}.`);
  if (!Array.isArray(body.options)) throw refuseOptions('must be an array of strings');
  if (body.options.length < POLL_LIMITS.minOptions || body.options.length > POLL_LIMITS.maxOptions) {
    throw refuseOptions(`must have ${POLL_LIMITS.minOptions} to ${POLL_LIMITS.maxOptions} entries`);
  }
  const options = body.options.map((option, i) =>
    cleanText(option, `options[${i}]`, POLL_LIMITS.optionMaxLength, name),
  );
  // The repeat is named, not the list: a form marks the field to change.
  const seen = options.map(asSeen);
  const repeat = seen.findIndex((text, i) => seen.indexOf(text) !== i);
  if (repeat !== -1) {
    const [field, twin] = [`options[${repeat}]`, `options[${seen.indexOf(seen[repeat])}]`];
    throw invalidField(field, `${name(field)} must be different from ${name(twin)}.`);
  }

  const lifetime = body.lifetimeMinutes ?? POLL_LIMITS.defaultLifetimeMinutes;
  if (
    typeof lifetime !== 'number' ||
    !Number.isInteger(lifetime) ||
    lifetime < POLL_LIMITS.minLifetimeMinutes ||
    lifetime > POLL_LIMITS.maxLifetimeMinutes
  ) {
    throw invalidField(
      'lifetimeMinutes',
      `${name('lifetimeMinutes')} must be a whole number from ${POLL_LIMITS.minLifetimeMinutes} ` +
        `to ${POLL_LIMITS.maxLifetimeMinutes}.`,
    );
  }

  const oneVotePerVoter = body.oneVotePerVoter ?? false;
  if (typeof oneVotePerVoter !== 'boolean') {
    throw invalidField('oneVotePerVoter', `${name('oneVotePerVoter')} must be true or false.`);
  }

  const closesAt = Math.floor(nowMs / 1000) + lifetime * 60;
  return {
    id: newId(),
    title,
    options,
    oneVotePerVoter,
    createdAt: new Date(nowMs).toISOString(),
    closesAt,
    expiresAt: closesAt + TABLE.retainAfterCloseSeconds,
    voterSalt: newId(32),
    ...(size && { groups: size.groups, counterShards: size.counterShards, counterLayout: 'partition-keys' as const }),
  };
}

/** DynamoDB deletes expired items late (up to days): reads must check themselves. */
export function isExpired(poll: Pick<Poll, 'expiresAt'>, nowMs: number): boolean {
  return poll.expiresAt * 1000 <= nowMs;
}

export function isClosed(poll: Pick<Poll, 'closesAt'>, nowMs: number): boolean {
  return poll.closesAt * 1000 <= nowMs;
}

export function toPublicPoll(poll: Poll, nowMs: number): PublicPoll {
  return {
    id: poll.id,
    title: poll.title,
    options: poll.options,
    oneVotePerVoter: poll.oneVotePerVoter,
    createdAt: poll.createdAt,
    closesAt: new Date(poll.closesAt * 1000).toISOString(),
    closed: isClosed(poll, nowMs),
  };
}
