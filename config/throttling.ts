/** How much traffic the API lets in: the stage's throttle, and the per-address limits of the functions. */

/**
 * API Gateway stage throttling (steady rate, burst): the default size (sizing/vote-path.ts sizes it
 * for a hot poll).
 */
export const API_THROTTLE = {
  rateLimit: 2000,
  burstLimit: 1000,
} as const;

/**
 * Per source address, per function container (domain/rate-limit.ts): generous
 * enough for a class voting behind one NAT, tight enough that one script cannot run
 * up the bill from one address. `-c rateLimits=off` turns them off (e.g. to load-test a deployment).
 */
export const RATE_LIMITS = {
  createPoll: { perMinute: 10, burst: 5 },
  castVote: { perMinute: 60, burst: 30 },
} as const;
