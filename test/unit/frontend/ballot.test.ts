/** The page's ballot: when it sends a vote again under its key, and when it stops (frontend/src/ballot.ts). */
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY } from '../../../config/api-contract';
import { VOTE_RETRY } from '../../../config/site';
import type { Outcome } from '../../../frontend/src/api';
import { canResend, newBallot, retryDelay, sendBallot } from '../../../frontend/src/ballot';

const accepted: Outcome<unknown> = { ok: true, status: 202, data: {} };
const network: Outcome<unknown> = { ok: false, kind: 'network', message: 'unreachable' };
const server = (status: number, retryAfterSeconds?: number): Outcome<unknown> => ({
  ok: false,
  kind: 'server',
  status,
  message: 'down',
  retryAfterSeconds,
});
const client = (status: number, code: string, retryAfterSeconds?: number): Outcome<unknown> => ({
  ok: false,
  kind: 'client',
  status,
  code,
  message: 'no',
  retryAfterSeconds,
});

describe('retryDelay', () => {
  it('retries a network error, a 5xx and a 429, doubling the wait (with jitter) up to its cap', () => {
    const lowest = () => 0;
    const delays = Array.from({ length: VOTE_RETRY.attempts - 1 }, (_, i) => retryDelay(network, i + 1, lowest));
    expect(delays).toEqual([250, 500, 1000, 2000, 4000]);
    expect(retryDelay(server(503), 3, () => 1)).toBe(2000);
    expect(retryDelay(server(503), 9, () => 1)).toBeUndefined();
    expect(retryDelay(client(429, 'rate_limited'), 1, () => 1)).toBe(VOTE_RETRY.firstDelayMs);
  });

  it('waits at least what Retry-After says, and gives up on a wait longer than it would hold a person', () => {
    expect(retryDelay(client(429, 'rate_limited', 7), 1)).toBe(7000);
    expect(retryDelay(server(503, 2), 5, () => 1)).toBe(VOTE_RETRY.maxDelayMs);
    expect(retryDelay(client(429, 'rate_limited', VOTE_RETRY.maxRetryAfterSeconds + 1), 1)).toBeUndefined();
  });

  it('stops at an answer, and at a refusal a retry would meet again', () => {
    expect(retryDelay(accepted, 1)).toBeUndefined();
    for (const refusal of [client(409, 'already_voted'), client(410, 'poll_closed'), client(400, 'invalid_option')])
      expect(retryDelay(refusal, 1)).toBeUndefined();
  });

  it('keeps every try well inside the idempotency window', () => {
    let total = 0;
    for (let tries = 1; tries < VOTE_RETRY.attempts; tries++) total += retryDelay(network, tries, () => 1)!;
    expect(total).toBeLessThan(IDEMPOTENCY.windowSeconds * 1000 - VOTE_RETRY.maxRetryAfterSeconds * 1000);
  });
});

describe('sendBallot', () => {
  it('sends the same ballot (its key) again until it is answered', async () => {
    const ballot = newBallot('poll', 1);
    const sent: string[] = [];
    const answers = [network, server(503), accepted];
    const waits: number[] = [];
    const outcome = await sendBallot(
      ballot,
      async (b) => {
        sent.push(b.key);
        return answers.shift()!;
      },
      async (ms) => void waits.push(ms),
    );
    expect(outcome).toBe(accepted);
    expect(sent).toEqual([ballot.key, ballot.key, ballot.key]);
    expect(ballot.key).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(waits).toHaveLength(2);
  });

  it('gives up after its tries with the last answer, and makes a new key for each ballot', async () => {
    let tries = 0;
    const outcome = await sendBallot(
      newBallot('poll', 0),
      async () => {
        tries++;
        return server(502);
      },
      async () => undefined,
    );
    expect(outcome).toEqual(server(502));
    expect(tries).toBe(VOTE_RETRY.attempts);
    expect(newBallot('poll', 0).key).not.toBe(newBallot('poll', 0).key);
  });

  it('does not send again once the window from the first try has passed: that would be a new vote', () => {
    const ballot = newBallot('poll', 0, 1_000_000);
    expect(canResend(ballot, 1_000_000 + IDEMPOTENCY.windowSeconds * 1000 - 1)).toBe(true);
    expect(canResend(ballot, 1_000_000 + IDEMPOTENCY.windowSeconds * 1000)).toBe(false);
  });
});
