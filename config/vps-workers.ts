/**
 * What `npm run vps -- --workers auto` runs on a box, read by the edition (bin/vps.ts), by the estimator that
 * prices the box (cost/estimate/vps.ts) and by bench:vps alike, so that the model prices what runs.
 */

/** Up to this many vCPUs, auto runs one process. */
export const ONE_PROCESS_UP_TO_VCPUS = 1;

/** The processes serving HTTP that auto runs on `vcpus`: 1 is one process (no cluster), more are workers. */
export const autoWorkers = (vcpus: number): number => (vcpus <= ONE_PROCESS_UP_TO_VCPUS ? 1 : vcpus);

/** The rule in words, for a command's help and the estimator's working. */
export const AUTO_WORKERS_RULE = 'one process on 1 vCPU, an HTTP worker per vCPU on more';
