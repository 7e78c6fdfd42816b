/**
 * The shell both servers run in (node/server-shell.ts): a taken port said in one line, a stop that
 * does not wait for idle connections, and what Ctrl-C and SIGTERM do. The servers' own tests run
 * it for real (test/local/stop.test.ts, test/vps/vps.test.ts).
 */
import { EventEmitter, once } from 'node:events';
import type { Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { get } from 'node:https';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeServer, listen, originOf, stopOnSignals, type SignalledProcess } from '../../../node/server-shell';

const ok = () => undefined;
let servers: Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.map(closeServer));
  servers = [];
});

async function started(port = 0): Promise<Server> {
  const server = await listen(port, '127.0.0.1', (_req, res) => res.end('ok'));
  servers.push(server);
  return server;
}

describe('listening', () => {
  it('answers where it says it does', async () => {
    const server = await started();
    expect(originOf(server)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(originOf(server))).text()).toBe('ok');
  });

  it('answers over TLS at an https origin when given a certificate (the VPS edition terminates its own)', async () => {
    const cert = readFileSync('test/fixtures/tls/cert.pem', 'utf8');
    const tls = { cert, key: readFileSync('test/fixtures/tls/key.pem', 'utf8') };
    const server = await listen(0, '127.0.0.1', (_req, res) => res.end('ok over TLS'), {}, tls);
    servers.push(server);
    expect(originOf(server)).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const body = await new Promise<string>((done, fail) =>
      get(originOf(server), { ca: cert }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => done(text));
      }).on('error', fail),
    );
    expect(body).toBe('ok over TLS');
  });

  it('names a taken port and the option to choose another, keeping the system’s error as cause', async () => {
    const taken = Number(new URL(originOf(await started())).port);
    const refused = await listen(taken, '127.0.0.1', ok).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe(`Port ${taken} is already in use: choose another with --port <n>.`);
    expect(((refused as Error).cause as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
  });

  it('names a host that is not this machine’s in one line', async () => {
    const refused = await listen(0, '192.0.2.1', ok).catch((error: Error) => error);
    expect((refused as Error).message).toBe(
      '--host 192.0.2.1 is not an address of this machine: give one it has (0.0.0.0 for all of them).',
    );
  });

  it('answers what node:http cannot parse with its status and a JSON body, and serves on', async () => {
    const server = await started();
    const { port } = new URL(originOf(server));
    const raw = (request: string) =>
      new Promise<string>((done, fail) => {
        let text = '';
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
        socket.on('data', (chunk) => (text += chunk));
        socket.on('end', () => done(text));
        socket.on('error', fail);
      });
    const tooLarge = await raw(`GET / HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(tooLarge).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(JSON.parse(tooLarge.split('\r\n\r\n')[1])).toEqual({
      error: { code: 'headers_too_large', message: 'The request headers are too large.' },
    });
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\ncontent-type: application\/json/);
    expect(JSON.parse(garbage.split('\r\n\r\n')[1]).error.code).toBe('bad_request');
    expect(await (await fetch(originOf(server))).text()).toBe('ok');
  });

  it('closes a connection it refused, even to a client that keeps its own side open', async () => {
    const server = await started();
    const socket = connect({ port: Number(new URL(originOf(server)).port), host: '127.0.0.1', allowHalfOpen: true });
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    socket.resume(); // read the answer: its end comes after it
    await once(socket, 'end');
    const open = () => new Promise<number>((done) => server.getConnections((_, count) => done(count)));
    await vi.waitFor(async () => expect(await open()).toBe(0), { timeout: 10_000 });
    socket.destroy();
  });

  it('closes at once while a client holds a connection it has sent nothing on', async () => {
    const server = await started();
    const { hostname, port } = new URL(originOf(server));
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    const closedByServer = new Promise((resolve) => socket.once('close', resolve));
    await closeServer(server);
    servers = [];
    await closedByServer;
    expect(server.listening).toBe(false);
  });
});

/** A process stand-in: signals are emitted by the test, exits are recorded (the first one ends the process). */
class FakeProcess extends EventEmitter {
  readonly exits: number[] = [];
  readonly exited = new Promise<number>((resolve) => this.once('exited', resolve));
  exit(code?: number): never {
    this.exits.push(code ?? 0);
    this.emit('exited', code ?? 0);
    return undefined as never;
  }
}
const asProcess = (fake: FakeProcess) => fake as unknown as SignalledProcess;

describe('stopping on a signal', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'])('%s runs the stop, then exits 0', async (signal) => {
    const proc = new FakeProcess();
    const stopped: string[] = [];
    stopOnSignals(async () => {
      stopped.push('stopped');
    }, asProcess(proc));
    proc.emit(signal);
    expect(await proc.exited).toBe(0);
    expect(stopped).toEqual(['stopped']);
  });

  it('exits 130 at once on a second signal while the stop still runs', async () => {
    const proc = new FakeProcess();
    let finish!: () => void;
    stopOnSignals(() => new Promise<void>((resolve) => (finish = resolve)), asProcess(proc));
    proc.emit('SIGINT');
    proc.emit('SIGINT');
    expect(await proc.exited).toBe(130);
    finish();
  });

  it('exits 1 with the reason when the stop fails', async () => {
    const proc = new FakeProcess();
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stopOnSignals(() => Promise.reject(new Error('the log could not be flushed')), asProcess(proc));
    proc.emit('SIGTERM');
    expect(await proc.exited).toBe(1);
    expect(printed.mock.calls).toEqual([['the log could not be flushed']]);
  });
});
