/**
 * The ways a box's cores can share durable votes, each at its smallest: a vote is a POST whose log line is
 * written and fdatasync'd (group commit) before its 202, and nothing else (no poll, no checks, no app). So
 * `npm run bench:writers` (./bench-writers.ts) measures what a design costs a vote before any app: the most
 * two cores can give this edition's votes, whichever design it picks. Run directly (the bench bundles it), it
 * serves one: `node writer-designs.mjs <design> <folder>`.
 */
import cluster, { type Worker as ClusterWorker } from 'node:cluster';
import { mkdirSync, realpathSync } from 'node:fs';
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, threadId, Worker, workerData } from 'node:worker_threads';
import { parseCommandLine, runCommand, UsageError } from '../cli/command-line';
import { POLL_LIMITS } from '../config/api-contract';
import { newId } from '../lambdas/domain/ids';
import type { VoteMessage } from '../lambdas/domain/vote';
import type { FlushMode } from './journal';
import { voteLine, voteRecord, type PollState } from './poll-state';
import { isRingSize, newRing, RING_BYTES, RingFull, ringSender, writeRings, type Ring } from './shared-ring';
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

/** Which server took a request: its process and thread (the test checks that votes reach more than one). */
const SERVED_BY = `${process.pid}/${threadId}`;

const answer = (response: ServerResponse, status: number, body: object) => {
  response.writeHead(status, { 'content-type': 'application/json', 'x-served-by': SERVED_BY });
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

/**
 * A vote's 202 once `send` says it is on disk; a body too large (413) or without an option (400), and a vote the
 * writer has no room for (503), are refused and write nothing.
 */
const voteServer =
  (send: Send): RequestListener =>
  (request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
      if (body.length <= POLL_LIMITS.maxBodyBytes) return;
      request.removeAllListeners('data').removeAllListeners('end').resume();
      answer(response, 413, { error: `A vote's body is at most ${POLL_LIMITS.maxBodyBytes} bytes.` });
    });
    request.on('end', () => {
      const option = optionOf(body);
      if (option === undefined) return answer(response, 400, { error: 'Send {"option": <a whole number>}.' });
      const vote = { v: 1, voteId: newId(), pollId: POLL, option, castAt: new Date().toISOString() } as const;
      send(vote).then(
        () => answer(response, 202, { accepted: true }),
        (error: unknown) =>
          error instanceof RingFull
            ? answer(response, 503, { error: error.message })
            : answer(response, 500, { error: 'The vote could not be written.' }),
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

/**
 * The edition's own store and journal (background: one process's flushes; inline: a writer's), never compacted: its
 * votes are for a poll it does not hold, so a compaction would empty the log (and cost what the threads' does not).
 */
const ownStore = async (folder: string, flushMode: FlushMode = 'background'): Promise<PollState> =>
  (await openStore({ dataDir: folder, flushMode, compactAtBytes: Number.POSITIVE_INFINITY })).state;

/** Forks the cluster's workers (`each` links one); resolves with their shared port once all listen. */
function forkAll(env: (i: number) => NodeJS.ProcessEnv, each: (worker: ClusterWorker) => void): Promise<number> {
  let listening = 0;
  return new Promise((resolve, reject) => {
    cluster.on('listening', (_, address) => ++listening === SERVERS && resolve(address.port));
    cluster.once('exit', (worker, code) => reject(new Error(`worker ${worker.process.pid} exited with ${code}`)));
    for (let i = 0; i < SERVERS; i++) each(cluster.fork(env(i)));
  });
}

/** The threads design: an HTTP thread a ring (./shared-ring.ts), and a writer thread that empties them. */
async function threads(folder: string, ringBytes: number): Promise<void> {
  mkdirSync(folder, { recursive: true });
  const doorbell = new SharedArrayBuffer(4);
  const rings = Array.from({ length: SERVERS }, () => newRing(ringBytes));
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
  say(port);
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
  const send = ringSender(data.ring, doorbell);
  const server = await listen((vote) => send(voteLine(voteRecord(vote, false))), data.fd);
  // The listening socket's fd: Node keeps it on the server's handle (not a public API; a benchmark's only).
  const handle = (server as unknown as { _handle: { fd: number } })._handle;
  parentPort?.postMessage({ fd: handle.fd, port: portOf(server) });
}

/** Serves `design`, its logs in `folder`; prints its URL once it listens (in a thread of it: that thread's part). */
export async function serveDesign(design: Design, folder: string, ringBytes = RING_BYTES): Promise<void> {
  if (!isMainThread) return threadRole();
  if (design === 'threads') return threads(folder, ringBytes);
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
  options: {
    'ring-bytes': {
      type: 'string',
      default: String(RING_BYTES),
      value: '<n>',
      description: "threads: each HTTP thread's ring, a power of two of at least 256 bytes",
    },
  },
  details: [`Designs: ${Object.keys(DESIGNS).join(', ')}. It prints its URL once it listens; Ctrl-C stops it.`],
} as const;

/** Run directly (the bundle the bench runs, and each of its threads and workers): one design, by its command line. */
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseCommandLine(SPEC);
  const [design = '', folder = ''] = positionals;
  const ringBytes = Number(values['ring-bytes']);
  await runCommand(SPEC, () => {
    if (!Object.hasOwn(DESIGNS, design))
      throw new UsageError(`<design> must be one of ${Object.keys(DESIGNS).join(', ')}.`);
    if (folder === '' || positionals.length !== 2) throw new UsageError('give a <design> and a <folder>.');
    if (!isRingSize(ringBytes))
      throw new UsageError(`--ring-bytes must be a power of two of at least 256 (got ${values['ring-bytes']}).`);
  });
  await serveDesign(design as Design, folder, ringBytes);
}
