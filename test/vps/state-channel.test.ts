/**
 * The channel between the VPS edition's workers and the primary that owns the state: what crosses it
 * arrives as the ports said it (a ballot left out stays left out, a refusal keeps its code and fields),
 * and nothing a worker sends, nor a worker that died, can stop the primary.
 */
import { spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PollError } from '../../domain/errors';
import { PollState } from '../../vps/poll-state';
import { localLimits } from '../../vps/server';
import { answerCalls, linkTo, remotePorts, WORKER_STDIO, type Link, type WriterPorts } from '../../vps/state-channel';
import { testPoll } from '../support/factories';

/** Two ends of a link in memory; what one writes the other reads a turn later, cut in two as a socket may. */
function linkPair(): [Link & EventEmitter, Link & EventEmitter] {
  const [a, b] = [new EventEmitter(), new EventEmitter()];
  const wire = (to: EventEmitter) => (text: string) => {
    const half = Math.floor(text.length / 2);
    setImmediate(() => {
      to.emit('data', text.slice(0, half));
      to.emit('data', text.slice(half));
    });
  };
  return [Object.assign(a, { write: wire(b) }), Object.assign(b, { write: wire(a) })];
}

/** A worker's ports answered by a primary holding `ports`, over an in-memory channel. */
function connected(ports: WriterPorts) {
  const [primarySide, workerSide] = linkPair();
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

  it("answers each vote of a flush: all refused when its write fails, the next flush's counted", async () => {
    const state = new PollState();
    const poll = testPoll();
    const { remote } = connected({ polls: state, limits: {} });
    await remote.polls.putNewPoll(poll);
    // As the journal does: what is appended in one turn is one flush with one promise; the first flush fails.
    let flush: { written: Promise<void>; applies: Array<() => void> } | undefined;
    let flushes = 0;
    state.persistWith((_record, apply) => {
      if (!flush) {
        const failing = flushes++ === 0;
        const applies: Array<() => void> = [];
        const written = new Promise<void>((resolve, reject) =>
          setImmediate(() => {
            flush = undefined;
            if (failing) return reject(new Error('disk full'));
            for (const each of applies) each();
            resolve();
          }),
        );
        flush = { written, applies };
      }
      flush.applies.push(apply);
      return flush.written;
    });
    const vote = (option: number, voteId = `vote-${option}-${Math.random()}`) =>
      remote.polls.send(
        { v: 1, voteId, pollId: poll.id, option, castAt: new Date().toISOString() },
        { keyed: true, poll: {} },
      );
    const first = await Promise.allSettled([vote(0), vote(1), vote(2)]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(first.map((r) => (r as PromiseRejectedResult).reason.message)).toEqual(Array(3).fill('disk full'));
    // The next flush: its votes counted, and a key sent again with another option refused beside them.
    const second = await Promise.allSettled([vote(0, 'kept'), vote(1), vote(1, 'kept')]);
    expect(second.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((second[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'idempotency_key_reused' });
    expect((await state.getCounts(poll.id))?.votes).toEqual({ '0': 1, '1': 1, '2': 0 });
  });

  it('drops what is not a call, and answers the calls beside it', async () => {
    const { primarySide } = connected({ polls: new PollState(), limits: localLimits(true) });
    const replies: string[] = [];
    primarySide.write = (text: string) => replies.push(text);
    const junk = ['', 'text', '1\tconstructor\t[]', '2\tgetPoll\t"x"', '3\tgetPoll\t[', 'x\tgetPoll\t["p"]'];
    primarySide.emit('data', `${junk.join('\n')}\n4\ttake\t["castVote","a",0]\n5\tgetPoll`);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(replies).toEqual(['4\t0\n']);
    // The last line was cut short: it is answered once its end comes.
    primarySide.emit('data', '\t["p"]\n');
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(replies).toEqual(['4\t0\n', '5\n']);
  });

  it('does not stop the primary when the worker it answers has died', { timeout: 30_000 }, async () => {
    const script = 'setInterval(() => {}, 1000)';
    const worker = spawn(process.execPath, ['-e', script], { stdio: [...WORKER_STDIO] });
    let answer!: () => void;
    const slow = new Promise<void>((resolve) => (answer = resolve));
    const polls = new PollState();
    polls.putNewPoll = () => slow;
    const link = linkTo(worker);
    answerCalls(link, { polls, limits: {} });
    // As the worker's call arrives: then it dies before its answer is sent.
    link.emit('data', `1\tputNewPoll\t${JSON.stringify([testPoll()])}\n`);
    worker.kill('SIGKILL');
    await once(worker, 'exit');
    answer();
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    await expect.poll(() => link.destroyed).toBe(true);
    // Had the answer been written before the link heard the worker was gone, the write would fail with EPIPE:
    // an 'error' nobody listens to throws, as it would stop a primary.
    expect(() => link.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).not.toThrow();
  });
});
