/**
 * The vote dead-letter queue over the SQS API: read it, redrive what may be redriven,
 * discard what a person gave up on. What may be redriven is decided by
 * domain/dead-letter.ts; this file only moves messages.
 */
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import {
  judgeLetter,
  LETTER_ATTRIBUTES,
  planRedrive,
  redrivenVote,
  type JudgedLetter,
  type Letter,
  type Verdict,
} from '../domain/dead-letter';
import { messageGroupId } from '../domain/vote';

export interface Queues {
  sqs: SQSClient;
  voteQueueUrl: string;
  deadLetterQueueUrl: string;
}

interface HeldLetter extends Letter {
  receiptHandle: string;
}

/** Letters read in one run at most, unless --limit says otherwise. */
export const DEFAULT_LIMIT = 1000;

export interface ReadOptions {
  limit?: number;
  /** How long letters stay invisible to others while a run holds them (if the run dies, until then). */
  holdSeconds?: number;
}

const chunks = <T>(items: readonly T[], size = 10): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));
const handleOf = (judged: JudgedLetter) => (judged.letter as HeldLetter).receiptHandle;

/** SQS's own count of letters, waiting or held by someone. */
async function approximateCount({ sqs, deadLetterQueueUrl }: Queues): Promise<number> {
  const out = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: deadLetterQueueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return (
    Number(out.Attributes?.ApproximateNumberOfMessages ?? 0) +
    Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
  );
}

/** Receives every letter it can reach, up to `limit`, and holds them invisible. */
async function receiveAll(
  { sqs, deadLetterQueueUrl }: Queues,
  { limit = DEFAULT_LIMIT, holdSeconds = 300 }: ReadOptions,
): Promise<HeldLetter[]> {
  const letters: HeldLetter[] = [];
  for (let round = 0; letters.length < limit && round < Math.ceil(limit / 10) + 10; round++) {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: deadLetterQueueUrl,
        MaxNumberOfMessages: Math.min(10, limit - letters.length),
        VisibilityTimeout: holdSeconds,
        // A short long-poll: SQS answers a zero wait from a sample of its servers and may miss letters.
        WaitTimeSeconds: 1,
        MessageAttributeNames: [LETTER_ATTRIBUTES.verdict],
      }),
    );
    if (!out.Messages?.length) break;
    for (const m of out.Messages) {
      letters.push({
        messageId: m.MessageId!,
        receiptHandle: m.ReceiptHandle!,
        body: m.Body ?? '',
        verdict: m.MessageAttributes?.[LETTER_ATTRIBUTES.verdict]?.StringValue,
      });
    }
  }
  return letters;
}

/** Makes held letters visible again at once. */
async function release({ sqs, deadLetterQueueUrl }: Queues, letters: readonly JudgedLetter[]): Promise<void> {
  for (const chunk of chunks(letters)) {
    await sqs.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: deadLetterQueueUrl,
        Entries: chunk.map((j, i) => ({ Id: String(i), ReceiptHandle: handleOf(j), VisibilityTimeout: 0 })),
      }),
    );
  }
}

async function remove({ sqs, deadLetterQueueUrl }: Queues, letters: readonly JudgedLetter[]): Promise<void> {
  for (const chunk of chunks(letters)) {
    const out = await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: deadLetterQueueUrl,
        Entries: chunk.map((j, i) => ({ Id: String(i), ReceiptHandle: handleOf(j) })),
      }),
    );
    if (out.Failed?.length)
      throw new Error(
        `SQS did not delete ${out.Failed.length} letter(s): ${out.Failed[0].Message ?? out.Failed[0].Code}`,
      );
  }
}

export interface Inspection {
  letters: JudgedLetter[];
  /**
   * What SQS counts. More than `letters` when some were beyond the limit, held by someone else,
   * or waiting behind others in their FIFO message group: letters SQS moved itself keep their
   * vote's group, and a group's later letters cannot be read without removing its earlier ones.
   */
  approximateTotal: number;
}

/** Reads the letters and puts them back untouched. */
export async function inspect(queues: Queues, options: ReadOptions = {}): Promise<Inspection> {
  const approximateTotal = await approximateCount(queues);
  const letters = (await receiveAll(queues, options)).map(judgeLetter);
  await release(queues, letters);
  return { letters, approximateTotal };
}

export interface RedriveResult {
  redriven: JudgedLetter[];
  duplicates: JudgedLetter[];
  /** Left in the queue: not provably uncounted, or their send failed. */
  kept: JudgedLetter[];
}

/**
 * Puts the unapplied votes back on the vote queue, marked redriven, then deletes their
 * letters. If the run stops between the two, the next run sends them again and the
 * consumer counts each once (by its vote id), so a redrive can be repeated safely.
 */
export async function redrive(queues: Queues, options: ReadOptions = {}): Promise<RedriveResult> {
  const plan = planRedrive(await receiveAll(queues, options));
  const sent: JudgedLetter[] = [];
  const unsent: JudgedLetter[] = [];
  for (const chunk of chunks(plan.redrive)) {
    const out = await queues.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queues.voteQueueUrl,
        Entries: chunk.map((j, i) => {
          const vote = j.vote!;
          // One group (shard 0) and the vote id: SQS drops a copy sent again within 5 minutes. The
          // vote keeps its counter item, whose redriven ids guard it.
          return {
            Id: String(i),
            MessageBody: JSON.stringify(redrivenVote(vote)),
            MessageGroupId: messageGroupId(vote.pollId, 0),
            MessageDeduplicationId: `redrive-${vote.voteId}`,
          };
        }),
      }),
    );
    const failedIds = new Set((out.Failed ?? []).map((f) => f.Id));
    for (const [i, j] of chunk.entries()) (failedIds.has(String(i)) ? unsent : sent).push(j);
  }
  const sentVotes = new Set(sent.map((j) => j.vote!.voteId));
  const duplicates = plan.duplicates.filter((j) => sentVotes.has(j.vote!.voteId));
  const kept = [...plan.keep, ...unsent, ...plan.duplicates.filter((j) => !sentVotes.has(j.vote!.voteId))];
  await remove(queues, [...sent, ...duplicates]);
  await release(queues, kept);
  return { redriven: sent, duplicates, kept };
}

/** Verdicts a person may discard; `unapplied` votes are redriven, never discarded. */
export const DISCARDABLE: readonly Verdict[] = ['unknown', 'poll-missing', 'malformed'];

/** Why a discard of these verdicts is refused (some may be counted by a redrive), or undefined. */
export function refusedDiscard(verdicts: readonly Verdict[]): string | undefined {
  const refused = verdicts.filter((v) => !DISCARDABLE.includes(v));
  if (refused.length === 0) return undefined;
  return (
    `Only ${DISCARDABLE.join(', ')} letters can be discarded (not ${refused.join(', ')}): ` +
    'redrive unapplied votes instead.'
  );
}

/** Deletes the letters with the given verdicts (a person's decision); returns them. */
export async function discard(
  queues: Queues,
  verdicts: readonly Verdict[],
  options: ReadOptions = {},
): Promise<JudgedLetter[]> {
  const refused = refusedDiscard(verdicts);
  if (refused) throw new Error(refused);
  const limit = options.limit ?? DEFAULT_LIMIT;
  const discarded: JudgedLetter[] = [];
  const others: JudgedLetter[] = [];
  // Rounds: deleting letters unblocks the ones behind them in their FIFO message group.
  for (let round = 0; round < 100 && discarded.length + others.length < limit; round++) {
    const letters = (await receiveAll(queues, { ...options, limit: limit - discarded.length - others.length })).map(
      judgeLetter,
    );
    const chosen = letters.filter((j) => verdicts.includes(j.verdict));
    await remove(queues, chosen);
    discarded.push(...chosen);
    others.push(...letters.filter((j) => !chosen.includes(j)));
    if (chosen.length === 0) break;
  }
  await release(queues, others);
  return discarded;
}
