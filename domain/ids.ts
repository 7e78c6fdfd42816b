import { POLL_LIMITS } from '../config/api-contract';

/** nanoid's url-safe alphabet: 64 symbols, so `byte & 63` picks one without bias. */
const ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

/**
 * Random bytes drawn a pool at a time: one getRandomValues call (the costly part: a vote id each vote
 * on a busy server) serves many ids, as nanoid does. Each byte is used once.
 */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let used = 0;
function randomBytes(length: number): Uint8Array {
  if (length > POOL_BYTES) return crypto.getRandomValues(new Uint8Array(length));
  if (used + length > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    used = 0;
  }
  used += length;
  return pool.subarray(used - length, used);
}

/** A random url-safe id (21 chars = 126 bits): unguessable, fine in a URL path. */
export const newId = (length: number = POLL_LIMITS.idLength): string => idOf(randomBytes(length));

/** An id of that shape from bytes that are already random (a hash): one character per byte, 6 bits each. */
export function idOf(bytes: Uint8Array, length: number = POLL_LIMITS.idLength): string {
  let id = '';
  // An index loop: no view and no iterator made for each id (a vote id each vote).
  for (let i = 0; i < length && i < bytes.length; i++) id += ALPHABET[bytes[i] & 63];
  return id;
}

const ID_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${POLL_LIMITS.idLength}}$`);

/**
 * A path segment as text; a malformed escape (a typed `50%off`) is left as typed, so it fails
 * the id check like any other bad id instead of failing the request.
 */
export function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
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
