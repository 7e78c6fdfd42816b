/** What a local runtime is started with (startLocalRuntime; `npm start` sets them from its options). */
import type { ServerCaptchaSettings } from '../config/captcha';
import type { ResultsDelivery } from '../config/results-delivery';
import type { ApiKind } from '../config/stack';
import type { Faults } from './faults';

export interface LocalRuntimeOptions {
  apiKind?: ApiKind;
  /** How the page reads results, as `-c results=` deploys it (default `api`). */
  results?: ResultsDelivery;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Persist the table here; in memory when absent. */
  dataDir?: string;
  /** Handler log level (the deployed default is INFO; WARN keeps a terminal readable). */
  logLevel?: string;
  faults?: Faults;
  /**
   * Per-address rate limits on create and vote, as the template sets them (default). Load tests
   * and benchmarks send everything from 127.0.0.1 and turn them off.
   */
  rateLimits?: boolean;
  /**
   * A CAPTCHA as a deployment would have it: the provider and site key go into the template,
   * the secret into a local SSM parameter. `verifyUrl` replaces the provider's siteverify (tests).
   */
  captcha?: ServerCaptchaSettings;
  /** results=function-url: the results function's reserved concurrency (`-c resultsConcurrency`). */
  resultsConcurrency?: number | 'off';
  /** The vote path sized for one poll of this many votes a second (`-c hotPollVotesPerSecond`). */
  hotPollVotesPerSecond?: number;
  /** The API stage's throttle, requests a second (`-c apiRateLimit`). */
  apiRateLimit?: number;
  /** Enforce AWS's limits that bind a hot poll at this fraction of their value (local/aws-limits.ts). */
  awsLimits?: number;
  /**
   * Test-only: the clock (ms) the limits' buckets refill by, so that what a burst finds refused depends on the
   * test, not on the machine's pace.
   */
  awsLimitsClock?: () => number;
  /** Test-only: override queue visibility timeouts (seconds) so redeliveries happen quickly. */
  visibilityTimeoutSeconds?: number;
  /**
   * Test-only: the AWS SDK's attempts per call (AWS_MAX_ATTEMPTS; its default is 3). Fault tests
   * throttle writes on purpose, and the SDK's backoff between attempts only waits.
   */
  sdkMaxAttempts?: number;
  pollers?: number;
}
