/**
 * Cold starts from the traffic: the share of a function's invocations that find no warm environment,
 * from the gaps between its requests. Lambda bills an invocation's INIT phase since 2025-08-01 (managed
 * runtimes, ZIP packages), so a sparse app pays it on nearly every request and a busy one on almost none.
 * Pure: the model (cost/estimate/monthly-usage.ts) asks it per function.
 */

/**
 * How long Lambda keeps an idle environment. AWS publishes no value; the last public measurement found
 * environments gone about 10 minutes after their last request.
 */
export const ENVIRONMENT_IDLE_LIFETIME = {
  seconds: 600,
  source:
    'AWS re:Post ("We do not publish these values"); mikhail.io "Cold Starts in AWS Lambda" (2019: an idle ' +
    'environment is gone after about 10 minutes)',
  checked: '2026-11-26',
  assumption: 'AWS publishes no idle lifetime: the last public measurement (10 minutes, 2019) is assumed',
} as const;

/** AWS's own figure for busy traffic: the check a busy profile's share is held to. */
export const AWS_COLD_START_SHARE = {
  below: 0.01,
  source:
    'AWS Compute Blog "AWS Lambda standardizes billing for INIT Phase" (2025): cold starts are under 1% of ' +
    'invocations in production',
  checked: '2026-11-26',
} as const;

/** One function's month, as the gaps between its requests see it. */
export interface FunctionTraffic {
  /** Its invocations in the month. */
  invocations: number;
  /** How long a poll keeps it busy (a poll's open window); 0 for a call of its own, like a create. */
  busySeconds: number;
  /** Its time an invocation: how many environments a busy spell needs at once. */
  billedMs: number;
}

/** How often polls start, and the month they start in. */
export interface PollArrivals {
  pollsPerMonth: number;
  secondsPerMonth: number;
}

/**
 * The share of a function's invocations that start cold. Polls start at random (Poisson) through the
 * month, each keeping the function busy for `busySeconds`, with its requests at random within; an
 * environment idle longer than `idleSeconds` is gone. So the function starts cold (a) at each request
 * that follows a gap longer than the idle lifetime within busy time, and (b) at each busy spell that
 * begins after the function has been idle that long, once per environment the spell needs at once. A
 * function called on its own (busySeconds 0) is cold whenever the last call is that long ago. Scaling out
 * within a spell and AWS's recycling of environments every few hours are not counted: for busy traffic the
 * share is a floor, and AWS's "under 1%" (AWS_COLD_START_SHARE) is its check.
 */
export function coldStartShare(
  traffic: FunctionTraffic,
  arrivals: PollArrivals,
  idleSeconds: number = ENVIRONMENT_IDLE_LIFETIME.seconds,
): number {
  const { invocations, busySeconds, billedMs } = traffic;
  if (!(invocations > 0) || !(arrivals.pollsPerMonth > 0)) return 0;
  const pollsPerSecond = arrivals.pollsPerMonth / arrivals.secondsPerMonth;
  if (!(busySeconds > 0)) {
    // Calls at random through the month: cold when none came within the idle lifetime.
    const rate = invocations / arrivals.secondsPerMonth;
    return Math.exp(-rate * idleSeconds);
  }
  // The share of the month some poll keeps it busy, and its requests a second then.
  const busyShare = 1 - Math.exp(-pollsPerSecond * busySeconds);
  const busyRate = invocations / (arrivals.secondsPerMonth * busyShare);
  const withinSpells = invocations * Math.exp(-busyRate * idleSeconds);
  // A spell begins cold when no poll was open in the busy time and the idle lifetime before it.
  const coldSpells = arrivals.pollsPerMonth * Math.exp(-pollsPerSecond * (busySeconds + idleSeconds));
  const environments = Math.max(1, Math.ceil((busyRate * billedMs) / 1000));
  return Math.min(1, (withinSpells + coldSpells * environments) / invocations);
}

/** The share of all of a month's invocations that start cold: each function's share, weighted by its invocations. */
export function coldStartShareOfAll(invocations: Record<string, number>, shares: Record<string, number>): number {
  const roles = Object.keys(invocations);
  const total = roles.reduce((sum, role) => sum + invocations[role], 0);
  return total > 0 ? roles.reduce((sum, role) => sum + invocations[role] * (shares[role] ?? 0), 0) / total : 0;
}
