/**
 * A token bucket per key (the source address, held in memory only): it costs nothing per
 * request, and each Lambda container keeps its own buckets, so a client spread over
 * many containers gets a few bursts more (stage throttling caps the total).
 */
import { FUNCTION_ENV } from '../config/function-env';

export interface RateLimit {
  /** Tokens added per minute; 0 turns limiting off. */
  perMinute: number;
  /** Bucket size: how many requests may come at once. */
  burst: number;
}

/** The rate limit as the stack writes it (config/function-env.ts): "<perMinute>/<burst>", or "off"; else an Error. */
export function parseRateLimit(value: string | undefined): RateLimit {
  if (!value || value === 'off') return { perMinute: 0, burst: 0 };
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match)
    throw new Error(`${FUNCTION_ENV.rateLimit.name} must look like "60/30" or be "off" (got ${JSON.stringify(value)})`);
  return { perMinute: Number(match[1]), burst: Number(match[2]) };
}

/**
 * Where a request's token comes from: 0 when allowed, else the seconds until a token is back. A
 * RateLimiter here, or one a process elsewhere holds (the VPS edition's workers share their primary's).
 */
export interface RateTaker {
  take(key: string, nowMs: number): number | Promise<number>;
}

/** One token bucket per key, at most `maxKeys` of them (least recently seen out). Throws nothing: it answers. */
export class RateLimiter implements RateTaker {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly limit: RateLimit,
    /** Memory bound: the least recently seen keys are forgotten first. */
    private readonly maxKeys = 10_000,
  ) {}

  /** Takes a token for `key`; returns 0 when allowed, else the seconds until a token is back. */
  take(key: string, nowMs: number): number {
    if (this.limit.perMinute <= 0) return 0;
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, at: nowMs };
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + ((nowMs - bucket.at) / 60_000) * this.limit.perMinute);
    bucket.at = nowMs;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    return allowed ? 0 : Math.ceil(((1 - bucket.tokens) * 60) / this.limit.perMinute);
  }
}
