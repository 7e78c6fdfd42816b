/**
 * `npm run bench:writers` (bin/bench-writers.ts runs it): each way two cores can share durable votes
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
import { mean } from './bench-summary';
import { DESIGNS, type Design } from './writer-designs';

export interface WritersBenchOptions {
  duration: number;
  connections: number;
  rounds: number;
}

const VOTE = { method: 'POST', body: '{"option":1}', headers: { 'content-type': 'application/json' } } as const;

/**
 * ./writer-designs.ts as one file in `folder`, as bench:vps measures the edition's bundle: a design's threads run
 * the file its process runs, and a thread does not inherit tsx's loader on Node 20.
 */
export async function bundleWriterDesigns(folder: string): Promise<string> {
  const script = join(folder, 'writer-designs.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./writer-designs.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: script,
    minify: true,
    logLevel: 'warning',
  });
  return script;
}

/** Lines in every log under a folder: what reached the disk. */
function loggedLines(folder: string): number {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.log') && statSync(join(folder, name)).isFile())
    .reduce((lines, name) => lines + readFileSync(join(folder, name), 'utf8').split('\n').length - 1, 0);
}

/** µs of the server's CPU a vote in each design, round by round; false if a 202 was not on disk or a run failed. */
export async function benchWriters({ duration, connections, rounds }: WritersBenchOptions): Promise<boolean> {
  const home = mkdtempSync(join(tmpdir(), 'writers-bench-'));
  const script = await bundleWriterDesigns(home);
  const designs = Object.keys(DESIGNS) as Design[];
  const micros = new Map<Design, number[]>(designs.map((design) => [design, []]));
  let ok = true;
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const design of designs) {
        const folder = mkdtempSync(join(home, `${design}-`));
        const server = await startServer(process.execPath, [script, design, folder]);
        const url = `${server.url}/vote`;
        try {
          // A fresh process runs code the JIT has not compiled yet: 2 s not recorded.
          const warmUp = await autocannon({ url, connections, duration: 2, ...VOTE });
          const before = cpuSeconds([server.child.pid!]);
          const result = await autocannon({ url, connections, duration, ...VOTE });
          const used = cpuSeconds([server.child.pid!]) - before;
          const perVote = Math.round((used * 1e7) / Math.max(1, result['2xx'])) / 10;
          micros.get(design)!.push(perVote);
          await stop(server.child);
          // A floor, not an audit: votes in flight at a run's end may be on disk unanswered, never the reverse.
          const missing = warmUp['2xx'] + result['2xx'] - loggedLines(folder);
          const failed = result.errors + result.timeouts + result.non2xx;
          if (missing > 0 || failed > 0) ok = false;
          console.log(
            `round ${round} ${design.padEnd(9)} ${Math.round(result.requests.average).toLocaleString('en-US')} ` +
              `votes/s, ${perVote.toFixed(1)} µs a vote` +
              (missing > 0 ? `, ${missing} acknowledged votes NOT on disk` : '') +
              (failed > 0 ? `, ${failed} errors or non-2xx answers` : ''),
          );
        } finally {
          await stop(server.child);
        }
      }
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  const one = mean(micros.get('one')!);
  console.log(`\nµs of the server's CPU a vote (mean of ${rounds}), and one process's ÷ the design's:`);
  for (const design of designs) {
    const each = mean(micros.get(design)!);
    console.log(
      `  ${design.padEnd(9)} ${each.toFixed(1).padStart(5)} µs  ${(one / each).toFixed(2)}  ${DESIGNS[design]}`,
    );
  }
  return ok;
}
