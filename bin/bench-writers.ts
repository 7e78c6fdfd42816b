/**
 * `npm run bench:writers`: four ways two cores can share durable votes, each at its smallest, under bench:vps's vote
 * load (vps/bench-writers.ts measures; docs/vps.md quotes its figures).
 */
import { parseCommandLine, runCommand, UsageError } from '../cli/command-line';
import { benchWriters, WARM_UP_SECONDS } from '../vps/bench-writers';
import { DESIGNS } from '../vps/writer-designs';

const DEFAULTS = { duration: 5, rounds: 3 };
/** A run at the defaults: every design each round, warmed up, measured, and about a second to start. */
const DEFAULT_MINUTES = Math.round(
  (DEFAULTS.rounds * Object.keys(DESIGNS).length * (WARM_UP_SECONDS + DEFAULTS.duration + 1)) / 60,
);

const SPEC = {
  command: 'npm run bench:writers --',
  summary:
    'What each of four ways of sharing one durable log between two cores costs a vote with no app around it: ' +
    'one process, workers and a writer process, threads and a writer thread over shared memory, a log a worker.',
  options: {
    duration: {
      type: 'string',
      default: String(DEFAULTS.duration),
      value: '<seconds>',
      description: 'each measured run',
    },
    connections: {
      type: 'string',
      default: '100',
      value: '<n>',
      description: 'concurrent connections (bench:vps: 100)',
    },
    rounds: {
      type: 'string',
      default: String(DEFAULTS.rounds),
      value: '<n>',
      description: 'times every design runs, in turn',
    },
  },
  details: [
    `Designs: ${Object.entries(DESIGNS)
      .map(([name, what]) => `${name} (${what})`)
      .join('; ')}.`,
    "A vote is a POST whose log line is written and fdatasync'd before its 202 (the edition's journal where a " +
      'design has a Node process that writes), nothing else. Loopback only; each run is warmed up for ' +
      `${WARM_UP_SECONDS} s. At the ` +
      `defaults it loads every core for about ${DEFAULT_MINUTES} minutes: nothing else should run meanwhile.`,
  ],
} as const;

const { values } = parseCommandLine(SPEC);
const numbers = { duration: 0, connections: 0, rounds: 0 };
await runCommand(SPEC, () => {
  const limits = { duration: [1, 300], connections: [1, 1000], rounds: [1, 20] } as const;
  for (const name of Object.keys(limits) as Array<keyof typeof limits>) {
    const [low, high] = limits[name];
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < low || n > high)
      throw new UsageError(`--${name} must be a whole number from ${low} to ${high} (got ${values[name]}).`);
    numbers[name] = n;
  }
});

if (!(await benchWriters(numbers))) process.exitCode = 1;
