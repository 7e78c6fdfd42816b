import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The slow tier's longest files (measured: 40-65 s each on a fresh clone), started first. Without a cache
 * of past durations (a fresh clone, CI) vitest starts the largest files first, and a long one started
 * last runs on alone while the other workers idle: four minutes became five.
 */
const LONGEST_FIRST = [
  'test/integration/dead-letters',
  'test/browser/frontend',
  'test/local/exactly-once',
  'test/local/dead-letter-campaigns',
  'test/commands/help',
  'test/load/load-tests',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((path) => file.moduleId.includes(path));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // Stable within each project, as the base sequencer ordered them (projects one after the other).
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) =>
        a.file.project.name !== b.file.project.name
          ? a.order - b.order
          : rank(a.file) - rank(b.file) || a.order - b.order,
      )
      .map(({ file }) => file);
  }
}

/**
 * Files of the fast tier's folders that start a process or open a port: slow, whatever their folder (the fast
 * tier's guard, test/support/no-processes.ts, fails a test that does either).
 */
const SPAWNS = [
  'test/architecture/bench.test.ts',
  'test/architecture/entry-points.test.ts',
  'test/architecture/line-width.test.ts',
  'test/architecture/test-tiers.test.ts',
  'test/unit/node/aws-credentials.test.ts',
  'test/unit/cost/cli.test.ts',
  'test/unit/node/server-shell.test.ts',
  'test/localstack/localstack.test.ts',
];
/** Files of the slow tier's folders that only compute: fast. */
const PURE = ['test/vps/poll-state.test.ts', 'test/vps/journal.test.ts'];

/**
 * Two tiers. `fast` (npm run test:fast): the domain, the handlers with in-memory ports, the
 * templates and the cost model, in seconds. `slow`: the same code against emulated AWS over
 * HTTP and the SDK, the browser, the load tests and the VPS edition. `npm test` runs both.
 */
export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    // Most slow tests wait (redeliveries, retries, a browser): three files at once keep the 2 cores
    // busy; four overload them (functions then miss their own timeouts). The fast tier only
    // computes, so npm run test:fast runs it with two.
    maxWorkers: 3,
    // The SDK's notice that its 2027 releases need Node 22, once a process: CI runs on Node 20 on purpose.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      {
        test: {
          name: 'fast',
          include: ['test/{unit,handlers,stack,architecture,localstack}/**/*.test.ts', ...PURE],
          exclude: SPAWNS,
          setupFiles: ['test/support/no-processes.ts'],
          // Time limits catch a hang, never a pace: a synth or a property test that takes seconds alone takes a
          // minute when the cores are shared, and must still pass.
          testTimeout: 120_000,
          // These files share no state but the modules they load: a worker keeps aws-cdk-lib and
          // the synthesized templates loaded from one file to the next instead of loading them again.
          isolate: false,
        },
      },
      {
        test: {
          name: 'slow',
          include: ['test/{integration,local,editions,load,browser,vps,commands}/**/*.test.ts', ...SPAWNS],
          exclude: PURE,
          // They start emulators, browsers and servers: give them room on shared cores (a hang, not a pace).
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
