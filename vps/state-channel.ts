/**
 * How the VPS edition's workers reach the one state of the box: each worker serves HTTP with the
 * same handlers, and every change of polls, votes, voter claims, ballot keys and rate limits is a
 * call to the writer (the primary), which owns the state and its log. So a vote is on disk before any
 * worker acknowledges it, a key names one ballot whichever worker sees it, and a client's limit is one
 * limit for the box, as with one process. Reads are the worker's own: polls and results are kept in
 * its memory (the handlers' caches), so a call reads only what a worker has not seen lately.
 *
 * The calls go over a socket pair of their own (not node:cluster's IPC, whose every message is JSON
 * in an envelope, parsed and dispatched as an event): a call is a line, `<id> TAB <op> TAB <args as
 * JSON>`, an answer a line, `<id>` (nothing), `<id> TAB <JSON>` or `<id> TAB ! <error as JSON>`. A
 * vote, the one call a vote makes (with rate limits on, a take before it), is `<id> TAB vote TAB <its
 * log line>`: the worker encodes the line (JSON, CRC-32), the writer appends it as it came. The lines
 * of one turn of the event loop go as one write; the writer answers a flush's votes in one.
 */
import type { ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import { PollError } from '../domain/errors';
import { recordOf } from './journal';
import { isStateRecord, voteLine, voteRecord, type PollState, type VoteRecord } from './poll-state';
import type { RateLimitedRoute, VpsPorts } from './server';

/** One end of the socket pair: the worker's in the primary, the primary's in a worker. Text, UTF-8. */
export interface Link {
  write(text: string): unknown;
  on(event: 'data', listener: (chunk: string) => void): unknown;
}

/** The file descriptor a worker finds its end of the socket pair on (node:cluster's IPC is 3). */
const LINK_FD = 4;

/** What a worker is forked with: its standard streams, node:cluster's IPC, and the socket pair. */
export const WORKER_STDIO = ['inherit', 'inherit', 'inherit', 'ipc', 'pipe'] as const;

/**
 * In the primary: the link to a worker forked with WORKER_STDIO. A write to one that died fails quietly:
 * its clients got no answer either, and its exit says the rest.
 */
export function linkTo(worker: ChildProcess): Socket {
  const link = (worker.stdio[LINK_FD] as Socket).setEncoding('utf8');
  link.on('error', () => undefined);
  return link;
}

/** In a worker: the link to the primary. */
export const linkToPrimary = (): Socket =>
  new Socket({ fd: LINK_FD, readable: true, writable: true }).setEncoding('utf8');

/** Each call a worker makes: the state's own methods, and a token from a route's rate limit. */
type StateOp = 'putNewPoll' | 'getPoll' | 'getCounts' | 'claimVoter' | 'releaseVoter';
type Calls = Pick<VpsPorts['polls'], StateOp> & {
  take(route: RateLimitedRoute, key: string, nowMs: number): number | Promise<number>;
};
type Op = keyof Calls;

/** An error as it crosses the link: a PollError keeps what its answer is made of. */
interface WireError {
  message: string;
  code?: PollError['code'];
  retryAfterSeconds?: number;
  field?: string;
}

/**
 * Writes the lines said within one turn of the event loop as one write: under load a turn handles many
 * requests, and each write costs a system call and a wake-up of the other side.
 */
function batched(link: Link): (line: string) => void {
  let lines: string[] = [];
  return (line) => {
    lines.push(line);
    if (lines.length > 1) return;
    setImmediate(() => {
      const text = `${lines.join('\n')}\n`;
      lines = [];
      link.write(text);
    });
  };
}

/** Each whole line the link brings (a chunk may end mid-line: the rest waits for the next). */
function eachLine(link: Link, handle: (line: string) => void): void {
  let rest = '';
  link.on('data', (chunk) => {
    const text = rest + chunk;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      handle(text.slice(start, end));
      start = end + 1;
    }
    rest = text.slice(start);
  });
}

/** A line's fields: what comes before the first `count` tabs, then the rest (which may hold tabs). */
function fields(line: string, count: number): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const tab = line.indexOf('\t', start);
    if (tab === -1) break;
    out.push(line.slice(start, tab));
    start = tab + 1;
  }
  out.push(line.slice(start));
  return out;
}

const toWire = (error: unknown): WireError =>
  error instanceof PollError
    ? { message: error.message, code: error.code, retryAfterSeconds: error.retryAfterSeconds, field: error.field }
    : { message: (error as Error)?.message ?? String(error) };

const fromWire = ({ message, code, ...options }: WireError): Error =>
  code ? new PollError(code, message, options) : new Error(message);

const parse = (json: string): unknown => {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
};

/** What the writer answers from: the box's state and its rate limits. */
export interface WriterPorts {
  polls: PollState;
  limits: VpsPorts['limits'];
}

/** In the primary: answers a worker's calls from the ports that hold the box's state. */
export function answerCalls(worker: Link, { polls, limits }: WriterPorts): void {
  const handlers: Calls = {
    putNewPoll: (poll) => polls.putNewPoll(poll),
    getPoll: (id) => polls.getPoll(id),
    getCounts: (id) => polls.getCounts(id),
    claimVoter: (...args) => polls.claimVoter(...args),
    releaseVoter: (...args) => polls.releaseVoter(...args),
    take: (route, key, nowMs) => limits[route]?.take(key, nowMs) ?? 0,
  };
  const reply = batched(worker);
  const answer = (call: string, value: unknown) =>
    reply(value === undefined ? call : `${call}\t${JSON.stringify(value)}`);
  const refuse = (call: string, error: unknown) => reply(`${call}\t!${JSON.stringify(toWire(error))}`);
  // The votes waiting on each flush (a flush's votes share its promise): one callback a flush, not one a vote.
  const flushes = new Map<Promise<void>, string[]>();
  const answerAll = (written: Promise<void>, answerEach: (call: string) => void) => {
    const calls = flushes.get(written) ?? [];
    flushes.delete(written);
    for (const each of calls) answerEach(each);
  };
  const vote = (call: string, record: VoteRecord, line: string) => {
    const written = polls.sendRecord(record, line);
    const calls = flushes.get(written);
    if (calls) return void calls.push(call);
    flushes.set(written, [call]);
    written.then(
      () => answerAll(written, reply),
      (error: unknown) => answerAll(written, (each) => refuse(each, error)),
    );
  };
  // A line's callbacks are made inline, not as named functions: naming one made for each line costs a property
  // write (tsx keeps names), and the writer's CPU a vote is the box's ceiling.
  eachLine(worker, (line) => {
    const [call, op, json] = fields(line, 2);
    if (!/^\d+$/.test(call)) return;
    if (op === 'vote') {
      const record = recordOf(json);
      if (isStateRecord(record) && record.k === 'vote') vote(call, record, json);
      return;
    }
    const args = parse(json);
    // Anything else is not a call of this program's workers: dropped, unanswered.
    if (!Object.hasOwn(handlers, op) || !Array.isArray(args)) return;
    try {
      // JSON carries an argument left out (a vote without a ballot) as null: the ports take it as left out.
      const value = (handlers[op as Op] as (...a: unknown[]) => unknown)(...args.map((arg) => arg ?? undefined));
      if (value instanceof Promise)
        value.then(
          (settled: unknown) => answer(call, settled),
          (error: unknown) => refuse(call, error),
        );
      else answer(call, value);
    } catch (error) {
      refuse(call, error);
    }
  });
}

/**
 * In a worker: the ports whose every call is answered by the primary (rate limits only when `limited`),
 * and a wait for the calls still out.
 */
export function remotePorts(
  primary: Link,
  limited: boolean,
): VpsPorts & { idle(): Promise<void>; fail(error: Error): void } {
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 0;
  let drained: (() => void) | undefined;
  const send = batched(primary);
  eachLine(primary, (line) => {
    const [id, answer = ''] = fields(line, 1);
    const call = waiting.get(Number(id));
    if (!call) return;
    waiting.delete(Number(id));
    if (answer.startsWith('!')) call.reject(fromWire(parse(answer.slice(1)) as WireError));
    else call.resolve(answer === '' ? undefined : parse(answer));
    if (waiting.size === 0) drained?.();
  });
  /** A call, as its line says it after its id. */
  const request = <T>(said: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      send(`${id}\t${said}`);
    });
  const call = <O extends Op>(op: O, ...args: Parameters<Calls[O]>) =>
    request<Awaited<ReturnType<Calls[O]>>>(`${op}\t${JSON.stringify(args)}`);
  // Results asked for while a read of the same poll is out share it: under load many ask at once.
  const reading = new Map<string, ReturnType<Calls['getCounts']>>();
  const getCounts = (id: string) => {
    const read = reading.get(id) ?? call('getCounts', id).finally(() => reading.delete(id));
    reading.set(id, read);
    return read;
  };
  const take = (route: RateLimitedRoute) => ({ take: (key: string, nowMs: number) => call('take', route, key, nowMs) });
  return {
    polls: {
      putNewPoll: (poll) => call('putNewPoll', poll),
      getPoll: (id) => call('getPoll', id),
      getCounts,
      claimVoter: (...args) => call('claimVoter', ...args),
      releaseVoter: (...args) => call('releaseVoter', ...args),
      send: (vote, { keyed }) => request<void>(`vote\t${voteLine(voteRecord(vote, keyed))}`),
    },
    limits: limited ? { createPoll: take('createPoll'), castVote: take('castVote') } : {},
    idle: () => (waiting.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve))),
    /** The primary is gone: nothing out will be answered, so nothing of it was acknowledged. */
    fail(error) {
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
      drained?.();
    },
  };
}
