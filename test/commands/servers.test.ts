/**
 * Both servers as a person starts them (`npm start`, `npm run vps`): the options they share mean
 * the same on each. With --rate-limits off, one address creates past the create burst.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSite } from '../../frontend/build';
import { RATE_LIMITS } from '../../config/throttling';
import { api } from '../support/local';

let server: ChildProcess | undefined;
afterEach(async () => {
  if (server?.exitCode !== null || !server) return;
  const exited = once(server, 'exit');
  server.kill('SIGTERM'); // npm start counts what is queued and writes its usage file (here a temporary one)
  await exited;
});

/** Starts `file` with `args` on a free port; resolves with the first URL it prints. */
function serve(file: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, '--port', '0', ...args], { stdio: 'pipe' });
  server = child;
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0];
      if (url) resolve(url);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', () => reject(new Error(`${file} exited before it printed its URL:\n${output}`)));
  });
}

const temporary = () => mkdtempSync(join(tmpdir(), 'servers-'));

describe.each([
  ['npm start', 'local/cli.ts', () => ['--usage-file', join(temporary(), 'usage.json')]],
  ['npm run vps', 'vps/cli.ts', () => ['--data-dir', temporary()]],
])('%s --rate-limits off', (_name, file, own) => {
  it('creates past the create burst from one address', { timeout: 60_000 }, async () => {
    const url = await serve(file, [...own(), '--rate-limits', 'off']);
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMITS.createPoll.burst; i++)
      statuses.push((await api({ url }).call('POST', '/api/poll', { title: `p${i}`, options: ['a', 'b'] })).status);
    expect(statuses).toEqual(statuses.map(() => 201));
  });

  it('serves the cost explorer at /cost, linked from the page footer', { timeout: 60_000 }, async () => {
    const url = await serve(file, own());
    const page = await (await fetch(url)).text();
    expect(page).toContain('<footer><a href="/cost">');
    // The page CloudFront serves has no /cost: its footer stays hidden there.
    expect(buildSite().page).toContain('<footer hidden><a href="/cost">');
    const explorer = await fetch(`${url}/cost`);
    expect(explorer.status).toBe(200);
    expect(explorer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await explorer.text();
    expect(html).toContain('<script type="application/json" id="explorer-input">');
    // Built from the default inputs: the seed, as npm run cost with no options.
    expect(JSON.parse(/id="explorer-input">(.*?)<\/script>/s.exec(html)![1]).profile.name).toBe('seed');
  });
});
