/**
 * Dead letters: votes not counted after VOTE_QUEUE.maxReceiveCount deliveries.
 *
 * Left to SQS, such a message moves to the dead-letter queue blind: a delivery whose write
 * landed but whose acknowledgement was lost may have counted it. Once it has left its message
 * group, later votes move the group's mark past it, so its sequence number can no longer tell.
 * So on a record's last delivery the consumer looks itself, while FIFO still holds the group
 * behind the record: counted before, it acknowledges it; otherwise it dead-letters it with a
 * verdict. `npm run dlq -- redrive` puts back only `unapplied` letters, and a redriven vote is
 * counted by its id (PollTable.applyRedrivenVote), so redriving it twice counts it once.
 */
import { VOTE_QUEUE } from '../config/vote-queue';
import { readRecord, type QueuedRecord } from './tally';
import { counterOfVote, parseVoteMessage, type CounterRef, type VoteMessage } from './vote';

/** Every verdict a letter can carry, with what it means for a redrive. */
export const VERDICTS = {
  unapplied: 'not counted (checked on its last delivery): a redrive counts it once',
  unknown: 'its last delivery failed before it could be checked, so it may be counted already: left for a person',
  'poll-missing': 'its poll expired or was deleted before the vote was counted: nothing to count it in',
  malformed: 'not a vote this app produced',
} as const;
export type Verdict = keyof typeof VERDICTS;

/** Message attributes on a letter the consumer dead-letters itself. */
export const LETTER_ATTRIBUTES = {
  verdict: 'verdict',
  sourceMessageId: 'sourceMessageId',
  sourceSequenceNumber: 'sourceSequenceNumber',
} as const;

export const isLastDelivery = (record: QueuedRecord): boolean =>
  (record.receiveCount ?? 0) >= VOTE_QUEUE.maxReceiveCount;

/** What one of a poll's counter items says was applied, read strongly consistent. */
export interface CountGuards {
  /** Per message-group shard, the last applied sequence number (padded). */
  applied: Record<string, string>;
  /** Ids of redriven votes already counted. */
  redriven: ReadonlySet<string>;
}

/** A counter item's guards: undefined when it does not exist, 'unreachable' when it could not be read. */
export type GuardsRead = CountGuards | undefined | 'unreachable';

/**
 * A record that failed on its last delivery: `counted` (an earlier delivery applied it:
 * acknowledge it) or the verdict to dead-letter it with, from the guards of the counter item
 * the vote is counted in.
 */
export function judgeLastDelivery(
  record: QueuedRecord,
  guardsOf: (item: CounterRef) => GuardsRead,
): Verdict | 'counted' {
  const queued = readRecord(record);
  if (!queued) return 'malformed';
  const guards = guardsOf(counterOfVote(queued.vote));
  if (guards === 'unreachable') return 'unknown';
  if (guards === undefined) return 'poll-missing';
  const { vote, shard, seq } = queued;
  if (vote.redriven) return guards.redriven.has(vote.voteId) ? 'counted' : 'unapplied';
  const mark = guards.applied[shard];
  return mark !== undefined && seq <= mark ? 'counted' : 'unapplied';
}

/** A message in the dead-letter queue, as the redrive tool reads it. */
export interface Letter {
  messageId: string;
  body: string;
  /** The consumer's verdict attribute; absent when SQS moved the message itself. */
  verdict?: string;
}

export interface JudgedLetter {
  letter: Letter;
  vote: VoteMessage | null;
  verdict: Verdict;
}

/** A letter without a known verdict is `unknown`: only the consumer could tell, on the last delivery. */
export function judgeLetter(letter: Letter): JudgedLetter {
  const vote = parseVoteMessage(letter.body);
  if (!vote) return { letter, vote, verdict: 'malformed' };
  const verdict =
    letter.verdict !== undefined && Object.hasOwn(VERDICTS, letter.verdict) ? (letter.verdict as Verdict) : 'unknown';
  return { letter, vote, verdict };
}

export interface RedrivePlan {
  /** One letter per unapplied vote, to put back on the vote queue. */
  redrive: JudgedLetter[];
  /**
   * Other copies of those votes (e.g. SQS's own copy when the consumer crashed after dead-lettering
   * one): deleted with them.
   */
  duplicates: JudgedLetter[];
  /** Everything else stays in the queue for a person. */
  keep: JudgedLetter[];
}

export function planRedrive(letters: readonly Letter[]): RedrivePlan {
  const judged = letters.map(judgeLetter);
  const redrive = new Map<string, JudgedLetter>();
  for (const j of judged) if (j.verdict === 'unapplied' && !redrive.has(j.vote!.voteId)) redrive.set(j.vote!.voteId, j);
  const chosen = new Set(redrive.values());
  const others = judged.filter((j) => !chosen.has(j));
  const isCopy = (j: JudgedLetter) => j.vote !== null && redrive.has(j.vote.voteId);
  return { redrive: [...chosen], duplicates: others.filter(isCopy), keep: others.filter((j) => !isCopy(j)) };
}

/** The message a redrive puts back on the vote queue. */
export const redrivenVote = (vote: VoteMessage): VoteMessage => ({ ...vote, redriven: true });
