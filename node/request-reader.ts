/**
 * The one reader of node:http requests for every server of ours: the VPS edition (vps/server.ts), the
 * local runtime (local/runtime.ts, local/gateway.ts) and the site they both serve (frontend/serve.ts).
 * A path is read one way everywhere (as the URL standard reads it, as CloudFront and API Gateway see it),
 * the API is the paths under API_BASE_PATH, a body is read up to a limit, and an answer is written with
 * its length. It is the VPS edition's hot path: a request line as browsers send it is read without a URL
 * object, headers are not copied, and a body-less request does not wait for its end.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { API_BASE_PATH } from '../config/api-contract';

/** A request's target: its path as sent (still percent-encoded) and its query without the '?'. */
export interface RequestTarget {
  path: string;
  query: string;
}

/**
 * A target the URL standard leaves as it is: a path of unreserved characters, sub-delimiters and escapes
 * with no dot segment (`/.`, `%2e`) and no `\`, then a query of the same and `/?`.
 */
const PLAIN_TARGET = /^\/(?!\/)[\w\-~!$&'()*+,;=:@%/.]*(\?[\w\-~!$&()*+,;=:@%/.?]*)?$/;
const DOT_SEGMENT = /\/\.|%2e/i;

/**
 * The path and query of a request line's target, as the URL standard parses it (dot segments resolved,
 * what must be escaped escaped). A target that is no URL at all is kept, escaped, as a path no route has.
 */
export function targetOf(url: string | undefined): RequestTarget {
  const raw = url ?? '/';
  if (PLAIN_TARGET.test(raw)) {
    const q = raw.indexOf('?');
    const path = q === -1 ? raw : raw.slice(0, q);
    if (!DOT_SEGMENT.test(path)) return { path, query: q === -1 ? '' : raw.slice(q + 1) };
  }
  try {
    // An origin-form target is a path, even one that starts with '//' (which a URL would read as a host).
    const parsed = new URL(raw.startsWith('/') ? `http://local${raw}` : raw);
    return { path: parsed.pathname, query: parsed.search.slice(1) };
  } catch {
    return { path: `/${encodeURIComponent(raw)}`, query: '' };
  }
}

/** Whether a path is the API's (API Gateway's, behind CloudFront's /api/* on AWS); anything else is the site's. */
export const isApiPath = (path: string): boolean =>
  path.startsWith(API_BASE_PATH) && (path.length === API_BASE_PATH.length || path[API_BASE_PATH.length] === '/');

/**
 * The request's headers, names lower-case, each one value (repeats joined with ',', as API Gateway joins
 * them). Node's own object when every value is one already (all but a repeated Set-Cookie): read, never
 * written.
 */
export function headersOf(req: IncomingMessage): Readonly<Record<string, string>> {
  const headers = req.headers;
  for (const name in headers) {
    if (typeof headers[name] === 'string') continue;
    const joined: Record<string, string> = {};
    for (const [key, value] of Object.entries(headers))
      if (value !== undefined) joined[key] = Array.isArray(value) ? value.join(',') : value;
    return joined;
  }
  return headers as Record<string, string>;
}

/**
 * The client's address: the socket's, or behind a proxy we trust the last X-Forwarded-For entry (the one
 * that proxy added), IPv4 without its IPv6 prefix.
 */
export function sourceIpOf(req: IncomingMessage, trustProxy = false): string {
  if (trustProxy) {
    const forwarded = String(req.headers['x-forwarded-for'] ?? '')
      .split(',')
      .pop()
      ?.trim();
    if (forwarded) return forwarded;
  }
  const address = req.socket?.remoteAddress ?? '127.0.0.1';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** Whether a request comes with a body (most do not: every GET), so that one without is answered at once. */
export const announcesBody = (req: IncomingMessage): boolean =>
  req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

/**
 * The body, at most `limit` bytes: more is refused before the rest is read (answer it with `Connection:
 * close`: what the client still sends is not read).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        resolve('too-large');
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * An answer as it goes on the wire: its status, its headers with its Content-Length, its body. A body as text
 * goes out in one write with the headers (a Buffer: two, gathered).
 */
export interface WireResponse {
  status: number;
  headers: OutgoingHttpHeaders;
  body: string | Buffer;
}

/** An answer with its length among its headers, ready to write as often as it is asked for. */
export const wireResponse = (status: number, headers: OutgoingHttpHeaders, body: string | Buffer): WireResponse => ({
  status,
  headers: { ...headers, 'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length },
  body,
});

/** Writes an answer (a HEAD's without its body). */
export function writeResponse(res: ServerResponse, { status, headers, body }: WireResponse, head = false): void {
  res.writeHead(status, headers);
  res.end(head ? undefined : body);
}
