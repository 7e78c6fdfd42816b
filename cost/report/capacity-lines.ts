/**
 * Whether each design carries the busiest second, in words, as the full working prints it
 * (cost/report/working.ts): the busiest second, each design's verdict and what binds first, what carrying
 * it takes (flags, quota raises, the scale-up), the recommended design stage by stage, the writes a vote
 * brings, what the verdicts rest on, and a flood of the function URL.
 */
import { raisesText, scaleUp, stageLoad, stageShare } from './answer';
import { bottleneckName, carriesInTime, MAX_RAMP_SECONDS, type QuotaRaiseNeeded } from '../estimate/capacity';
import type { Stage } from '../estimate/stages';
import { quantity, usd } from '../estimate/format';
import { batchCycleMs } from '../usage/unit-costs';
import { QUOTAS, type QuotaId } from '../../config/aws-quotas';
import type { CostReport, DesignRow } from '../estimate/build-report';

/** The busiest second, with its working. */
export const peakLines = (report: CostReport) => [
  `The busiest second: ${quantity(report.peak.requestsPerSecond)} requests/s; the hottest poll ` +
    `${quantity(report.peak.hottestPoll.votesPerSecond)} votes/s and ` +
    `${quantity(report.peak.hottestPoll.resultsRequestsPerSecond)} results requests/s.`,
  ...report.peak.working,
];

const flagsText = (flags: Record<string, string>) =>
  Object.entries(flags)
    .map(([key, value]) => `-c ${key}=${value}`)
    .join(' ');

/** The stage that binds first, with its load (short: its share only), or why the design has none. */
function bindsFirst(d: DesignRow, short = false): string {
  const c = d.capacity;
  if (!d.deploy) return bottleneckName(c) ?? '';
  const stage = c.stages.find((st) => st.id === c.bottleneck) ?? (c.bottleneck ? undefined : c.tightest);
  if (!stage)
    return c.bottleneck ? `${bottleneckName(c)}: ${scaleUp(c.rampSeconds)} to reach the peak` : 'nothing: no load';
  return short ? `${stage.name} (${stageShare(stage)})` : `${stage.name}: ${stageLoad(stage)}`;
}

/** What carrying the peak takes: nothing, the flags, the quota raises and the scale-up, or that nothing does. */
export function toCarry(d: DesignRow): string {
  const c = d.capacity;
  if (!d.deploy) return '—';
  if (!c.carriesWith)
    return c.blockedBy
      ? `nothing the stack offers: with its flags, ${c.blockedBy.name} is still at ${stageLoad(c.blockedBy)}, ` +
          'and no quota raise lifts it'
      : 'nothing the stack offers';
  const { flags, quotaRaises, rampSeconds } = c.carriesWith;
  const parts = [
    ...(Object.keys(flags).length > 0 ? [flagsText(flags)] : []),
    ...(quotaRaises.length > 0 ? [`raise ${raisesText(quotaRaises)}`] : []),
    `Lambda reaches the peak ${scaleUp(rampSeconds) === 'at once' ? 'at once' : `after ${scaleUp(rampSeconds)}`}` +
      (rampSeconds > MAX_RAMP_SECONDS ? ` (over ${MAX_RAMP_SECONDS} s: callers get 429s meanwhile)` : ''),
  ];
  return c.carries ? 'carries as deployed' : parts.join('; ');
}

/**
 * Whether a design carries the peak: as deployed, with the stack's flags and AWS's quota raises (in time,
 * as the recommendation counts it), or not at all.
 */
function carriesText(d: DesignRow): string {
  if (!d.deploy) return 'not built';
  if (d.capacity.carries) return 'yes';
  const w = d.capacity.carriesWith;
  if (!w || !carriesInTime(d.capacity)) return 'no';
  const needs = [
    ...(Object.keys(w.flags).length > 0 ? ['its flags'] : []),
    ...(w.quotaRaises.length ? ['raises'] : []),
  ];
  return needs.length > 0 ? `with ${needs.join(' and ')}` : 'no';
}

export const capacityHead = ['AWS design', 'Carries the peak?', 'Binds first', 'What carrying it takes'];

export const capacityRows = (report: CostReport, short = false) =>
  report.designs.map((d) => [d.name, carriesText(d), bindsFirst(d, short), toCarry(d)]);

export const stageHead = ['Stage', 'Load at the peak', 'Limit from'];

export const stageRows = (d: DesignRow) => d.capacity.stages.map((s) => [s.name, stageLoad(s), s.limitFrom]);

/** The recommended deployment stage by stage: as its flags size it, and what to raise where that is not enough. */
export const deploymentHead = ['Stage', 'Load of its limit, as deployed', 'Limit once raised'];

export function deploymentRows(d: DesignRow): string[][] {
  const raises = d.capacity.carriesWith?.quotaRaises ?? [];
  return d.capacity.sizedStages.map((s) => {
    const raise =
      typeof s.fix === 'object' && 'quota' in s.fix
        ? raises.find((r) => r.quota === (s.fix as { quota: QuotaId }).quota)
        : undefined;
    return [s.name, stageLoad(s), s.load > s.limit && raise ? raisedText(s, raise) : ''];
  });
}

/**
 * A stage's limit once its quota is raised, in the stage's own unit: the quota itself where the units are the
 * same, else the limit it sets (a requests/s row under a concurrency quota: "10 x account concurrency").
 */
function raisedText(s: Stage, raise: QuotaRaiseNeeded): string {
  const limit = QUOTAS[raise.quota].unit === s.unit || raise.from <= 0 ? raise.to : (s.limit * raise.to) / raise.from;
  return `${quantity(limit)} ${s.unit}`;
}

/** "1 vote", "4.6 votes", as the figure prints. */
const votesText = (n: number) => `${quantity(n)} ${quantity(n) === '1' ? 'vote' : 'votes'}`;

/** How many writes, invocations and queue requests a vote brings, worked out (or measured) for the recommendation. */
export function voteRateWorking({ voteRates: { average, hottest }, recommended, units }: CostReport): string {
  if (!(average.votesPerSecond > 0)) return 'Writes a vote: no votes, so nothing to batch or write.';
  const measured = units.votesPerBatch !== undefined ? ` (votes a batch ${units.sources.votesPerBatch})` : '';
  const groups = recommended.stack.votePath.groupsPerPoll;
  const cycle = batchCycleMs(units);
  const arriving = (votesPerSecond: number) => (votesPerSecond / groups) * (cycle / 1000);
  return (
    'Writes a vote, as the recommended design is deployed: ' +
    `the average poll gets ${quantity(average.votesPerSecond)} votes/s over ` +
    `${groups} message groups; in the ${quantity(cycle)} ms a batch holds its group, ` +
    `${quantity(arriving(average.votesPerSecond))} votes reach the group, so a batch holds ` +
    `${votesText(average.votesPerBatch)}${measured}. A vote: ${quantity(average.counterWritesPerVote)} of a ` +
    `counter write and of an invocation, ${quantity(average.counterWriteUnitsPerVote)} of a write unit, ` +
    `${quantity(average.sqsRequestsPerVote)} SQS requests (its bill's rates). The hottest poll at ` +
    `${quantity(hottest.votesPerSecond)} votes/s: ${votesText(hottest.votesPerBatch)} a batch, ` +
    `${quantity(hottest.counterWriteUnitsPerVote)} of a write unit a vote (the capacity verdict's).` +
    (average.votesPerBatch < 1.5
      ? " A batching window would fill a sparse poll's batches, but Lambda allows none on a FIFO queue (AWS docs " +
        '"Lambda parameters for Amazon SQS event source mappings"); a standard queue would, at a guard write a ' +
        'vote for exactly-once (docs/hot-poll.md).'
      : '')
  );
}

/** What the verdicts rest on besides quotas and the template: the consumer's time per batch, the results cache. */
export function capacityBasis(report: CostReport): string {
  const { units, measured } = report;
  const source = (key: string) =>
    measured ? `measured by ${measured.label}` : (units.sources[key] ?? 'assumption').split(':')[0];
  const reads =
    units.readUnitsPerResultsRequest === undefined
      ? "each results environment reading a poll once per results max-age, the rest answered from the function's " +
        'cache'
      : `${quantity(units.readUnitsPerResultsRequest)} read units a results request, the rest answered from the ` +
        "results function's cache";
  return (
    `The verdicts rest on the consumer's ${quantity(batchCycleMs(units))} ms a batch ` +
    `(${source(units.batchCycleMs === undefined ? 'billedMs' : 'batchCycleMs')}) and ${reads} ` +
    `(${source('readUnitsPerResultsRequest')}); ` +
    (measured ? 'both from that run.' : '--from <a load test folder> measures both.')
  );
}

/** What a flood of the function URL costs at most, where the designs include one; uncapped, that it is not capped. */
export function floodLines({ flood, recommended }: CostReport): string[] {
  if (recommended.deploy?.includes('resultsConcurrency=off'))
    return [
      'The recommended command deploys the results function URL uncapped (-c resultsConcurrency=off): nothing but ' +
        "the account's concurrency stops a flood of it, and every request of one is billed.",
    ];
  if (!flood) return [];
  return [
    `The function-URL design with its default cap: a flood of its results URL is at most ` +
      `${quantity(flood.requestsPerSecond)} req/s (its ${flood.concurrency} concurrent instances), ` +
      `${usd(flood.usdPerHour)} an hour; beyond that callers get 429, and the page keeps its last results and says ` +
      'they will catch up. -c resultsConcurrency=<n> moves the cap.',
  ];
}
