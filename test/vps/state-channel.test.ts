/**
 * The channel between the VPS edition's workers and the primary that owns the state: what crosses it
 * arrives as the ports said it (a ballot left out stays left out, a refusal keeps its code and fields),
 * and nothing a worker sends, nor a worker that died, can stop the primary.
 */
import { spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PollError } from '../../lambdas/domain/errors';
import { PollState } from '../../vps/poll-state';
import { localLimits, type VpsPorts } from '../../vps/server';
import { answerCalls, remotePorts, type Channel } from '../../vps/state-channel';
import { testPoll } from '../support/factories';

/** Two ends of a channel in memory; each message crosses as JSON, as node:cluster's IPC carries it. */
function channelPair(): [Channel & EventEmitter, Channel & EventEmitter] {
  const [a, b] = [new EventEmitter(), new EventEmitter()];
  const wire =
    (to: EventEmitter) => (message: unknown, _h: undefined, _o: undefined, done: (error: Error | null) => void) => {
      setImmediate(() => to.emit('message', JSON.parse(JSON.stringify(message))));
      done(null);
    };
  return [Object.assign(a, { send: wire(b) }), Object.assign(b, { send: wire(a) })];
}

/** A worker's ports answered by a primary holding `ports`, over an in-memory channel. */
function connected(ports: VpsPorts) {
  const [primarySide, workerSide] = channelPair();
  answerCalls(primarySide, ports);
  return { remote: remotePorts(workerSide, true), primarySide };
}

describe('the state channel', () => {
  it('keeps a vote without a ballot without one: one voter is refused a second vote, as in one process', async () => {
    const state = new PollState();
    const poll = testPoll({ oneVotePerVoter: true });
    const { remote } = connected({ polls: state, limits: {} });
    await remote.polls.putNewPoll(poll);
    // As the vote route asks: the ballot argument given, as undefined.
    const noBallot = undefined;
    expect(await remote.polls.claimVoter(poll.id, 'voter-1', poll.expiresAt, noBallot)).toBe('claimed');
    expect(await remote.polls.claimVoter(poll.id, 'voter-1', poll.expiresAt, noBallot)).toBe('taken');
    // A ballot's retry is that ballot's, and its release frees the voter only for it.
    expect(await remote.polls.claimVoter(poll.id, 'voter-2', poll.expiresAt, 'ballot-2')).toBe('claimed');
    expect(await remote.polls.claimVoter(poll.id, 'voter-2', poll.expiresAt, 'ballot-2')).toBe('retried');
    await remote.polls.releaseVoter(poll.id, 'voter-1', noBallot);
    expect(await remote.polls.claimVoter(poll.id, 'voter-1', poll.expiresAt, noBallot)).toBe('claimed');
  });

  it('brings a refusal back with its code and what its answer is made of', async () => {
    const refusal = (error: PollError) => async () => {
      throw error;
    };
    const polls = new PollState();
    polls.getPoll = refusal(new PollError('invalid_field', 'Bad title.', { field: 'title' }));
    const limits = {
      castVote: { take: refusal(new PollError('rate_limited', 'Slow down.', { retryAfterSeconds: 7 })) },
    };
    const { remote } = connected({ polls, limits });
    await expect(remote.polls.getPoll('x')).rejects.toMatchObject({ code: 'invalid_field', field: 'title' });
    await expect(remote.limits.castVote!.take('1.2.3.4', 0)).rejects.toMatchObject({
      name: 'PollError',
      code: 'rate_limited',
      retryAfterSeconds: 7,
    });
  });

  it('drops what is not a call, and answers the calls beside it', async () => {
    const { primarySide } = connected({ polls: new PollState(), limits: localLimits(true) });
    const replies: unknown[] = [];
    primarySide.send = (message: unknown) => replies.push(message);
    const junk = [null, 42, { call: 1, op: 'constructor', args: [] }, { call: 2, op: 'getPoll', args: 'x' }];
    for (const message of [
      null,
      'text',
      { batch: 'no' },
      { batch: [...junk, { call: 3, op: 'take', args: ['castVote', 'a', 0] }] },
    ])
      primarySide.emit('message', message);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(replies).toEqual([{ batch: [{ reply: 3, value: 0 }] }]);
  });

  it('does not stop the primary when the worker it answers has died', { timeout: 30_000 }, async () => {
    const script = 'process.on("message", () => {}); setInterval(() => {}, 1000)';
    const worker = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    let answer!: () => void;
    const slow = new Promise<void>((resolve) => (answer = resolve));
    const polls = new PollState();
    polls.putNewPoll = () => slow;
    answerCalls(worker, { polls, limits: {} });
    // As the worker's call arrives: then it dies before its answer is sent.
    worker.emit('message', { batch: [{ call: 1, op: 'putNewPoll', args: [testPoll()] }] });
    worker.kill('SIGKILL');
    await once(worker, 'exit');
    const heard: unknown[] = [];
    worker.on('error', (error) => heard.push(error));
    answer();
    // An 'error' nobody listens to would throw here, as it stops a primary.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual([]);
  });
});
