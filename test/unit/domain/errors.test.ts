/**
 * The error bases (domain/errors.ts): every error says which it is, even minified, and keeps
 * the error it replaces as its cause; a client's error body is its code and message, never the cause.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ProfileError } from '../../../cost/usage/profiles';
import { MeasuredRunError } from '../../../cost/usage/measured';
import { CommandFailure, NamedError, PollError, UsageError } from '../../../domain/errors';
import { BatchFailedError } from '../../../lambdas/handlers/count-votes';
import { AwsLimitsError } from '../../../local/aws-limits';
import { TemplateError } from '../../../cost/estimate/stack-config';
import { NoPriceBook, NoViewersBook } from '../../../pricing/price-book';
import { UnknownCurrency } from '../../../pricing/exchange-rates';
import { BadBox } from '../../../cost/usage/own-box';
import { BadWorkerCurve } from '../../../cost/estimate/vps';
import { castVoteHandler } from '../../../lambdas/handlers/cast-vote';
import { answer } from '../../../lambdas/handlers/http';
import { apiRequest, NOW, testPoll } from '../../support/factories';
import { FakePollStore, FakeVoteSink, MemoryLog } from '../../support/fakes';

const cause = new Error('ECONNREFUSED 10.0.0.7:443 (queue https://sqs.internal/123456789012/votes.fifo)');

const ROOT = join(__dirname, '..', '..', '..');

/** Every error class the project's source declares (`class X extends ...Error`), by name. */
function declaredErrorClasses(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'test', 'cdk.out', '.git'].includes(entry.name) || entry.name.startsWith('.')
        ? []
        : declaredErrorClasses(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) return [];
    return [...readFileSync(path, 'utf8').matchAll(/\bclass (\w+) extends (\w+)/g)]
      .filter(([, , base]) => base.endsWith('Error'))
      .map(([, name]) => `${name} (${relative(ROOT, path)})`);
  });
}

const EVERY_ERROR: Array<[string, NamedError]> = [
  ['UsageError', new UsageError('--port must be a number', { cause })],
  ['CommandFailure', new CommandFailure('nothing answers', { cause })],
  ['MeasuredRunError', new MeasuredRunError('the run queued no votes', { cause })],
  ['PollError', new PollError('vote_not_queued', 'try again', { cause })],
  ['ProfileError', new ProfileError('votesPerMonth', 'must be a number', { cause })],
  ['AwsLimitsError', new AwsLimitsError('--aws-limits must be in (0, 1]', { cause })],
  ['TemplateError', new TemplateError('it has no Resources', { cause })],
  ['NoPriceBook', new NoPriceBook('eu-central-1', { cause })],
  ['NoViewersBook', new NoViewersBook('Europe', { cause })],
  ['BadBox', new BadBox('price', 'the price "-5" must be a number above 0', { cause })],
  ['BadWorkerCurve', new BadWorkerCurve('workerCurve: workers must be whole counts', { cause })],
  ['UnknownCurrency', new UnknownCurrency('--currency XYZ: no rate for it', { cause })],
  ['BatchFailedError', Object.assign(new BatchFailedError([{ messageId: 'm1', reason: 'throttled' }]), { cause })],
];

describe('every error of ours', () => {
  it('is in this list: each class the source declares', () => {
    const declared = declaredErrorClasses().map((entry) => entry.split(' ')[0]);
    expect(declared.length).toBeGreaterThanOrEqual(EVERY_ERROR.length);
    expect([...new Set(declared)].sort()).toEqual([...EVERY_ERROR.map(([name]) => name), 'NamedError'].sort());
  });

  it.each(EVERY_ERROR)('%s extends the named base, says its name and keeps its cause', (name, error) => {
    expect(error).toBeInstanceOf(NamedError);
    expect(error.name).toBe(name);
    expect(String(error)).toMatch(new RegExp(`^${name}: `));
    expect(error.cause).toBe(cause);
  });

  it('keeps its name in a minified bundle, where class names are mangled', async () => {
    const bundled = await build({
      stdin: {
        contents:
          "import { PollError, UsageError } from './domain/errors';" +
          'export const names = [new UsageError("x").name, new PollError("not_found", "x").name];',
        resolveDir: process.cwd(),
        loader: 'ts',
      },
      bundle: true,
      minify: true,
      format: 'cjs',
      write: false,
    });
    const module = { exports: {} as { names?: string[] } };
    new Function('module', 'exports', bundled.outputFiles[0].text)(module, module.exports);
    expect(module.exports.names).toEqual(['UsageError', 'PollError']);
  });
});

describe('a refusal with a cause', () => {
  it('keeps the rate limit’s retry-after beside the cause', () => {
    expect(new PollError('rate_limited', 'slow down', { retryAfterSeconds: 7 }).retryAfterSeconds).toBe(7);
  });

  it('answers the client with its code and message only: the queue’s error stays in the log', async () => {
    const polls = new FakePollStore();
    const votes = new FakeVoteSink();
    const poll = testPoll();
    await polls.putNewPoll(poll);
    votes.failWith = cause;
    const cast = castVoteHandler({ polls, votes, log: new MemoryLog(), clock: () => NOW });
    const request = apiRequest({
      method: 'POST',
      route: '/api/poll/{id}/vote',
      pathParameters: { id: poll.id },
      body: JSON.stringify({ option: 0 }),
    });

    const thrown = await cast(request).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(PollError);
    expect((thrown as PollError).cause).toBe(cause);

    const answered = await answer(cast, request, new MemoryLog());
    expect(answered.status).toBe(503);
    expect(answered.body).toEqual({
      error: { code: 'vote_not_queued', message: 'Your vote could not be recorded; please try again.' },
    });
    expect(JSON.stringify(answered.body)).not.toMatch(/ECONNREFUSED|sqs|cause/);
  });
});
