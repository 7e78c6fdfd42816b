/**
 * What `npm run vps -- --workers auto` runs on a box: the threshold and why. sizing/vps-workers.ts applies it for
 * the edition (bin/vps.ts), the estimator that prices the box (cost/estimate/vps.ts) and bench:vps alike, so that
 * the model prices what runs.
 */

/**
 * Up to this many vCPUs, auto runs one process: on two, two workers and the writer that owns the log reached 1.3x
 * one process's votes, counted as the box's cores ÷ µs a vote (one process on its one core), in few runs, and
 * served fewer votes a second in every one, each vote crossing three processes on two cores (byWorkers in
 * cost/estimate/vps-capacity.json; docs/vps.md "Two vCPUs: one process").
 */
export const ONE_PROCESS_UP_TO_VCPUS = 2;

/** The rule in words, for a command's help and the estimator's working. */
export const AUTO_WORKERS_RULE = `one process up to ${ONE_PROCESS_UP_TO_VCPUS} vCPUs, an HTTP worker per vCPU on more`;
