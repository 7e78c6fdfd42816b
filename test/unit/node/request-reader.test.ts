import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../../../config/api-contract';
import { headersOf, isApiPath, sourceIpOf, targetOf } from '../../../node/request-reader';

/** What the URL standard makes of a request line's target: the reader's fast path must agree. */
function byUrl(raw: string) {
  const url = new URL(raw.startsWith('/') ? `http://local${raw}` : raw);
  return { path: url.pathname, query: url.search.slice(1) };
}

describe('the request reader', () => {
  it('reads a target as the URL standard does, fast path or not', () => {
    const piece = fc.constantFrom(
      ...['api', 'poll', 'x.js', '.', '..', '%2e', '%2E%2e', '%41', '%', ' ', 'é', '\\', "'", '"', '#'],
    );
    const target = fc
      .tuple(fc.array(piece, { maxLength: 6 }), fc.option(fc.array(piece, { maxLength: 3 })))
      .map(([path, query]) => `/${path.join('/')}${query === null ? '' : `?${query.join('&')}`}`);
    fc.assert(
      fc.property(target, (raw) => {
        expect(targetOf(raw)).toEqual(byUrl(raw));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a path that starts with // a path, and one that is no URL a path no route has', () => {
    expect(targetOf('//api/poll')).toEqual({ path: '//api/poll', query: '' });
    expect(targetOf('/api/poll/abc/../x?a=1')).toEqual({ path: '/api/poll/x', query: 'a=1' });
    expect(targetOf('http://other/api/poll?b')).toEqual({ path: '/api/poll', query: 'b' });
    expect(targetOf('*').path).toBe('/*');
    expect(targetOf('http://[bad').path).toBe(`/${encodeURIComponent('http://[bad')}`);
  });

  it('tells the API from the site by API_BASE_PATH', () => {
    expect(isApiPath(API_BASE_PATH)).toBe(true);
    expect(isApiPath(`${API_BASE_PATH}/poll/x`)).toBe(true);
    expect(isApiPath(`${API_BASE_PATH}x/poll`)).toBe(false);
    expect(isApiPath('/poll/x')).toBe(false);
  });

  it('gives each header one value, and the client its own address', () => {
    const req = (headers: IncomingMessage['headers'], remoteAddress = '::ffff:10.0.0.1') =>
      ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;
    const plain = { host: 'a', 'content-type': 'application/json' };
    expect(headersOf(req(plain))).toBe(plain);
    expect(headersOf(req({ host: 'a', 'set-cookie': ['x=1', 'y=2'] }))).toEqual({ host: 'a', 'set-cookie': 'x=1,y=2' });
    expect(sourceIpOf(req({}))).toBe('10.0.0.1');
    expect(sourceIpOf(req({ 'x-forwarded-for': '1.1.1.1, 2.2.2.2' }))).toBe('10.0.0.1');
    expect(sourceIpOf(req({ 'x-forwarded-for': '1.1.1.1, 2.2.2.2' }), true)).toBe('2.2.2.2');
  });
});
