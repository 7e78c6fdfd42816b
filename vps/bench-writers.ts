/**
 * `npm run bench:writers` (bin/bench-writers.ts runs it): four ways two cores can share durable votes
 * (./writer-designs.ts), at its smallest, under the same autocannon load as `npm run bench:vps`'s votes, in
 * rounds so drift hits every design alike. Prints the server's CPU a vote (its processes' and threads' time
 * from /proc) and each design's efficiency: one process's µs a vote ÷ its own. The edition's two workers can
 * do no better than their design does here, with no app around it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { cpuSeconds, startServer, stop } from './bench-processes';
import { mean, tenths } from './bench-summary';
import { NODE_BUNDLE } from './bundle';
import { DESIGNS, type Design } from './writer-designs';

export interface WritersBenchOptions {
  duration: number;
  connections: number;
  rounds: number;
}

/** Seconds each run is warmed up, not recorded: a fresh process runs code the JIT has not compiled yet. */
export const WARM_UP_SECONDS = 2;

const VOTE = { method: 'POST', body: '{"option":1}', headers: { 'content-type': 'application/json' } } as const;

/**
 * ./writer-designs.ts as one file in `folder`, as bench:vps measures the edition's bundle: a design's threads run
 * the file its process runs, and a thread does not inherit tsx's loader on Node 20.
 */
export async function bundleWriterDesigns(folder: string): Promise<string> {
  const script = join(folder, 'writer-designs.mjs');
  await build({
    ...NODE_BUNDLE,
    entryPoints: [fileURLToPath(new URL('./writer-designs.ts', import.meta.url))],
    outfile: script,
  });
  return script;
}

/** Lines in every log under a folder: what reached the disk. */
function loggedLines(folder: string): number {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.log') && statSync(join(folder, name)).isFile())
    .reduce((lines, name) => lines + readFileSync(join(folder, name), 'utf8').split('\n').length - 1, 0);
}

/** One design's run: its µs a vote, and what went wrong (nothing: empty). */
async function runDesign(
  script: string,
  design: Design,
  folder: string,
  { duration, connections }: WritersBenchOptions,
): Promise<{ micros: number; votesPerSecond: number; problems: string[] }> {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer(process.execPath, [script, design, folder]);
    const url = `${server.url}/vote`;
    const warmUp = await autocannon({ url, connections, duration: WARM_UP_SECONDS, ...VOTE });
    const before = cpuSeconds([server.child.pid!]);
    const result = await autocannon({ url, connections, duration, ...VOTE });
    const micros = tenths(((cpuSeconds([server.child.pid!]) - before) * 1e6) / Math.max(1, result['2xx']));
    await stop(server.child); // before its logs are counted: nothing is written after
    // Votes in flight at a run's end may be on disk unanswered (at most one a connection), never the reverse.
    const [acknowledged, logged] = [warmUp['2xx'] + result['2xx'], loggedLines(folder)];
    // autocannon counts a timeout among its errors too.
    const failed = warmUp.errors + warmUp.non2xx + result.errors + result.non2xx;
    const problems = [
      ...(logged < acknowledged ? [`${acknowledged - logged} acknowledged votes NOT on disk`] : []),
      ...(logged > acknowledged + 2 * connections ? [`${logged - acknowledged} more lines than votes`] : []),
      ...(failed > 0 ? [`${failed} errors or non-2xx answers`] : []),
    ];
    return { micros, votesPerSecond: Math.round(result.requests.average), problems };
  } finally {
    if (server) await stop(server.child);
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * µs of the server's CPU a vote in each design, round by round (the order turned by one each round, so no design
 * always follows the same one); false if a run went wrong (a vote acknowledged but not on disk, errors).
 */
export async function benchWriters(options: WritersBenchOptions): Promise<boolean> {
  const home = mkdtempSync(join(tmpdir(), 'writers-bench-'));
  const designs = Object.keys(DESIGNS) as Design[];
  const micros = new Map<Design, number[]>(designs.map((design) => [design, []]));
  let ok = true;
  try {
    const script = await bundleWriterDesigns(home);
    for (let round = 1; round <= options.rounds; round++) {
      const turn = (round - 1) % designs.length;
      for (const design of [...designs.slice(turn), ...designs.slice(0, turn)]) {
        const run = await runDesign(script, design, mkdtempSync(join(home, `${design}-`)), options);
        micros.get(design)!.push(run.micros);
        ok &&= run.problems.length === 0;
        console.log(
          `round ${round} ${design.padEnd(9)} ${run.votesPerSecond.toLocaleString('en-US')} votes/s, ` +
            [`${run.micros.toFixed(1)} µs a vote`, ...run.problems].join(', '),
        );
      }
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  const one = mean(micros.get('one')!);
  console.log(`\nµs of the server's CPU a vote (mean of ${options.rounds}), and one process's ÷ the design's:`);
  for (const design of designs) {
    const each = mean(micros.get(design)!);
    console.log(
      `  ${design.padEnd(9)} ${each.toFixed(1).padStart(5)} µs  ${(one / each).toFixed(2)}  ${DESIGNS[design]}`,
    );
  }
  return ok;
}
