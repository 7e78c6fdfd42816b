/** How many processes the VPS edition runs on a box (config/vps-workers.ts: the rule and why). */
import { ONE_PROCESS_UP_TO_VCPUS } from '../config/vps-workers';

/** The processes serving HTTP that auto runs on `vcpus`: 1 is one process (no cluster), more are workers. */
export const autoWorkers = (vcpus: number): number => (vcpus <= ONE_PROCESS_UP_TO_VCPUS ? 1 : vcpus);

/** A worker count: 1 is one process; `auto`: what --workers auto runs on the box. */
export interface WorkerCount {
  workers: number;
  auto: boolean;
}

/** A count's label: "one process", "2 workers", with "(auto)" where --workers auto runs it. */
export const countLabel = ({ workers, auto }: WorkerCount): string =>
  `${workers === 1 ? 'one process' : `${workers} workers`}${auto ? ' (auto)' : ''}`;
