/**
 * The vote-conservation check: every vote the load test got a 202 for must be
 * counted, once. Accepted votes come from the report's `votes.accepted.<poll>.<option>`
 * counters (load-tests/processor.cjs); counts from the API's results.
 */

export type Tally = Map<string, number[]>;

const ACCEPTED = /^votes\.accepted\.([A-Za-z0-9_-]+)\.(\d+)$/;

/** Accepted votes per poll and option, from an artillery report's aggregate counters. */
export function acceptedVotes(counters: Record<string, number>): Tally {
  const tally: Tally = new Map();
  for (const [name, value] of Object.entries(counters)) {
    const match = ACCEPTED.exec(name);
    if (!match) continue;
    const counts = tally.get(match[1]) ?? [];
    const option = Number(match[2]);
    while (counts.length <= option) counts.push(0);
    counts[option] += value;
    tally.set(match[1], counts);
  }
  return tally;
}

export interface PollCheck {
  pollId: string;
  accepted: number[];
  counted: number[];
  /** counted - accepted, per option: negative is a lost vote, positive a double count. */
  difference: number[];
}

export interface Conservation {
  ok: boolean;
  accepted: number;
  counted: number;
  lost: number;
  extra: number;
  polls: PollCheck[];
}

export function compareTallies(accepted: Tally, counted: Tally): Conservation {
  const polls = [...accepted].map(([pollId, acc]): PollCheck => {
    const got = counted.get(pollId) ?? [];
    const width = Math.max(acc.length, got.length);
    const a = Array.from({ length: width }, (_, i) => acc[i] ?? 0);
    const c = Array.from({ length: width }, (_, i) => got[i] ?? 0);
    return { pollId, accepted: a, counted: c, difference: c.map((n, i) => n - a[i]) };
  });
  const differences = polls.flatMap((p) => p.difference);
  const lost = differences.filter((d) => d < 0).reduce((s, d) => s - d, 0);
  const extra = differences.filter((d) => d > 0).reduce((s, d) => s + d, 0);
  const sum = (list: number[][]) => list.flat().reduce((s, n) => s + n, 0);
  return {
    ok: lost === 0 && extra === 0,
    accepted: sum(polls.map((p) => p.accepted)),
    counted: sum(polls.map((p) => p.counted)),
    lost,
    extra,
    polls,
  };
}
