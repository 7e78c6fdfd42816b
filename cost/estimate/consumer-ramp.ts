/**
 * The vote consumer's ramp: how long the SQS event source takes to reach the concurrent batches a peak
 * needs, on demand (as deployed) and in provisioned mode, and what happens meanwhile: votes wait in the
 * queue (each still counted once) and results lag. From the event source's scaling quotas
 * (config/aws-quotas.ts) and the event poller's price (the region's price book). Pure.
 */
import type { PriceBook } from '../../pricing/price-book';
import { listRate } from '../../pricing/tiers';
import type { StackConfig } from './stack-config';
import type { Peak } from '../usage/peaks';
import { SECONDS_PER_MONTH } from '../usage/traffic-profile';
import { batchCycleMs, type UnitCosts } from '../usage/unit-costs';
import { quota } from '../../sizing/quotas';

/** What the consumer meets at the peak. */
export interface ConsumerPeak {
  /** Votes a second reaching the queue. */
  votesPerSecond: number;
  /** Concurrent batches that keep up with the peak: while votes wait, each batch is full. */
  neededConcurrency: number;
  /** The most batches in flight the queue allows: one per message group of the polls open. */
  groupsOpen: number;
  /** Votes a full batch holds, and how long a batch holds its group. */
  batchSize: number;
  cycleMs: number;
}

/** One way of scaling: where it starts, how fast it adds concurrency, where it stops. */
export interface ScalingMode {
  startConcurrency: number;
  perMinute: number;
  maxConcurrency: number;
}

/** How a mode meets the peak from idle. */
export interface RampOutcome {
  /** Seconds until the consumer runs the concurrency the peak needs. */
  reachSeconds: number;
  /** The most votes waiting in the queue, and when the backlog is gone (undefined: not within the hour). */
  backlogPeak: number;
  drainedSeconds?: number;
  /** The longest a vote waits to be counted: how far behind results are at worst. */
  maxLagSeconds: number;
}

/** Scaling modes of an SQS event source, from idle. */
export function onDemandMode(groupsOpen: number): ScalingMode {
  return {
    startConcurrency: quota('esmInitialConcurrency'),
    perMinute: quota('esmScalingPerMinute'),
    maxConcurrency: Math.min(quota('esmMaxConcurrency'), groupsOpen),
  };
}

/** Provisioned mode with `pollers` kept: each runs 10 invocations at once; it scales at 1,000 a minute. */
export function provisionedMode(pollers: number, groupsOpen: number): ScalingMode {
  return {
    startConcurrency: pollers * quota('esmPollerConcurrency'),
    perMinute: quota('esmProvisionedScalingPerMinute'),
    maxConcurrency: groupsOpen,
  };
}

/** The fewest pollers provisioned mode keeps (AWS: at least 2), and those that meet a peak with no ramp. */
export const MIN_POLLERS = 2;
export const pollersFor = (concurrency: number) =>
  Math.max(MIN_POLLERS, Math.ceil(concurrency / quota('esmPollerConcurrency')));

/** What keeping `pollers` costs: an hour, and a month kept all month. */
export function pollerCost(pollers: number, book: PriceBook): { usdPerHour: number; usdPerMonth: number } {
  const usdPerHour = pollers * listRate(book.prices.eventPollerHours);
  return { usdPerHour, usdPerMonth: (usdPerHour * SECONDS_PER_MONTH) / 3600 };
}

/** An hour, a second at a time, is as long as a peak's ramp is followed. */
const HORIZON_SECONDS = 3600;

/**
 * The peak from idle in `mode`, a second at a time: the consumer's concurrency grows at the mode's rate; while
 * votes wait, each batch is full, so it drains concurrency x batch size per cycle; the backlog is what arrived
 * and was not drained. A vote waits about the backlog ahead of it over the drain rate: the lag results show.
 */
export function rampFromIdle(peak: ConsumerPeak, mode: ScalingMode): RampOutcome {
  const concurrencyAt = (t: number) => Math.min(mode.maxConcurrency, mode.startConcurrency + (mode.perMinute * t) / 60);
  const needed = Math.min(peak.neededConcurrency, mode.maxConcurrency);
  const reachSeconds =
    needed <= mode.startConcurrency ? 0 : Math.ceil(((needed - mode.startConcurrency) * 60) / mode.perMinute);
  const fullBatchRate = (peak.batchSize * 1000) / peak.cycleMs;
  let backlog = 0;
  let backlogPeak = 0;
  let maxLagSeconds = 0;
  let drainedSeconds: number | undefined;
  for (let t = 1; t <= HORIZON_SECONDS; t++) {
    const drain = concurrencyAt(t) * fullBatchRate;
    backlog = Math.max(0, backlog + peak.votesPerSecond - drain);
    backlogPeak = Math.max(backlogPeak, backlog);
    maxLagSeconds = Math.max(maxLagSeconds, backlog / drain);
    if (backlog === 0 && backlogPeak > 0 && drainedSeconds === undefined) drainedSeconds = t;
    if (backlog === 0 && t >= reachSeconds) break;
  }
  return { reachSeconds, backlogPeak, drainedSeconds: backlogPeak > 0 ? drainedSeconds : 0, maxLagSeconds };
}

/** The consumer's ramp to a profile's peak, on demand and in provisioned mode. */
export interface ConsumerRamp {
  peak: ConsumerPeak;
  onDemand: RampOutcome;
  /** Provisioned mode at its fewest pollers, and its month's cost kept so. */
  provisionedMin: RampOutcome & { pollers: number; usdPerMonth: number };
  /** The pollers that meet the peak with no ramp, and what they cost kept an hour, and all month. */
  provisionedReady: { pollers: number; usdPerHour: number; usdPerMonth: number };
}

/** The consumer's ramp to the peak on a stack; none where the event source's first batches keep up. */
export function consumerRamp(
  stack: StackConfig,
  peak: Peak,
  units: UnitCosts,
  book: PriceBook,
): ConsumerRamp | undefined {
  const cycleMs = batchCycleMs(units);
  const batchSize = Math.min(stack.consumer.batchSize, quota('fifoEventSourceBatchSize'));
  const needed = (peak.routes.votes * cycleMs) / (batchSize * 1000);
  if (needed <= quota('esmInitialConcurrency')) return undefined;
  const consumer: ConsumerPeak = {
    votesPerSecond: peak.routes.votes,
    neededConcurrency: needed,
    groupsOpen: stack.votePath.groupsPerPoll * Math.max(1, peak.pollsOpenAtOnce),
    batchSize,
    cycleMs,
  };
  const ready = pollersFor(needed);
  return {
    peak: consumer,
    onDemand: rampFromIdle(consumer, onDemandMode(consumer.groupsOpen)),
    provisionedMin: {
      ...rampFromIdle(consumer, provisionedMode(MIN_POLLERS, consumer.groupsOpen)),
      pollers: MIN_POLLERS,
      usdPerMonth: pollerCost(MIN_POLLERS, book).usdPerMonth,
    },
    provisionedReady: { pollers: ready, ...pollerCost(ready, book) },
  };
}
