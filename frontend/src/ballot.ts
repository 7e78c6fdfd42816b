/**
 * A ballot: the one vote a person cast, named by a key of its own and sent under that key until
 * the API answers it. The API counts every try with the key as that one vote (within its 5-minute
 * window), so the page retries by itself instead of asking the person to vote again for something
 * that may have counted. docs/exactly-once.md.
 */
import { IDEMPOTENCY } from '../../config/api-contract';
import { VOTE_RETRY } from '../../config/site';
import { newId } from '../../domain/ids';
import type { Outcome } from './api';

export interface Ballot {
  pollId: string;
  option: number;
  /** The Idempotency-Key: 21 random url-safe characters (crypto.getRandomValues). */
  key: string;
  /** When it was first sent (ms, this browser's clock): tries are the same vote until the window ends. */
  firstSentAt: number;
}

export const newBallot = (pollId: string, option: number, now = Date.now()): Ballot => ({
  pollId,
  option,
  key: newId(),
  firstSentAt: now,
});

/** Whether a try under this ballot's key is still counted as the first (the window runs from the first try). */
export const canResend = (ballot: Ballot, now = Date.now()): boolean =>
  now - ballot.firstSentAt < IDEMPOTENCY.windowSeconds * 1000;

/**
 * How long to wait before trying again, or undefined when the outcome stands: an answer, a refusal
 * that a retry would meet again, a Retry-After too long to wait, or the last try.
 */
export function retryDelay(outcome: Outcome<unknown>, tries: number, random = Math.random): number | undefined {
  if (outcome.ok || tries >= VOTE_RETRY.attempts) return undefined;
  if (outcome.kind === 'client' && outcome.status !== 429) return undefined;
  const retryAfter = outcome.kind === 'network' ? undefined : outcome.retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter > VOTE_RETRY.maxRetryAfterSeconds) return undefined;
  const backoff = Math.min(VOTE_RETRY.maxDelayMs, VOTE_RETRY.firstDelayMs * 2 ** (tries - 1));
  // Jitter: voters who met the same failure do not all come back at once.
  return Math.max(backoff * (0.5 + random() / 2), (retryAfter ?? 0) * 1000);
}

/** Sends a ballot, and again under its key while the answer may be missing, within its window. */
export async function sendBallot<T>(
  ballot: Ballot,
  send: (ballot: Ballot) => Promise<Outcome<T>>,
  wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
): Promise<Outcome<T>> {
  for (let tries = 1; ; tries++) {
    const outcome = await send(ballot);
    const delay = retryDelay(outcome, tries);
    if (delay === undefined || !canResend(ballot, Date.now() + delay)) return outcome;
    await wait(delay);
  }
}

/** How long the results page adds the voter's acknowledged vote to results that do not include it yet. */
export const OWN_VOTE_SHOWN_MS = 15_000;

/** A ballot not yet answered is kept in the browser, so a reload sends it again under its key. */
const pendingKey = (pollId: string) => `ballot:${pollId}`;

export const keepPending = (ballot: Ballot): void =>
  localStorage.setItem(pendingKey(ballot.pollId), JSON.stringify(ballot));

export const forgetPending = (pollId: string): void => localStorage.removeItem(pendingKey(pollId));

export function pendingBallot(pollId: string): Ballot | undefined {
  try {
    const ballot = JSON.parse(localStorage.getItem(pendingKey(pollId)) ?? 'null') as Ballot | null;
    return ballot?.pollId === pollId && typeof ballot.key === 'string' ? ballot : undefined;
  } catch {
    return undefined;
  }
}
