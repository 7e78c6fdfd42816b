/**
 * `npm run bench:votes`: the vote path through the local runtime (HTTP -> FIFO -> consumer),
 * on loopback, bounded in count. Prints two figures:
 *  1. 1,000 votes over 3 polls from 50 concurrent voters: the rate accepted, and what AWS
 *     would bill for them (the metered usage difference).
 *  2. 300 votes on one poll from 10 voters while a viewer reads results every 25 ms: how long
 *     after its 202 the k-th accepted vote shows in the total (p50, p99).
 */
import { parseCommandLine } from '../../node/command-line';
import { benchClient } from '../api-client';

parseCommandLine({
  command: 'npm run bench:votes --',
  summary:
    'The vote path through the local runtime on loopback: votes accepted per second, what AWS would bill for them, ' +
    'and how long after its 202 a vote shows in the results.',
  options: {},
  details: [
    'It prints its figures, and a line every 5 s while it sends; nothing is asserted ' +
      '(these machines are shared: compare runs, not absolutes).',
  ],
});
// Loaded once the command line is read: the emulators take seconds, which --help need not wait.
const { startLocalRuntime } = await import('../../local/runtime');

const VOTES = 1000;
const VOTERS = 50;
const LATENCY_VOTES = 300;
const LATENCY_VOTERS = 10;

const runtime = await startLocalRuntime({ rateLimits: false });
const { post, createPoll, total } = benchClient(runtime.url);

const n = (count: number) => count.toLocaleString('en-US');

/** Sends `count` votes from `voters` concurrent clients, a line every 5 s; returns the 202 times (ms since start). */
async function vote(count: number, voters: number, pollFor: (i: number) => string, started: number): Promise<number[]> {
  const acceptedAt: number[] = [];
  let next = 0;
  const progress = setInterval(
    () => console.log(`  ${n(next)} of ${n(count)} sent, ${n(acceptedAt.length)} accepted`),
    5000,
  );
  await Promise.all(
    Array.from({ length: voters }, async () => {
      while (next < count) {
        const i = next++;
        const response = await post(`/api/poll/${pollFor(i)}/vote`, { option: i % 2 });
        if (response.status === 202) acceptedAt.push(performance.now() - started);
        await response.arrayBuffer();
      }
    }),
  ).finally(() => clearInterval(progress));
  return acceptedAt.sort((a, b) => a - b);
}

// 1. Throughput and billed usage.
console.log(`1. ${n(VOTES)} votes on 3 polls from ${VOTERS} voters, then the queue drained`);
const polls = await Promise.all([0, 1, 2].map((i) => createPoll(`P${i}`)));
const before = runtime.usage();
const t0 = performance.now();
const accepted = (await vote(VOTES, VOTERS, (i) => polls[i % 3], t0)).length;
const acceptSeconds = (performance.now() - t0) / 1000;
await runtime.waitForDrain(60_000);
const drainedMs = performance.now() - t0;
const after = runtime.usage();
const table = Object.keys(after.tables)[0];
const queue = Object.keys(after.queues).find((name) => name.includes('VoteQueue'))!;
const diff = (a: number | undefined, b: number | undefined) => (a ?? 0) - (b ?? 0);
console.log({
  accepted,
  votesPerSecAccepted: Math.round(accepted / acceptSeconds),
  drainedMs: Math.round(drainedMs),
  results: await Promise.all(polls.map(total)),
  updateItems: diff(after.tables[table].requests.UpdateItem, before.tables[table]?.requests.UpdateItem),
  writeUnits: diff(after.tables[table].writeUnits, before.tables[table]?.writeUnits),
  readUnits: diff(after.tables[table].readUnits, before.tables[table]?.readUnits),
  consumerInvocations: diff(after.functions.CountVotes.invocations, before.functions.CountVotes?.invocations),
  sqsBilledRequests: diff(after.queues[queue].billedRequests, before.queues[queue]?.billedRequests),
});

// 2. From 202 to visible: the counts as they are (no-cache), read until every accepted vote shows or 30 s pass.
console.log(`2. ${n(LATENCY_VOTES)} votes on one poll from ${LATENCY_VOTERS} voters, its results read every 25 ms`);
const hot = await createPoll('latency');
const samples: Array<{ at: number; total: number }> = [];
const t1 = performance.now();
let accepted202 = Number.POSITIVE_INFINITY;
const sampler = (async () => {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    samples.push({ at: performance.now() - t1, total: await total(hot) });
    if (samples[samples.length - 1].total >= accepted202) return;
    await new Promise((r) => setTimeout(r, 25));
  }
})();
const acceptedAt = await vote(LATENCY_VOTES, LATENCY_VOTERS, () => hot, t1);
accepted202 = acceptedAt.length;
await sampler;
// The k-th accepted vote is visible once the total reaches k (votes of one poll are counted in order per group).
const lags = acceptedAt
  .map((at, k) => samples.find((s) => s.total >= k + 1 && s.at >= at)?.at)
  .map((seenAt, k) => (seenAt === undefined ? undefined : seenAt - acceptedAt[k]))
  .filter((lag): lag is number => lag !== undefined)
  .sort((a, b) => a - b);
if (lags.length === 0) console.log(`none of ${n(acceptedAt.length)} accepted votes showed in the results within 60 s`);
else {
  const percentile = (p: number) => Math.round(lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))]);
  console.log({
    latencyVotes: acceptedAt.length,
    ...(lags.length < acceptedAt.length && { notSeenWithin60s: acceptedAt.length - lags.length }),
    visibleAfter202Ms: { p50: percentile(50), p99: percentile(99), max: Math.round(lags[lags.length - 1]) },
  });
}
await runtime.stop();
