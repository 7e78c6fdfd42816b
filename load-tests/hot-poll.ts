/**
 * The hot-poll scenario's comparison: against `npm start -- --aws-limits <scale>`, the capacity
 * model's ceiling for one poll at that scale (cost/estimate/capacity.ts pollCeiling, for the stack the
 * runtime read its limits from) beside the votes a second the run got accepted in its plateau, and
 * which limits answered (the runtime's refusals during the run, by limit).
 */
import { type PollTraffic, pollCeiling } from '../cost/estimate/capacity';
import { DEFAULT_UNIT_COSTS } from '../cost/usage/unit-costs';
import { USAGE_PATH } from '../local/endpoints';
import type { AwsLimitsUsage, Usage } from '../local/metering';

/**
 * What scenarios/hot-poll.yml sends: per voter a poll read, the vote's preflight and the vote; a
 * viewer per 4 voters asking 4 times, one results request a vote. Its plateau is its last phase.
 */
export const HOT_POLL = {
  scenario: 'hot-poll',
  traffic: { pollReadsPerVote: 1, resultsPerVote: 1, preflights: true } satisfies PollTraffic,
  plateauSeconds: 40,
} as const;

export interface HotPollFigures {
  scale: number;
  size: { groupsPerPoll: number; counterShards: number; stageRateLimit: number };
  predicted: { votesPerSecond: number; bottleneck: string };
  measured: { votesPerSecond: number; seconds: number; refused: Record<string, number>; answered503: number };
}

/** The runtime's limits at `url` now (undefined: not the local runtime, or no --aws-limits). */
export async function awsLimitsAt(url: string): Promise<AwsLimitsUsage | undefined> {
  const response = await fetch(`${url}${USAGE_PATH}`).catch(() => undefined);
  if (!response?.ok) return undefined;
  return ((await response.json().catch(() => ({}))) as Partial<Usage>).awsLimits;
}

interface Period {
  period: number | string;
  lastMetricAt: number;
  counters: Record<string, number>;
}

/** Votes accepted a second over the report's 10-second periods that lie wholly in the plateau. */
export function plateauRate(
  intermediate: Period[],
  plateauSeconds: number,
): { votesPerSecond: number; seconds: number } {
  const end = Math.max(...intermediate.map((p) => p.lastMetricAt));
  // The first 10 s of the plateau may still hold the ramp's last requests.
  const inPlateau = intermediate.filter((p) => Number(p.period) >= end - (plateauSeconds - 10) * 1000);
  const accepted = inPlateau.flatMap((p) =>
    Object.entries(p.counters).filter(([k]) => k.startsWith('votes.accepted.')),
  );
  const seconds = inPlateau.reduce((sum, p) => sum + (p.lastMetricAt - Number(p.period)) / 1000, 0);
  const votes = accepted.reduce((sum, [, n]) => sum + n, 0);
  return { votesPerSecond: seconds > 0 ? votes / seconds : 0, seconds };
}

/** The figures of a run, from the limits before and after it and artillery's report. */
export function hotPollFigures(
  before: AwsLimitsUsage,
  after: AwsLimitsUsage,
  report: { intermediate?: Period[]; aggregate?: { counters?: Record<string, number> } },
): HotPollFigures {
  const predicted = pollCeiling(after.stack, DEFAULT_UNIT_COSTS, HOT_POLL.traffic, after.scale);
  const refused = Object.fromEntries(
    Object.entries(after.refused).map(([name, n]) => [
      name,
      (n ?? 0) - (before.refused[name as keyof typeof before.refused] ?? 0),
    ]),
  );
  const { groupsPerPoll, counterShards, stageRateLimit } = after.stack.votePath;
  return {
    scale: after.scale,
    size: { groupsPerPoll, counterShards, stageRateLimit },
    predicted: { votesPerSecond: predicted.votesPerSecond, bottleneck: predicted.bottleneck },
    measured: {
      ...plateauRate(report.intermediate ?? [], HOT_POLL.plateauSeconds),
      refused,
      answered503: report.aggregate?.counters?.['http.codes.503'] ?? 0,
    },
  };
}

/** The figures as the run prints them. */
export function formatHotPoll(f: HotPollFigures): string[] {
  const { predicted: p, measured: m } = f;
  const off = p.votesPerSecond > 0 ? ((m.votesPerSecond / p.votesPerSecond - 1) * 100).toFixed(0) : '?';
  const refused = Object.entries(m.refused)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${n}`);
  return [
    `  capacity   AWS's limits at ${f.scale}: ${f.size.groupsPerPoll} groups, ${f.size.counterShards} counter ` +
      `item(s), stage throttle ${f.size.stageRateLimit} req/s (x ${f.scale})`,
    `    predicted ${p.votesPerSecond.toFixed(1)} votes/s for the poll; first bottleneck: ${p.bottleneck}`,
    `    measured  ${m.votesPerSecond.toFixed(1)} votes/s accepted over the plateau's last ${m.seconds.toFixed(0)} s ` +
      `(${Number(off) >= 0 ? '+' : ''}${off}%)`,
    `    refused   ${refused.length ? refused.join(', ') : 'none'}; 503 answers ${m.answered503}`,
  ];
}

/** Said after a hot-poll run where no limits were enforced. */
export const NO_LIMITS_HINT =
  '  capacity   no AWS limits enforced here: run against npm start -- --aws-limits 0.01 --rate-limits off ' +
  '[--hot-poll-votes-per-second 10000 --api-rate-limit 20000] with --url to compare with the capacity model ' +
  '(docs/hot-poll.md)';
