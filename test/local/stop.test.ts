/**
 * The runtime stops while a browser still holds connections to it. Chromium opens sockets ahead
 * of need (preconnect) and may send nothing on them; Node's server.close() waits for those until
 * its headers timeout (60 s), which once made the browser tests' teardown time out.
 */
import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { startLocalRuntime } from '../../local/runtime';

it('stops at once while a client holds a connection it has sent nothing on', { timeout: 90_000 }, async () => {
  const runtime = await startLocalRuntime({ rateLimits: false, logLevel: 'SILENT' });
  const { hostname, port } = new URL(runtime.url);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.on('error', () => undefined);
  const closedByServer = new Promise((resolve) => socket.once('close', resolve));

  let stopped = false;
  const stopping = runtime.stop().then(() => (stopped = true));
  await Promise.race([stopping, new Promise((r) => setTimeout(r, 15_000))]);
  const stoppedInTime = stopped;
  socket.destroy();
  await Promise.all([stopping, closedByServer]);
  expect(stoppedInTime, 'stop() waited for the idle client connection').toBe(true);
});
