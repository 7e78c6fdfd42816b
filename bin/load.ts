/**
 * `npm run load`: an artillery scenario against a target, then a check that every vote that got a 202
 * was counted once (load-tests/run.ts; docs/load-tests.md).
 */
import { parseCommandLine, runCommand, UsageError } from '../node/command-line';
import { LOAD_TARGETS, type LoadTarget } from '../config/targets';
import { formatSummary, runLoadTest, scenarioNames } from '../load-tests/run';

const SPEC = {
  command: 'npm run load --',
  positionals: '<scenario>',
  summary: 'Runs an artillery scenario against a target, then checks that every vote that got a 202 was counted once.',
  options: {
    target: {
      type: 'string',
      value: LOAD_TARGETS.join('|'),
      description:
        'local and vps start their own app, localstack and aws read their outputs file ' +
        '(default: local; with --url, what answers there)',
    },
    url: {
      type: 'string',
      value: '<api url>',
      description:
        "where the app runs: npm start's or npm run vps's URL, or a deployed stack's API; " +
        'refused when another kind of server than --target answers there',
    },
    quiet: { type: 'boolean', default: false, description: 'print only the summary, no progress lines' },
    verbose: {
      type: 'boolean',
      default: false,
      description: "print artillery's own output instead of the progress lines (else kept in artillery.log)",
    },
  },
  details: [
    `Scenarios: ${scenarioNames().join(', ')} (load-tests/scenarios/).`,
    "While it runs, a line from each of artillery's reports (every 10 s): requests, answers, votes accepted.",
    'Results go to load-tests/results/<scenario>-<target>-<time>/; ' +
      'npm run cost -- --from <that folder> prices a local run.',
  ],
} as const;

const { values, positionals } = parseCommandLine(SPEC);
await runCommand(SPEC, async () => {
  if (positionals.length !== 1) throw new UsageError(`Name one scenario: ${scenarioNames().join(', ')}.`);
  if (values.quiet && values.verbose) throw new UsageError('--quiet and --verbose ask for opposites: give one.');
  const result = await runLoadTest({
    scenario: positionals[0],
    target: values.target as LoadTarget | undefined,
    url: values.url,
    output: values.quiet ? 'quiet' : values.verbose ? 'verbose' : 'progress',
  });
  console.log(`\n${formatSummary(result)}`);
  process.exit(result.ok ? 0 : 1);
});
