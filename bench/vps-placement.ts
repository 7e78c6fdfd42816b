/**
 * Where npm run bench:vps runs a worker count and its load generator: the server on as many cores as a box of
 * that many vCPUs has (--workers auto there runs one per vCPU), the load generator on the machine's other cores,
 * so that it takes none of the server's; where the machine has none left, both share every core, and the rate
 * then says what the load generator left the server, not what the server serves. Each run says which bound it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { CountRun } from '../cost/estimate/vps';

/** The cores a count's server runs on and the load generator's; shared: the same cores, none to spare. */
export interface Placement {
  server: number[];
  load: number[];
  shared: boolean;
  /** One line for the run's output. */
  says: string;
}

/** What bound a run's rate: the server's cores, the load generator's, or neither (waits, or the machine's others). */
export type Limit = CountRun['limit'];

/** The cores this process may run on (Linux: /proc/self/status), as availableParallelism() counts them. */
export function ownCores(
  status = existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : '',
): number[] {
  const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1];
  if (!list) return Array.from({ length: availableParallelism() }, (_, i) => i);
  return list.split(',').flatMap((range) => {
    const [from, to = from] = range.split('-').map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/** A count of `workers` (1: one process) on `cores`: its box's worth for the server, the rest for the load. */
export function placementOf(workers: number, cores: number[]): Placement {
  if (workers < cores.length) {
    const server = cores.slice(0, workers);
    const load = cores.slice(workers);
    return { server, load, shared: false, says: `the server on cores ${server}, the load generator on ${load}` };
  }
  return {
    server: cores,
    load: cores,
    shared: true,
    says:
      `the server on every core (${cores}), the load generator on the same ones (this machine has none to ` +
      'spare): the rate is what the load generator left the server; its µs a request measure it',
  };
}

/** A run or a route is server-bound at this share of its cores busy. */
const SATURATED = 0.9;

/**
 * What bound a run, from the cores each side kept busy: the server at SATURATED of its cores; else the load
 * generator at SATURATED of its own, or on the server's cores at all (it took what the server would have used);
 * else neither: waits (a flush's disk) or the machine's other processes.
 */
export function limitOf(busy: { server: number; loadGenerator: number }, placement: Placement): Limit {
  const full = SATURATED * placement.server.length;
  if (busy.server >= full) return 'server';
  if (placement.shared) return busy.server + busy.loadGenerator >= full ? 'load generator' : 'other';
  return busy.loadGenerator >= SATURATED * placement.load.length ? 'load generator' : 'other';
}
