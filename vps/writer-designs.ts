/**
 * The ways a box's cores can share durable votes, each at its smallest: a vote is a POST whose log line is
 * written and fdatasync'd (group commit) before its 202, and nothing else (no poll, no checks, no app). So
 * `npm run bench:writers` (./bench-writers.ts) measures what a design costs a vote before any app: the most
 * two cores can give this edition's votes, whichever design it picks. Run directly (the bench bundles it), it
 * serves one: `node writer-designs.mjs <design> <folder>`.
 */
import cluster, { type Worker as ClusterWorker } from 'node:cluster';
import { fdatasyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { parseCommandLine, runCommand, UsageError } from '../cli/command-line';
import { newId } from '../lambdas/domain/ids';
import type { VoteMessage } from '../lambdas/domain/vote';
import type { FlushMode } from './journal';
import { voteLine, voteRecord, type PollState } from './poll-state';
import { answerCalls, linkTo, linkToPrimary, remotePorts, WORKER_STDIO } from './state-channel';
import { openStore } from './store';

export const DESIGNS = {
  one: 'one process, its flushes on libuv threads (--workers 1)',
  writer: 'two node:cluster workers and a primary that writes, a socket pair each (--workers 2)',
  threads: 'two HTTP threads on one listening socket and a writer thread, a shared-memory ring each',
  'own-logs': 'two node:cluster workers, each with a log of its own: nothing shared, nothing checked',
} as const;
export type Design = keyof typeof DESIGNS;

/** Two HTTP servers where the design has more than one: the bench's box has two cores. */
const SERVERS = 2;
const POLL = newId();

/** Where a design sends a vote: resolves once it is on disk. */
type Send = (vote: VoteMessage) => Promise<void>;

const answer = (response: ServerResponse, status: number, body: object) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/** The option a vote's body names, if it is one: `{"option": <whole number>}`. */
function optionOf(body: string): number | undefined {
  try {
    const option: unknown = (JSON.parse(body) as { option?: unknown } | null)?.option;
    return Number.isInteger(option) ? (option as number) : undefined;
  } catch {
    return undefined;
  }
}

/** A vote's 202 once `send` says it is on disk; a body without an option, a 400 (and nothing written). */
const voteServer =
  (send: Send): RequestListener =>
  (request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const option = optionOf(body);
      if (option === undefined) return answer(response, 400, { error: 'Send {"option": <a whole number>}.' });
      const vote = { v: 1, voteId: newId(), pollId: POLL, option, castAt: new Date().toISOString() } as const;
      send(vote).then(
        () => answer(response, 202, { accepted: true }),
        () => answer(response, 500, { error: 'The vote could not be written.' }),
      );
    });
  };

/** Listens on a free port (node:cluster's workers share the primary's); `fd`: on a listening socket of this process. */
function listen(send: Send, fd?: number): Promise<Server> {
  const server = createServer(voteServer(send));
  return new Promise((resolve) => {
    if (fd === undefined) server.listen(0, '127.0.0.1', () => resolve(server));
    else server.listen({ fd }, () => resolve(server));
  });
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;
const say = (port: number) => console.log(`listening on http://127.0.0.1:${port}`);

/** The edition's own store and journal (background: one process's flushes; inline: a writer's). */
const ownStore = async (folder: string, flushMode: FlushMode = 'background'): Promise<PollState> =>
  (await openStore({ dataDir: folder, flushMode })).state;

/** Forks the cluster's workers (`each` links one); resolves with their shared port once all listen. */
function forkAll(env: (i: number) => NodeJS.ProcessEnv, each: (worker: ClusterWorker) => void): Promise<number> {
  let listening = 0;
  return new Promise((resolve) => {
    cluster.on('listening', (_, address) => ++listening === SERVERS && resolve(address.port));
    for (let i = 0; i < SERVERS; i++) each(cluster.fork(env(i)));
  });
}

/**
 * threads: a ring a thread in shared memory, its control [bytes written, bytes the writer took, bytes on disk].
 * A client has one vote in flight, so a ring holds far more than is ever waiting; a run writes far less than 2 GB.
 */
const RING_BYTES = 1 << 20;
interface Ring {
  control: SharedArrayBuffer;
  bytes: SharedArrayBuffer;
}

/** The writer thread: takes what every ring holds, writes it, fdatasyncs, tells each ring how far it is on disk. */
function writeRings(rings: Ring[], doorbell: Int32Array, path: string): never {
  const fd = openSync(path, 'a');
  const views = rings.map((ring) => ({ control: new Int32Array(ring.control), bytes: new Uint8Array(ring.bytes) }));
  for (;;) {
    const parts: Uint8Array[] = [];
    const heads = views.map(({ control, bytes }) => {
      const head = Atomics.load(control, 0);
      const [from, to] = [control[1] % RING_BYTES, head % RING_BYTES];
      if (head !== control[1])
        parts.push(...(from < to ? [bytes.subarray(from, to)] : [bytes.subarray(from), bytes.subarray(0, to)]));
      return head;
    });
    if (parts.length === 0) {
      Atomics.store(doorbell, 0, 0);
      Atomics.wait(doorbell, 0, 0, 50);
      continue;
    }
    const data = Buffer.concat(parts);
    for (let written = 0; written < data.length; ) written += writeSync(fd, data, written);
    fdatasyncSync(fd);
    views.forEach(({ control }, i) => {
      control[1] = heads[i];
      Atomics.store(control, 2, heads[i]);
      Atomics.notify(control, 2);
    });
  }
}

/** An HTTP thread's send: the line into its ring, the writer woken if it sleeps, the 202 once the ring is on disk. */
function ringSender(ring: Ring, doorbell: Int32Array): Send {
  const [control, bytes] = [new Int32Array(ring.control), new Uint8Array(ring.bytes)];
  const encoder = new TextEncoder();
  const waiting: Array<{ end: number; resolve: () => void }> = [];
  let [head, watching, ringing] = [0, false, false];
  const watch = () => {
    watching = true;
    const settle = () => {
      const onDisk = Atomics.load(control, 2);
      let done = 0;
      while (done < waiting.length && waiting[done].end <= onDisk) waiting[done++].resolve();
      waiting.splice(0, done);
      if (waiting.length > 0) watch();
      else watching = false;
    };
    const wait = Atomics.waitAsync(control, 2, Atomics.load(control, 2));
    if (wait.async) void wait.value.then(settle);
    else settle();
  };
  return (vote) =>
    new Promise((resolve) => {
      const encoded = encoder.encode(`${voteLine(voteRecord(vote, false))}\n`);
      const at = head % RING_BYTES;
      const fits = Math.min(encoded.length, RING_BYTES - at);
      bytes.set(encoded.subarray(0, fits), at);
      bytes.set(encoded.subarray(fits), 0);
      head += encoded.length;
      Atomics.store(control, 0, head);
      waiting.push({ end: head, resolve });
      if (!ringing) {
        ringing = true;
        setImmediate(() => {
          ringing = false;
          if (Atomics.compareExchange(doorbell, 0, 0, 1) === 0) Atomics.notify(doorbell, 0);
        });
      }
      if (!watching) watch();
    });
}

async function threads(folder: string): Promise<void> {
  mkdirSync(folder, { recursive: true });
  const doorbell = new SharedArrayBuffer(4);
  const rings: Ring[] = Array.from({ length: SERVERS }, () => ({
    control: new SharedArrayBuffer(12),
    bytes: new SharedArrayBuffer(RING_BYTES),
  }));
  // Each thread runs this file as the process does (the bundle), which gives it its part.
  const thread = (data: object) => new Worker(process.argv[1], { workerData: data, argv: process.argv.slice(2) });
  thread({ role: 'writer', rings, doorbell, path: join(folder, 'polls.log') });
  // Node 20 has no reusePort: the first thread's listening socket, by its fd, is every other thread's too.
  const first = thread({ role: 'http', ring: rings[0], doorbell });
  const { fd, port } = await new Promise<{ fd: number; port: number }>((resolve) => first.once('message', resolve));
  await Promise.all(
    rings
      .slice(1)
      .map((ring) => new Promise((resolve) => thread({ role: 'http', ring, doorbell, fd }).once('message', resolve))),
  );
  console.log(`listening on http://127.0.0.1:${port}`);
}

async function threadRole(): Promise<void> {
  const data = workerData as {
    role: string;
    rings: Ring[];
    ring: Ring;
    doorbell: SharedArrayBuffer;
    path: string;
    fd?: number;
  };
  const doorbell = new Int32Array(data.doorbell);
  if (data.role === 'writer') writeRings(data.rings, doorbell, data.path);
  const server = await listen(ringSender(data.ring, doorbell), data.fd);
  // The listening socket's fd: Node keeps it on the server's handle (not a public API; a benchmark's only).
  const handle = (server as unknown as { _handle: { fd: number } })._handle;
  parentPort?.postMessage({ fd: handle.fd, port: (server.address() as { port: number }).port });
}

/** Serves `design`, its logs in `folder`; prints its URL once it listens (in a thread of it: that thread's part). */
export async function serveDesign(design: Design, folder: string): Promise<void> {
  if (!isMainThread) return threadRole();
  if (design === 'threads') return threads(folder);
  if (design === 'one') {
    const state = await ownStore(folder);
    return say(portOf(await listen((vote) => state.send(vote))));
  }
  if (cluster.isWorker) {
    const state = design === 'own-logs' ? await ownStore(process.env.OWN_LOG ?? '') : undefined;
    await listen(state ? (vote) => state.send(vote) : remotePorts(linkToPrimary(), false).polls.send);
    return;
  }
  const writer = design === 'writer' ? await ownStore(folder, 'inline') : undefined;
  cluster.setupPrimary({ stdio: [...WORKER_STDIO] });
  const port = await forkAll(
    (i) => ({ OWN_LOG: join(folder, `worker-${i}`) }),
    (worker) => writer && answerCalls(linkTo(worker.process), { polls: writer, limits: {} }),
  );
  say(port);
}

const SPEC = {
  command: 'node writer-designs.mjs',
  positionals: '<design> <folder>',
  summary: 'Serves POST /vote the way <design> shares one durable log between cores, its logs in <folder>.',
  options: {},
  details: [`Designs: ${Object.keys(DESIGNS).join(', ')}. It prints its URL once it listens; Ctrl-C stops it.`],
} as const;

/** Run directly, as npm run bench:writers runs it: one design, by its command line. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { positionals } = parseCommandLine(SPEC);
  const [design = '', folder = ''] = positionals;
  await runCommand(SPEC, () => {
    if (!(design in DESIGNS)) throw new UsageError(`<design> must be one of ${Object.keys(DESIGNS).join(', ')}.`);
    if (folder === '' || positionals.length !== 2) throw new UsageError('give a <design> and a <folder>.');
  });
  await serveDesign(design as Design, folder);
}
