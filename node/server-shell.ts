/**
 * The shell both servers run in, the local runtime (`npm start`) and the VPS edition
 * (`npm run vps`): listening, with one line when the port is taken (and exit 1 from the command);
 * closing without waiting for idle connections; and a graceful stop on Ctrl-C or SIGTERM.
 */
import { createServer, STATUS_CODES, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
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
  server.on('clientError', refuseUnparsed);
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(whyNotListening(error, host, port), { cause: error })),
    );
    server.listen(port, host, () => resolve(server));
  });
}

/** Why a server cannot listen, in one line that names the option to change. */
function whyNotListening(error: NodeJS.ErrnoException, host: string, port: number): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `Port ${port} is already in use: choose another with --port <n>.`;
    case 'EACCES':
      return port < 1024
        ? `Port ${port} needs more rights than this user has: choose one above 1023 with --port <n>.`
        : `Listening on ${host}:${port} is not allowed here (EACCES): choose another --port or --host.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `--host ${host} is not an address of this machine: give one it has (0.0.0.0 for all of them).`;
    default:
      return `Cannot listen on ${host}:${port}: ${error.message}`;
  }
}

/** What node:http answers a request it cannot parse with, as it picks it (its own answer has no body). */
const UNPARSED: Record<string, [status: number, code: string, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The request headers are too large.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'body_too_large', 'The chunk extensions are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request took too long to arrive.'],
};

/**
 * A request node:http cannot parse gets its status with a JSON body as every refusal of ours has, then the
 * connection is closed once the answer is out, whatever the client does. As node:http does it: nothing is
 * written into an answer already under way.
 */
function refuseUnparsed(error: NodeJS.ErrnoException, socket: Duplex): void {
  const answering = (socket as Duplex & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (!socket.writable || answering?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message] = UNPARSED[error.code ?? ''] ?? [400, 'bad_request', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    // end() alone waits for the client's side to close too: a client that never does would hold the socket.
    () => socket.destroy(),
  );
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
