/**
 * How the VPS edition's workers reach the one state of the box: each worker serves HTTP with the
 * same handlers, and every read and change of polls, votes, voter claims, ballot keys and rate
 * limits is a call over node:cluster's IPC channel to the primary, which owns the state and its
 * log. So a vote is on disk before any worker acknowledges it, a key names one ballot whichever
 * worker sees it, and a client's limit is one limit for the box, as with one process.
 */
import { PollError } from '../lambdas/domain/errors';
import type { RateLimitedRoute, VpsPorts } from './server';

/** One end of the IPC channel: a cluster Worker in the primary, `process` in a worker. */
export interface Channel {
  /** With a callback, a channel that has closed says so there, instead of as an 'error' event nobody heard. */
  send(message: unknown, handle: undefined, options: undefined, callback: (error: Error | null) => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

/** Each call a worker makes: the state's own methods, and a token from a route's rate limit. */
type StateOp = 'putNewPoll' | 'getPoll' | 'getCounts' | 'claimVoter' | 'releaseVoter' | 'send';
type Calls = Pick<VpsPorts['polls'], StateOp> & {
  take(route: RateLimitedRoute, key: string, nowMs: number): number | Promise<number>;
};
type Op = keyof Calls;

interface CallMessage {
  call: number;
  op: Op;
  args: unknown[];
}

/** An error as it crosses the channel: a PollError keeps what its answer is made of. */
interface WireError {
  message: string;
  code?: PollError['code'];
  retryAfterSeconds?: number;
  field?: string;
}

interface ReplyMessage {
  reply: number;
  value?: unknown;
  error?: WireError;
}

/** What crosses the channel: the calls (or replies) of one turn of the event loop together. */
interface Batch<T> {
  batch: T[];
}

/**
 * Sends what is said within one turn of the event loop as one message: under load a turn handles many
 * requests, and each message costs a write and a parse on both sides. A channel that closed meanwhile
 * takes nothing: a worker hears of it by its 'disconnect'; the primary has no one left to answer, whose
 * clients got no answer either.
 */
function batched<T>(channel: Channel): (item: T) => void {
  let items: T[] = [];
  return (item) => {
    items.push(item);
    if (items.length > 1) return;
    setImmediate(() => {
      const batch = items;
      items = [];
      channel.send({ batch } satisfies Batch<T>, undefined, undefined, () => undefined);
    });
  };
}

/** Each item of a batch the channel brings that is what `is` expects; anything else is dropped. */
function onBatch<T>(channel: Channel, is: (item: unknown) => item is T, handle: (item: T) => void): void {
  channel.on('message', (message) => {
    const { batch } = (typeof message === 'object' && message !== null ? message : {}) as Partial<Batch<unknown>>;
    if (Array.isArray(batch)) for (const item of batch) if (is(item)) handle(item);
  });
}

const isRecord = (item: unknown): item is Record<string, unknown> => typeof item === 'object' && item !== null;

const toWire = (error: unknown): WireError =>
  error instanceof PollError
    ? { message: error.message, code: error.code, retryAfterSeconds: error.retryAfterSeconds, field: error.field }
    : { message: (error as Error)?.message ?? String(error) };

const fromWire = ({ message, code, ...options }: WireError): Error =>
  code ? new PollError(code, message, options) : new Error(message);

/** In the primary: answers a worker's calls from the ports that hold the box's state. */
export function answerCalls(worker: Channel, { polls, limits }: VpsPorts): void {
  const handlers: Calls = {
    putNewPoll: (poll) => polls.putNewPoll(poll),
    getPoll: (id) => polls.getPoll(id),
    getCounts: (id) => polls.getCounts(id),
    claimVoter: (...args) => polls.claimVoter(...args),
    releaseVoter: (...args) => polls.releaseVoter(...args),
    send: (vote, keyed) => polls.send(vote, keyed),
    take: (route, key, nowMs) => limits[route]?.take(key, nowMs) ?? 0,
  };
  const reply = batched<ReplyMessage>(worker);
  const isCall = (item: unknown): item is CallMessage =>
    isRecord(item) &&
    Number.isInteger(item.call) &&
    typeof item.op === 'string' &&
    Object.hasOwn(handlers, item.op) &&
    Array.isArray(item.args);
  onBatch(worker, isCall, (message) => {
    const handler = handlers[message.op] as (...args: unknown[]) => unknown;
    // JSON carries an argument left out (a vote without a ballot) as null: the ports take it as left out.
    const args = message.args.map((arg) => arg ?? undefined);
    void Promise.resolve()
      .then(() => handler(...args))
      .then(
        (value) => reply({ reply: message.call, value }),
        (error: unknown) => reply({ reply: message.call, error: toWire(error) }),
      );
  });
}

/**
 * In a worker: the ports whose every call is answered by the primary (rate limits only when `limited`),
 * and a wait for the calls still out.
 */
export function remotePorts(
  primary: Channel,
  limited: boolean,
): VpsPorts & { idle(): Promise<void>; fail(error: Error): void } {
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 0;
  let drained: (() => void) | undefined;
  const send = batched<CallMessage>(primary);
  const isReply = (item: unknown): item is ReplyMessage => isRecord(item) && Number.isInteger(item.reply);
  onBatch(primary, isReply, (message) => {
    const call = waiting.get(message.reply);
    waiting.delete(message.reply);
    if (message.error) call?.reject(fromWire(message.error));
    else call?.resolve(message.value);
    if (waiting.size === 0) drained?.();
  });
  const call = <O extends Op>(op: O, ...args: Parameters<Calls[O]>): Promise<Awaited<ReturnType<Calls[O]>>> =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      send({ call: id, op, args });
    });
  // Results asked for while a read of the same poll is out share it: under load many ask at once, and each
  // read costs the primary. The answer may be one round trip (a millisecond or so) older than the request.
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
      send: (vote, keyed) => call('send', vote, keyed),
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
