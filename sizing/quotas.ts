/** AWS's quotas (config/aws-quotas.ts) where a design runs: the figure a Region has, which sizing is held to. */
import { type Quota, QUOTAS, type QuotaId } from '../config/aws-quotas';

/** A quota's value in a Region (us-east-1's when none is named). */
export function quota(id: QuotaId, region = 'us-east-1'): number {
  const q: Quota = QUOTAS[id];
  if (region === 'us-east-1') return q.value;
  return q.inRegions?.find((r) => r.regions.includes(region))?.value ?? q.elsewhere ?? q.value;
}
