/**
 * Usage as AWS would bill it, counted while the local runtime runs; the cost
 * model reads it (GET /_local/usage, or the file written on exit).
 */
import type { StackConfig } from '../cost/estimate/stack-config';
import type { LimitName } from './aws-limits';
export interface FunctionUsage {
  invocations: number;
  /** Sum of per-invocation durations, each rounded up to 1 ms as Lambda bills. */
  billedMs: number;
  errors: number;
  timeouts: number;
  /** Refused past reserved concurrency: not billed (Lambda's Throttles metric). */
  throttles: number;
  /** Module load (cold start) time; Lambda bills INIT for managed runtimes since 2025-08. */
  initMs: number;
  memoryMb: number;
  /**
   * A queue consumer: its batches' milliseconds from receive to delete, summed: how long each held its
   * message groups, the cycle that sets how many votes the next batch of a group holds (cost/estimate/rates.ts).
   */
  batchHeldMs?: number;
}

export interface TableUsage {
  readUnits: number;
  writeUnits: number;
  requests: Record<string, number>;
  /** Capacity units (read or write, as the action consumes) by action, e.g. UpdateItem. */
  unitsByAction: Record<string, number>;
  /** Read and write units by the function that used them (e.g. what the results cache saves). */
  byFunction: Record<string, { readUnits: number; writeUnits: number }>;
}

export interface QueueUsage {
  /** API requests by action; SQS bills each (per 64 KB of payload). */
  requests: Record<string, number>;
  billedRequests: number;
  emptyReceives: number;
  messagesSent: number;
}

export interface ApiUsage {
  requests: number;
  byStatus: Record<string, number>;
  byRoute: Record<string, number>;
  bytesOut: number;
}

/** What CloudFront would serve: the site, and the API paths it caches (requests and bytes to viewers). */
export interface SiteUsage {
  requests: number;
  bytesOut: number;
  /** Of those, API answers served from the cache without asking API Gateway. */
  cacheHits: number;
}

/** Requests to Lambda function URLs (no charge of their own: the invocations and the bytes out are billed). */
export interface FunctionUrlUsage {
  requests: number;
  byStatus: Record<string, number>;
  bytesOut: number;
}

/** With --aws-limits: the scale, the stack the limits were read from, and the refusals by limit. */
export interface AwsLimitsUsage {
  scale: number;
  stack: StackConfig;
  refused: Partial<Record<LimitName, number>>;
}

export interface Usage {
  startedAt: string;
  at: string;
  apiKind: string;
  functions: Record<string, FunctionUsage>;
  tables: Record<string, TableUsage>;
  queues: Record<string, QueueUsage>;
  api: ApiUsage;
  site: SiteUsage;
  functionUrls: FunctionUrlUsage;
  awsLimits?: AwsLimitsUsage;
}

const bump = (counts: Record<string, number>, key: string, by = 1) => {
  counts[key] = (counts[key] ?? 0) + by;
};

export class Meter {
  private readonly startedAt = new Date().toISOString();
  readonly functions: Record<string, FunctionUsage> = {};
  readonly tables: Record<string, TableUsage> = {};
  readonly queues: Record<string, QueueUsage> = {};
  readonly api: ApiUsage = { requests: 0, byStatus: {}, byRoute: {}, bytesOut: 0 };
  readonly site: SiteUsage = { requests: 0, bytesOut: 0, cacheHits: 0 };
  readonly functionUrls: FunctionUrlUsage = { requests: 0, byStatus: {}, bytesOut: 0 };
  /** Set by the runtime when it enforces AWS's limits; its refusals are counted where they happen. */
  awsLimits?: AwsLimitsUsage;

  constructor(private readonly apiKind: string) {}

  fn(name: string, memoryMb: number): FunctionUsage {
    this.functions[name] ??= {
      invocations: 0,
      billedMs: 0,
      errors: 0,
      timeouts: 0,
      throttles: 0,
      initMs: 0,
      memoryMb,
    };
    return this.functions[name];
  }

  recordInvocation(
    name: string,
    memoryMb: number,
    durationMs: number,
    outcome: 'ok' | 'error' | 'timeout' | 'throttled',
  ): void {
    const usage = this.fn(name, memoryMb);
    if (outcome === 'throttled') {
      usage.throttles++;
      return;
    }
    usage.invocations++;
    usage.billedMs += Math.max(1, Math.ceil(durationMs));
    if (outcome === 'error') usage.errors++;
    if (outcome === 'timeout') usage.timeouts++;
  }

  recordBatchHeld(name: string, memoryMb: number, heldMs: number): void {
    const usage = this.fn(name, memoryMb);
    usage.batchHeldMs = (usage.batchHeldMs ?? 0) + heldMs;
  }

  recordTable(table: string, action: string, readUnits: number, writeUnits: number, fn?: string): void {
    this.tables[table] ??= {
      readUnits: 0,
      writeUnits: 0,
      requests: {},
      unitsByAction: {},
      byFunction: {},
    };
    const usage = this.tables[table];
    if (fn) {
      usage.byFunction[fn] ??= { readUnits: 0, writeUnits: 0 };
      const byFn = usage.byFunction[fn];
      byFn.readUnits += readUnits;
      byFn.writeUnits += writeUnits;
    }
    usage.readUnits += readUnits;
    usage.writeUnits += writeUnits;
    bump(usage.requests, action);
    bump(usage.unitsByAction, action, readUnits + writeUnits);
  }

  recordQueue(
    queue: string,
    action: string,
    payloadBytes: number,
    messages: { sent?: number; received?: number },
  ): void {
    this.queues[queue] ??= { requests: {}, billedRequests: 0, emptyReceives: 0, messagesSent: 0 };
    const usage = this.queues[queue];
    bump(usage.requests, action);
    usage.billedRequests += Math.max(1, Math.ceil(payloadBytes / 65536));
    usage.messagesSent += messages.sent ?? 0;
    if (action === 'ReceiveMessage' && messages.received === 0) usage.emptyReceives++;
  }

  recordApi(route: string, status: number, bytesOut: number): void {
    this.api.requests++;
    this.api.bytesOut += bytesOut;
    bump(this.api.byStatus, String(status));
    bump(this.api.byRoute, route);
  }

  recordCdn(bytesOut: number, cacheHit = false): void {
    this.site.requests++;
    this.site.bytesOut += bytesOut;
    if (cacheHit) this.site.cacheHits++;
  }

  recordFunctionUrl(status: number, bytesOut: number): void {
    this.functionUrls.requests++;
    this.functionUrls.bytesOut += bytesOut;
    bump(this.functionUrls.byStatus, String(status));
  }

  snapshot(): Usage {
    return structuredClone({
      startedAt: this.startedAt,
      at: new Date().toISOString(),
      apiKind: this.apiKind,
      functions: this.functions,
      tables: this.tables,
      queues: this.queues,
      api: this.api,
      site: this.site,
      functionUrls: this.functionUrls,
      ...(this.awsLimits && { awsLimits: this.awsLimits }),
    });
  }
}

/**
 * The vote consumer's metered totals in a snapshot: its batches and how long they held their groups, the
 * counters' write units, and the queues' billed requests less empty receives (what a batch and a vote cost).
 */
export function consumerTotals(usage: Usage) {
  const consumer = Object.entries(usage.functions).find(([name]) => /countvotes/i.test(name))?.[1];
  const queues = Object.values(usage.queues);
  return {
    batches: consumer?.invocations ?? 0,
    heldMs: consumer?.batchHeldMs ?? 0,
    writeUnits: Object.values(usage.tables).reduce((sum, t) => sum + (t.unitsByAction.UpdateItem ?? 0), 0),
    sqsRequests: queues.reduce((sum, q) => sum + q.billedRequests - q.emptyReceives, 0),
  };
}
