/**
 * The VPS edition on every core (`npm run vps -- --workers <n>`): a primary process, the box's writer,
 * owns the log and the state, as the one process does; n workers (node:cluster, the port shared) serve
 * HTTP with the same handlers and reach that state over a socket pair each (./state-channel.ts). A
 * worker that dies is replaced at once; if the primary dies, the workers exit, and the box's
 * supervisor (systemd, Docker) restarts it.
 */
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { STOP_SIGNALS } from '../node/server-shell';
import {
  localLimits,
  openVpsStore,
  serveVps,
  STOP_GRACE_MS,
  type HttpOptions,
  type HttpSide,
  type VpsOptions,
  type VpsServer,
} from './server';
import { answerCalls, linkTo, linkToPrimary, remotePorts, WORKER_STDIO, type WriterPorts } from './state-channel';

/** What a worker tells the primary, besides its calls. */
type WorkerNews = { started: string } | { failed: string };

/** What the primary tells a worker, besides its answers. */
const STOP = { stop: true };

/** A worker that has not finished its requests this long after the stop's own grace is killed. */
const KILL_AFTER_MS = STOP_GRACE_MS + 5_000;

export interface VpsCluster extends VpsServer {
  /** The live workers' process ids. */
  workerPids(): number[];
}

/** What the primary reports as it runs: a worker died and was replaced. */
export type ClusterLog = (line: string) => void;

/** A forked worker and its start: its URL once it listens, or why it could not. */
function forkWorker(ports: WriterPorts, report: ClusterLog): { worker: Worker; started: Promise<string> } {
  const worker = cluster.fork();
  answerCalls(linkTo(worker.process), ports);
  // A reply to a worker that died is dropped where it is sent; this hears anything else the channel says.
  worker.on('error', (error) => report(`worker ${worker.process.pid}: ${error.message}`));
  const started = new Promise<string>((resolve, reject) => {
    worker.on('message', (news: unknown) => {
      if (typeof news !== 'object' || news === null) return;
      if ('started' in news) resolve(String(news.started));
      if ('failed' in news) reject(new Error(String(news.failed)));
    });
    worker.once('exit', (code) => reject(new Error(`a worker exited with ${code} as it started`)));
  });
  started.catch(() => undefined);
  return { worker, started };
}

/** Tells a worker to stop once it listens (it hears nothing before), and waits for it to exit. */
async function stopWorker(worker: Worker, started: Promise<string>): Promise<void> {
  const exited = once(worker, 'exit');
  const kill = setTimeout(() => worker.kill('SIGKILL'), KILL_AFTER_MS);
  if (
    await started.then(
      () => true,
      () => false,
    )
  )
    worker.send(STOP, undefined, undefined, () => undefined);
  await exited;
  clearTimeout(kill);
}

/** In the primary: the store, then `workers` workers, each answered from it; resolves once all listen. */
export async function startVpsCluster(
  options: Omit<VpsOptions, 'site'> & { workers: number },
  report: ClusterLog = console.warn,
): Promise<VpsCluster> {
  // The writer serves no HTTP: it waits for the disk on its own thread (journal.ts says why).
  const store = await openVpsStore(options, { error: (message, error) => report(`${message}: ${error}`) }, 'inline');
  // Each worker's end of its socket pair to the state (./state-channel.ts), beside node:cluster's IPC.
  cluster.setupPrimary({ stdio: [...WORKER_STDIO] });
  const ports = { polls: store.state, limits: localLimits(options.rateLimits) };
  const live = new Map<Worker, Promise<string>>();
  /** Workers that die after they started are replaced, until the stop; one that could not start is not. */
  let replacing = false;
  const fork = () => {
    const { worker, started } = forkWorker(ports, report);
    live.set(worker, started);
    worker.once('exit', (code, signal) => {
      live.delete(worker);
      if (!replacing) return;
      started.then(
        () => {
          const replacement = fork();
          report(`worker ${worker.process.pid} died (${signal ?? `exit ${code}`}); replaced by ${replacement.pid}`);
        },
        (error: Error) => report(`a replacement worker could not start (${error.message}); running with fewer`),
      );
    });
    return { pid: worker.process.pid, started };
  };
  const stop = async () => {
    replacing = false;
    await Promise.all([...live].map(([worker, started]) => stopWorker(worker, started)));
    await store.close();
  };

  try {
    const urls = await Promise.all(Array.from({ length: options.workers }, () => fork().started));
    replacing = true;
    return { url: urls[0], store, stop, workerPids: () => [...live.keys()].flatMap((w) => w.process.pid ?? []) };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * In a worker: serves HTTP from the primary's state until the primary says stop (then lets the
 * requests under way finish and exits 0) or goes away (then nothing more can be written: exit 1).
 */
export async function runVpsWorker(options: HttpOptions & { rateLimits: boolean }): Promise<void> {
  const primary = process as Required<Pick<NodeJS.Process, 'send'>> & NodeJS.Process;
  // Ctrl-C, systemctl stop and a closed terminal signal the whole group: the primary says when a worker stops.
  for (const signal of STOP_SIGNALS) process.on(signal, () => undefined);
  const link = linkToPrimary();
  const ports = remotePorts(link, options.rateLimits);
  const lost = () => {
    ports.fail(new Error('the process that owns the log is gone'));
    console.error(`[vps] worker ${process.pid}: the process that owns the log is gone; nothing can be written.`);
    process.exit(1);
  };
  process.on('disconnect', lost);
  link.on('error', lost);
  link.on('close', lost);
  let http: HttpSide | undefined;
  process.on('message', async (message) => {
    if (typeof message !== 'object' || message === null || !('stop' in message)) return;
    await http?.stop();
    await ports.idle();
    process.exit(0);
  });
  try {
    // Results up to their max-age from this worker's memory, as a Lambda function keeps them: no call a read.
    http = await serveVps({ ...options, keepCounts: true }, ports);
  } catch (error) {
    // The primary stops the box (a port taken is taken for every worker).
    primary.send({ failed: (error as Error).message } satisfies WorkerNews, () => process.exit(1));
    return;
  }
  primary.send({ started: http.url } satisfies WorkerNews);
}
