/**
 * The VPS edition on every core (`npm run vps -- --workers <n>`): a primary process owns the log and
 * the state, as the one process does; n workers (node:cluster, the port shared) serve HTTP with the
 * same handlers and reach that state over IPC (./state-channel.ts). A worker that dies is replaced at
 * once; if the primary dies, the workers exit, and the box's supervisor (systemd, Docker) restarts it.
 */
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { openStore } from './store';
import { localLimits, serveVps, type HttpOptions, type HttpSide, type VpsOptions, type VpsServer } from './server';
import { answerCalls, remotePorts } from './state-channel';

/** What a worker tells the primary, besides its calls. */
type WorkerNews = { started: string } | { failed: string };

/** What the primary tells a worker, besides its answers. */
const STOP = { stop: true };

/** How long a stop waits for a worker to finish its requests before it is killed. */
const STOP_GRACE_MS = 10_000;

export interface VpsCluster extends VpsServer {
  /** The live workers' process ids. */
  workerPids(): number[];
}

/** What the primary reports as it runs: a worker died and was replaced. */
export type ClusterLog = (line: string) => void;

/** In the primary: the store, then `workers` workers, each answered from it; resolves once all listen. */
export async function startVpsCluster(
  options: Omit<VpsOptions, 'site'> & { workers: number },
  report: ClusterLog = console.warn,
): Promise<VpsCluster> {
  const store = await openStore({ dataDir: options.dataDir, compactAtBytes: options.compactAtBytes });
  const ports = { polls: store.state, limits: localLimits(options.rateLimits) };
  /** Workers are replaced once all have started, until the stop. */
  let replacing = false;

  /** Each worker's start: its URL once it listens, or why it could not. */
  const starts = new Map<Worker, Promise<string>>();
  const fork = (): Worker => {
    const worker = cluster.fork();
    answerCalls(worker, ports);
    const start = new Promise<string>((resolve, reject) => {
      worker.on('message', (news: WorkerNews) => {
        if ('started' in news) resolve(news.started);
        if ('failed' in news) reject(new Error(news.failed));
      });
      worker.once('exit', (code) => reject(new Error(`a worker exited with ${code} as it started`)));
    });
    start.catch(() => undefined);
    starts.set(worker, start);
    worker.once('exit', () => starts.delete(worker));
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    if (!replacing) return;
    const replacement = fork();
    report(`worker ${worker.process.pid} died (${signal ?? `exit ${code}`}); replaced by ${replacement.process.pid}`);
  });

  const stop = async () => {
    replacing = false;
    await Promise.all(
      [...starts].map(async ([worker, start]) => {
        const exited = once(worker, 'exit');
        const kill = setTimeout(() => worker.kill('SIGKILL'), STOP_GRACE_MS);
        // A worker hears nothing before it listens for it: one still starting is told once it has started.
        if (
          await start.then(
            () => true,
            () => false,
          )
        )
          worker.send(STOP);
        await exited;
        clearTimeout(kill);
      }),
    );
    await store.close();
  };

  try {
    const urls = await Promise.all(Array.from({ length: options.workers }, () => starts.get(fork())!));
    replacing = true;
    return {
      url: urls[0],
      store,
      stop,
      workerPids: () => Object.values(cluster.workers ?? {}).flatMap((w) => (w?.process.pid ? [w.process.pid] : [])),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * In a worker: serves HTTP from the primary's state until the primary says stop (then finishes the
 * calls still out and exits 0) or goes away (then nothing more can be written: exit 1).
 */
export async function runVpsWorker(options: HttpOptions & { rateLimits: boolean }): Promise<void> {
  const primary = process as Required<Pick<NodeJS.Process, 'send'>> & NodeJS.Process;
  // Ctrl-C and systemctl stop signal the whole group: the primary decides when a worker stops.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);
  const ports = remotePorts(primary, options.rateLimits);
  process.on('disconnect', () => {
    ports.fail(new Error('the process that owns the log is gone'));
    process.exit(1);
  });
  let http: HttpSide | undefined;
  process.on('message', async (message) => {
    if (typeof message !== 'object' || message === null || !('stop' in message)) return;
    await http?.stop();
    await ports.idle();
    process.exit(0);
  });
  try {
    http = await serveVps(options, ports);
  } catch (error) {
    // The primary stops the box (a port taken is taken for every worker).
    primary.send({ failed: (error as Error).message } satisfies WorkerNews, () => process.exit(1));
    return;
  }
  primary.send({ started: http.url } satisfies WorkerNews);
}
