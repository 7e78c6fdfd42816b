/**
 * `npm run bench:writers`: each way two cores can share durable votes, at its smallest, under bench:vps's vote
 * load (vps/bench-writers.ts measures; docs/vps.md quotes its figures).
 */
import { parseCommandLine, runCommand, UsageError } from '../cli/command-line';
import { benchWriters } from '../vps/bench-writers';
import { DESIGNS } from '../vps/writer-designs';

/** A run at the defaults: 3 rounds of every design, 2 s of warm-up, 5 s measured and a second to start. */
const DEFAULT_MINUTES = Math.round((3 * Object.keys(DESIGNS).length * (2 + 5 + 1)) / 60);

const SPEC = {
  command: 'npm run bench:writers --',
  summary:
    'What each way of sharing one durable log between two cores costs a vote with no app around it: one process, ' +
    'workers and a writer process, threads and a writer thread over shared memory, a log a worker.',
  options: {
    duration: { type: 'string', default: '5', value: '<seconds>', description: 'each measured run' },
    connections: {
      type: 'string',
      default: '100',
      value: '<n>',
      description: 'concurrent connections (bench:vps: 100)',
    },
    rounds: { type: 'string', default: '3', value: '<n>', description: 'times every design runs, in turn' },
  },
  details: [
    `Designs: ${Object.entries(DESIGNS)
      .map(([name, what]) => `${name} (${what})`)
      .join('; ')}.`,
    "A vote is a POST whose log line is written and fdatasync'd before its 202 (the edition's journal where a " +
      'design has a Node process that writes), nothing else. Loopback only; each run is warmed up for 2 s. At the ' +
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
