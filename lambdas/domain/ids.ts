import { POLL_LIMITS } from '../../config/api-contract';

/** nanoid's url-safe alphabet: 64 symbols, so `byte & 63` picks one without bias. */
const ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

/** A random url-safe id (21 chars = 126 bits): unguessable, fine in a URL path. */
export const newId = (length: number = POLL_LIMITS.idLength): string =>
  idOf(crypto.getRandomValues(new Uint8Array(length)));

/** An id of that shape from bytes that are already random (a hash): one character per byte, 6 bits each. */
export function idOf(bytes: Uint8Array, length: number = POLL_LIMITS.idLength): string {
  let id = '';
  for (const byte of bytes.subarray(0, length)) id += ALPHABET[byte & 63];
  return id;
}

const ID_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${POLL_LIMITS.idLength}}$`);

/**
 * A path segment as text; a malformed escape (a typed `50%off`) is left as typed, so it fails
 * the id check like any other bad id instead of failing the request.
 */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Checked before any lookup, so path tricks never reach the table. */
export function isPollId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
