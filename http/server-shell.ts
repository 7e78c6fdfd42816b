/**
 * The shell both servers run in, the local runtime (`npm start`) and the VPS edition
 * (`npm run vps`): listening, with one line when the port is taken (and exit 1 from the command);
 * closing without waiting for idle connections; and a graceful stop on Ctrl-C or SIGTERM.
 */
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Server as TlsServer } from 'node:tls';

/** A certificate chain and its private key, PEM: the server terminates TLS itself. */
export interface TlsFiles {
  cert: string;
  key: string;
}

/**
 * Listens on host:port (0 picks a free port), over TLS when given a certificate; a taken port is an
 * error that says how to choose another.
 */
export function listen(
  port: number,
  host: string,
  handler: RequestListener,
  options: ServerOptions = {},
  tls?: TlsFiles,
): Promise<Server> {
  // node:https's server is node:http's over TLS: the same requests, connections and close calls.
  const server = tls
    ? (createTlsServer({ ...options, ...tls }, handler) as unknown as Server)
    : createServer(options, handler);
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

/** Where a listening server answers, e.g. `http://127.0.0.1:3000` (https over TLS; IPv6 in brackets). */
export function originOf(server: Server): string {
  const { address, family, port } = server.address() as AddressInfo;
  return `${server instanceof TlsServer ? 'https' : 'http'}://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
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

/** The signals a server stops on: a person's Ctrl-C, a supervisor's stop, a closed terminal. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** What stopOnSignals needs of the process; tests pass their own. */
export type SignalledProcess = Pick<NodeJS.Process, 'on' | 'exit'>;

/**
 * On the first Ctrl-C, SIGTERM (what `docker stop` and `systemctl stop` send) or SIGHUP (its terminal
 * closed), runs `stop` and exits 0, or 1 with its error's message; a second signal while it runs exits
 * 130 at once.
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
  for (const signal of STOP_SIGNALS) proc.on(signal, shutdown);
}
