/**
 * The shell both servers run in, the local runtime (`npm start`) and the VPS edition
 * (`npm run vps`): listening, with one line when the port is taken (and exit 1 from the command);
 * closing without waiting for idle connections; and a graceful stop on Ctrl-C or SIGTERM.
 */
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on host:port (0 picks a free port); a taken port is an error that says how to choose another. */
export function listen(
  port: number,
  host: string,
  handler: RequestListener,
  options: ServerOptions = {},
): Promise<Server> {
  const server = createServer(options, handler);
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} is already in use: choose another with --port <n>.`, { cause: error })
          : error,
      ),
    );
    server.listen(port, host, () => resolve(server));
  });
}

/** Where a listening server answers, e.g. `http://127.0.0.1:3000` (an IPv6 address in brackets). */
export function originOf(server: Server): string {
  const { address, family, port } = server.address() as AddressInfo;
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
}

/** A browser may hold connections it never sent a request on (preconnect); close() alone waits for them for 60 s. */
export function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  return closed;
}

/**
 * Stops taking connections and lets the requests under way finish, so that no handler is cut between
 * two of its writes; idle connections close at once, and whatever still runs after `graceMs` is cut.
 */
export function drainServer(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  return closed.finally(() => clearTimeout(cut));
}

/** Starts a server; when it cannot (its port is taken), says why in one line and exits 1. */
export async function startOrExit<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

/** What stopOnSignals needs of the process; tests pass their own. */
export type SignalledProcess = Pick<NodeJS.Process, 'on' | 'exit'>;

/**
 * On the first Ctrl-C or SIGTERM (what `docker stop` and `systemctl stop` send), runs `stop` and
 * exits 0, or 1 with its error's message; a second signal while it runs exits 130 at once.
 */
export function stopOnSignals(stop: () => Promise<void>, proc: SignalledProcess = process): void {
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return proc.exit(130);
    stopping = true;
    try {
      await stop();
    } catch (error) {
      console.error((error as Error).message);
      return proc.exit(1);
    }
    proc.exit(0);
  };
  proc.on('SIGINT', shutdown);
  proc.on('SIGTERM', shutdown);
}
