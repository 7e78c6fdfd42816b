/**
 * `npm run bench:votes`: 1,000 votes over 3 polls through the local runtime (HTTP -> FIFO ->
 * consumer), 50 concurrent voters on loopback; prints what AWS would bill for them.
 */
import { startLocalRuntime } from './runtime';
const rt = await startLocalRuntime({});
const post = (p: string, b: unknown) => fetch(rt.url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
const polls = await Promise.all([0, 1, 2].map(async (i) => (await (await post('/api/poll', { title: `P${i}`, options: ['a', 'b'] })).json()).id));
const before = rt.usage();
let next = 0; const t0 = performance.now(); let ok = 0;
await Promise.all(Array.from({ length: 50 }, async () => { while (next < 1000) { const i = next++; const r = await post(`/api/poll/${polls[i % 3]}/vote`, { option: i % 2 }); if (r.status === 202) ok++; await r.arrayBuffer(); } }));
const accepted = performance.now() - t0;
await rt.waitForDrain(60000);
const drained = performance.now() - t0;
const after = rt.usage();
const t = Object.keys(after.tables)[0]; const q = Object.keys(after.queues).find((n) => n.includes('VoteQueue'))!;
const results = await Promise.all(polls.map(async (id) => (await (await fetch(`${rt.url}/api/poll/${id}/results`)).json()).total));
console.log({ accepted: ok, votesPerSecAccepted: Math.round(ok / (accepted / 1000)), drainedMs: Math.round(drained), results,
  updateItems: after.tables[t].requests.UpdateItem - (before.tables[t]?.requests.UpdateItem ?? 0),
  writeUnits: after.tables[t].writeUnits - before.tables[t].writeUnits,
  readUnits: after.tables[t].readUnits - before.tables[t].readUnits,
  consumerInvocations: after.functions.CountVotes.invocations - before.functions.CountVotes.invocations,
  sqsRequests: after.queues[q].requests, sqsBilled: after.queues[q].billedRequests - (before.queues[q]?.billedRequests ?? 0) });
await rt.stop();
