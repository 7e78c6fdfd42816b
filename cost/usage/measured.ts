/**
 * Measured mode: a load test's metered usage (the local runtime's usage.json)
 * becomes per-operation figures that replace the model's assumptions. The
 * profile still sets the volumes; the run sets what each operation uses.
 */
import { NamedError } from '../../domain/errors';
import type { TableUsage, Usage } from '../../local/metering';
import { DEFAULT_UNIT_COSTS, FUNCTION_ROLES, type FunctionRole, functionRole, type UnitCosts } from './unit-costs';

export interface Observed {
  votes: number;
  creates: number;
  batches: number;
  apiRequests: number;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

const BILLED_MS_CAVEAT = "(wall-clock on a shared machine with every function in one process: overstates Lambda's)";

/** A run that cannot stand for per-operation figures (it queued no votes). */
export class MeasuredRunError extends NamedError {
  override readonly name = 'MeasuredRunError';
}

/**
 * A run's metered usage as per-operation figures over `base`, each marked measured where the run
 * gave it; throws MeasuredRunError when the run queued no votes.
 */
export function unitCostsFromUsage(
  usage: Usage,
  label: string,
  base: UnitCosts = DEFAULT_UNIT_COSTS,
): { units: UnitCosts; observed: Observed } {
  const fns = Object.entries(usage.functions ?? {});
  const fn = (role: FunctionRole) => fns.find(([name]) => functionRole(name) === role)?.[1];
  const queues = Object.values(usage.queues ?? {});
  const tables = Object.values(usage.tables ?? {});
  const votes = sum(queues.map((q) => q.messagesSent));
  if (!(votes > 0))
    throw new MeasuredRunError(
      `${label}: the run queued no votes, so there is nothing per vote to scale. ` +
        'Run a scenario that votes (e.g. npm run load -- vote-storm).',
    );

  const units: UnitCosts = structuredClone(base);
  const measured = `measured: ${label}`;
  const billedMs = { ...base.billedMs };
  for (const role of FUNCTION_ROLES) {
    const f = fn(role);
    if (f && f.invocations > 0) billedMs[role] = f.billedMs / f.invocations;
  }
  units.billedMs = billedMs;
  units.sources.billedMs = `${measured} ${BILLED_MS_CAVEAT}`;

  const batches = fn('countVotes')?.invocations ?? 0;
  if (batches > 0) {
    units.votesPerBatch = votes / batches;
    units.sources.votesPerBatch = measured;
  }
  // How long a batch held its groups, receive to delete: the cycle the batching curve reads.
  const held = fn('countVotes')?.batchHeldMs;
  if (batches > 0 && held !== undefined) {
    units.batchCycleMs = held / batches;
    units.sources.batchCycleMs = `${measured} ${BILLED_MS_CAVEAT}`;
  }
  const creates = fn('createPoll')?.invocations ?? 0;
  measureTables(units, tables, votes, creates, measured);
  // What the results function's cache leaves to the table, from its own reads (metered per function).
  const resultsFn = fns.find(([name]) => functionRole(name) === 'getResults');
  const resultsReads =
    resultsFn && tables.some((t) => t.byFunction)
      ? sum(tables.map((t) => t.byFunction?.[resultsFn[0]]?.readUnits ?? 0))
      : undefined;
  if (resultsFn && resultsFn[1].invocations > 0 && resultsReads !== undefined) {
    units.readUnitsPerResultsRequest = resultsReads / resultsFn[1].invocations;
    units.sources.readUnitsPerResultsRequest = measured;
  }
  // Empty receives depend on how long the run idled, not on votes: keep the assumption for those.
  units.sqsRequestsPerVote = sum(queues.map((q) => q.billedRequests - q.emptyReceives)) / votes;
  units.sources.sqsRequestsPerVote = measured;

  return { units, observed: { votes, creates, batches, apiRequests: usage.api?.requests ?? 0 } };
}

/** The table's figures per operation, from the capacity units each action consumed (sources in this order). */
function measureTables(units: UnitCosts, tables: TableUsage[], votes: number, creates: number, measured: string) {
  const byAction = (action: string) => sum(tables.map((t) => t.unitsByAction?.[action] ?? 0));
  const requests = (action: string) => sum(tables.map((t) => t.requests?.[action] ?? 0));
  units.counterWriteUnitsPerVote = byAction('UpdateItem') / votes;
  units.sources.counterWriteUnitsPerVote = measured;
  if (creates > 0 && requests('BatchWriteItem') > 0) {
    units.writeUnitsPerCreate = byAction('BatchWriteItem') / requests('BatchWriteItem');
    units.sources.writeUnitsPerCreate = measured;
  }
  if (requests('PutItem') > 0) {
    units.writeUnitsPerVoterClaim = byAction('PutItem') / requests('PutItem');
    units.sources.writeUnitsPerVoterClaim = measured;
  }
  if (requests('GetItem') > 0) {
    units.readUnitsPerRead = byAction('GetItem') / requests('GetItem');
    units.sources.readUnitsPerRead = measured;
  }
}
