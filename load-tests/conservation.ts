/**
 * The vote-conservation check: every vote the load test got a 202 for must be counted, and
 * nothing counted that was not sent. Between the two lie the votes that got no answer or a
 * 5xx (a timeout after the vote was queued): each may or may not be counted, as for any client
 * that lost the answer. The figures come from the report's `votes.<kind>.<poll>.<option>`
 * counters (load-tests/processor.cjs); counts from the API's results.
 */

export type Tally = Map<string, number[]>;

const COUNTER = /^votes\.(sent|accepted|refused)\.([A-Za-z0-9_-]+)\.(\d+)$/;
type Kind = 'sent' | 'accepted' | 'refused';

/** Per poll and option, from an artillery report's aggregate counters. */
export interface VoteTallies {
  /** Answered 202: each must be counted. */
  accepted: Tally;
  /** Sent, less those refused with a 4xx (which store nothing): at most this many may be counted. */
  possible: Tally;
}

function tallyOf(counters: Record<string, number>, kind: Kind): Tally {
  const tally: Tally = new Map();
  for (const [name, value] of Object.entries(counters)) {
    const match = COUNTER.exec(name);
    if (!match || match[1] !== kind) continue;
    const counts = tally.get(match[2]) ?? [];
    const option = Number(match[3]);
    while (counts.length <= option) counts.push(0);
    counts[option] += value;
    tally.set(match[2], counts);
  }
  return tally;
}

/** Accepted votes per poll and option. */
export const acceptedVotes = (counters: Record<string, number>): Tally => tallyOf(counters, 'accepted');

/** What the run's counters say must and may be counted (a report with no `sent` counters: exactly the accepted). */
export function voteTallies(counters: Record<string, number>): VoteTallies {
  const accepted = acceptedVotes(counters);
  const sent = tallyOf(counters, 'sent');
  if (sent.size === 0) return { accepted, possible: accepted };
  const refused = tallyOf(counters, 'refused');
  const possible: Tally = new Map(
    [...sent].map(([pollId, counts]) => [pollId, counts.map((n, i) => n - (refused.get(pollId)?.[i] ?? 0))]),
  );
  return { accepted, possible };
}

export interface PollCheck {
  pollId: string;
  accepted: number[];
  /** At most this many may be counted, per option (accepted when nothing else is known). */
  possible: number[];
  counted: number[];
  /** Per option: counted - accepted where fewer (a lost vote, negative), counted - possible where more. */
  difference: number[];
}

export interface Conservation {
  ok: boolean;
  accepted: number;
  /** Sent and neither accepted nor refused (no answer, or a 5xx): each may be counted. */
  unanswered: number;
  counted: number;
  lost: number;
  extra: number;
  polls: PollCheck[];
}

/** Every accepted vote counted, and no more counted than were sent (`possible`: by default the accepted). */
export function compareTallies(accepted: Tally, counted: Tally, possible: Tally = accepted): Conservation {
  const polls = [...possible.keys(), ...accepted.keys()]
    .filter((pollId, i, all) => all.indexOf(pollId) === i)
    .map((pollId): PollCheck => {
      const [acc, may, got] = [accepted, possible, counted].map((tally) => tally.get(pollId) ?? []);
      const width = Math.max(acc.length, may.length, got.length);
      const pad = (list: number[]) => Array.from({ length: width }, (_, i) => list[i] ?? 0);
      const [a, p, c] = [pad(acc), pad(may), pad(got)];
      const difference = c.map((n, i) => (n < a[i] ? n - a[i] : n > p[i] ? n - p[i] : 0));
      return { pollId, accepted: a, possible: p, counted: c, difference };
    });
  const differences = polls.flatMap((p) => p.difference);
  const lost = differences.filter((d) => d < 0).reduce((s, d) => s - d, 0);
  const extra = differences.filter((d) => d > 0).reduce((s, d) => s + d, 0);
  const sum = (list: number[][]) => list.flat().reduce((s, n) => s + n, 0);
  const acceptedTotal = sum(polls.map((p) => p.accepted));
  return {
    ok: lost === 0 && extra === 0,
    accepted: acceptedTotal,
    unanswered: sum(polls.map((p) => p.possible)) - acceptedTotal,
    counted: sum(polls.map((p) => p.counted)),
    lost,
    extra,
    polls,
  };
}
