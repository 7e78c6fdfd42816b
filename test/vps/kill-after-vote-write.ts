/**
 * The VPS edition, started as `npm run vps` starts it, except that it kills itself (SIGKILL) as soon
 * as a vote's record is on disk, before the vote is answered: the crash a retry by key must survive.
 * Usage: node --import tsx test/vps/kill-after-vote-write.ts <data-dir>. Run by test/vps/vps.test.ts.
 */
import { buildSite } from '../../frontend/build';
import { startVpsServer } from '../../vps/server';

const server = await startVpsServer({ dataDir: process.argv[2], port: 0, site: buildSite(), rateLimits: false });
const state = server.store.state;
const send = state.send.bind(state);
state.send = async (vote, to) => {
  await send(vote, to);
  process.kill(process.pid, 'SIGKILL');
};
console.log(`Listening on ${server.url}`);
