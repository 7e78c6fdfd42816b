/** How many processes the VPS edition runs on a box (config/vps-workers.ts: the rule and why). */
import { ONE_PROCESS_UP_TO_VCPUS } from '../config/vps-workers';

/** The processes serving HTTP that auto runs on `vcpus`: 1 is one process (no cluster), more are workers. */
export const autoWorkers = (vcpus: number): number => (vcpus <= ONE_PROCESS_UP_TO_VCPUS ? 1 : vcpus);
