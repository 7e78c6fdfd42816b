/**
 * AWS's limits that bind a hot poll, enforced by the local runtime at a fraction of their value
 * (`npm start -- --aws-limits <scale>`): the API's account and stage throttles, Lambda's account
 * concurrency and requests a second (and a function's reserved concurrency), a FIFO queue's sends
 * per message group and per queue, and a partition key's reads and writes. Every value is the quota
 * sheet's (config/aws-quotas.ts) or the template's (cost/estimate/stack-config.ts) times the scale, never a
 * copy. One FIFO batch in flight per message group needs nothing here: the queue locks a group
 * while its messages are in flight (fauxqs, local/fauxqs-internals.ts), as SQS does.
 */
import type { StackConfig } from '../cost/estimate/stack-config';
import { NamedError } from '../domain/errors';
import { quota } from '../sizing/quotas';

/** Each bucket holds this many seconds of its rate: a burst small beside a run's saturated stretch. */
export const BURST_SECONDS = 1;

/** Which limit refused a request: the names the usage (GET /_local/usage) counts them under. */
export type LimitName =
  | 'api-account'
  | 'api-stage'
  | 'lambda-concurrency'
  | 'lambda-requests'
  | 'lambda-reserved'
  | 'sqs-group'
  | 'sqs-queue'
  | 'dynamo-item-write'
  | 'dynamo-item-read';

export class AwsLimitsError extends NamedError {
  override readonly name = 'AwsLimitsError';
}

/** The scale checked: a number in (0, 1]; an AwsLimitsError naming the range otherwise. */
export function parseAwsLimitsScale(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!(n > 0 && n <= 1))
    throw new AwsLimitsError(
      `--aws-limits must be the fraction of AWS's limits to enforce, a number in (0, 1], e.g. 0.01 ` +
        `(got ${JSON.stringify(value ?? null)}).`,
    );
  return n;
}

/** A token bucket: `ratePerSecond` tokens a second, holding at most `burst`; starts full. */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly clock: () => number,
  ) {
    this.tokens = burst;
    this.at = clock();
  }

  /** Takes `n` tokens if it holds them. */
  take(n = 1): boolean {
    const now = this.clock();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.ratePerSecond);
    this.at = now;
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }
}

/** Per-key buckets of one rate (a message group's sends, a partition key's writes), made on first use. */
class BucketsByKey {
  private readonly buckets = new Map<string, TokenBucket>();
  constructor(
    private readonly rate: number,
    private readonly clock: () => number,
  ) {}
  take(key: string, n = 1): boolean {
    const bucket = this.buckets.get(key) ?? bucketOf(this.rate, this.clock);
    this.buckets.set(key, bucket);
    return bucket.take(n);
  }
}

const bucketOf = (rate: number, clock: () => number) => new TokenBucket(rate, Math.max(1, rate * BURST_SECONDS), clock);

/** How a throttled DynamoDB call is answered: as the SDK surfaces a hot partition. */
export function keyRangeThrottle(kind: 'read' | 'write', tableArn: string) {
  const reason = kind === 'read' ? 'TableReadKeyRangeThroughputExceeded' : 'TableWriteKeyRangeThroughputExceeded';
  return {
    __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    message: 'The level of configured provisioned throughput for one or more partitions of the table was exceeded.',
    ThrottlingReasons: [{ reason, resource: tableArn }],
  };
}

/** How SQS answers a send over its rate (JSON protocol): the SDK's ThrottlingException, which it retries. */
export const SQS_THROTTLE = { __type: 'com.amazonaws.sqs#ThrottlingException', message: 'Rate exceeded' };

export interface AwsLimits {
  scale: number;
  /** Refusals so far, by the limit that answered. */
  refused: Partial<Record<LimitName, number>>;
  /** A request at the API's front door: the throttle that refuses it, if one does. */
  frontDoor(): LimitName | undefined;
  /** An invocation about to start: how to end it, or the limit that refuses it. */
  invoke(fn: { name: string; reservedConcurrency?: number }): (() => void) | LimitName;
  /** A SendMessage to a FIFO queue: the limit that refuses it, if one does. */
  send(queue: string, group: string): LimitName | undefined;
  /** A DynamoDB call on one partition key: the limit that refuses it, if one does. */
  itemCall(kind: 'read' | 'write', itemKey: string, units: number): LimitName | undefined;
}

/** The limits of `stack` at `scale`, with an injectable clock (ms) for tests. */
export function awsLimits(stack: StackConfig, scale: number, clock: () => number = Date.now): AwsLimits {
  const at = (rate: number) => bucketOf(rate * scale, clock);
  const api = { account: at(quota('apiAccountRequestsPerSecond')), stage: at(stack.votePath.stageRateLimit) };
  const lambda = lambdaLimits(scale, clock);
  const queueSends = at(quota('sqsFifoSendsPerQueue'));
  const groupSends = new BucketsByKey(quota('sqsFifoSendsPerGroup') * scale, clock);
  const items = {
    write: new BucketsByKey(quota('dynamoItemWriteUnits') * scale, clock),
    read: new BucketsByKey(quota('dynamoItemReadUnits') * scale, clock),
  };
  const refused: AwsLimits['refused'] = {};
  const refuse = (name: LimitName | undefined) => {
    if (name) refused[name] = (refused[name] ?? 0) + 1;
    return name;
  };
  return {
    scale,
    refused,
    frontDoor: () => refuse(!api.account.take() ? 'api-account' : !api.stage.take() ? 'api-stage' : undefined),
    invoke(fn) {
      const admitted = lambda.admit(fn);
      return typeof admitted === 'function' ? admitted : refuse(admitted)!;
    },
    send: (queue, group) =>
      refuse(!groupSends.take(`${queue}/${group}`) ? 'sqs-group' : !queueSends.take() ? 'sqs-queue' : undefined),
    itemCall: (kind, itemKey, units) =>
      refuse(items[kind].take(itemKey, units) ? undefined : kind === 'read' ? 'dynamo-item-read' : 'dynamo-item-write'),
  };
}

/**
 * Lambda at `scale`: the account's concurrency (invocations in flight, every function together)
 * and its 10 requests a second per unit; a function with reserved concurrency, its own share of both.
 */
function lambdaLimits(scale: number, clock: () => number) {
  const perUnit = quota('lambdaRequestsPerConcurrency');
  const concurrency = quota('lambdaAccountConcurrency') * scale;
  const requests = bucketOf(concurrency * perUnit, clock);
  const reservedRequests = new Map<string, TokenBucket>();
  const running = new Map<string, number>();
  let inFlight = 0;
  function reservedRefuses(fn: { name: string; reservedConcurrency?: number }): boolean {
    if (fn.reservedConcurrency === undefined) return false;
    const cap = fn.reservedConcurrency * scale;
    if (!reservedRequests.has(fn.name)) reservedRequests.set(fn.name, bucketOf(cap * perUnit, clock));
    return (running.get(fn.name) ?? 0) + 1 > cap || !reservedRequests.get(fn.name)!.take();
  }
  return {
    admit(fn: { name: string; reservedConcurrency?: number }): (() => void) | LimitName {
      if (inFlight + 1 > concurrency) return 'lambda-concurrency';
      if (reservedRefuses(fn)) return 'lambda-reserved';
      if (!requests.take()) return 'lambda-requests';
      inFlight++;
      running.set(fn.name, (running.get(fn.name) ?? 0) + 1);
      return () => {
        inFlight--;
        running.set(fn.name, running.get(fn.name)! - 1);
      };
    },
  };
}
