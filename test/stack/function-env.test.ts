/**
 * The stack sets each function's environment from the table (config/function-env.ts): on every design, a
 * function gets only variables the table says it reads, and every variable the table says the stack sets
 * is set somewhere.
 */
import { describe, expect, it } from 'vitest';
import { FUNCTION_ENV } from '../../config/function-env';
import { type AppFunctionId, type AppFunctionName, FUNCTION_METADATA } from '../../config/functions';
import { appFunctionName, functionEnvironment } from '../../lib/functions';
import { synthesizeTemplate } from '../../lib/app';

/** Between them, every variable the stack can set: a hot poll, a CAPTCHA, each results design, LocalStack. */
const DESIGNS: Record<string, Record<string, string>> = {
  default: {},
  'hot poll, CAPTCHA, results=cloudfront': {
    hotPollVotesPerSecond: '50000',
    captcha: 'turnstile',
    captchaSiteKey: 'key',
    captchaSecretParameter: '/poll/captcha',
    results: 'cloudfront',
  },
  'REST, results=function-url, no rate limits': { apiKind: 'rest', results: 'function-url', rateLimits: 'off' },
  localstack: { target: 'localstack' },
};

/** Each app function's environment in a template, by the function's name (`CreatePoll` is createPoll). */
function environments(template: ReturnType<typeof synthesizeTemplate>): Map<AppFunctionName, Record<string, unknown>> {
  const found = new Map<AppFunctionName, Record<string, unknown>>();
  for (const resource of Object.values<any>(template.Resources)) {
    const id: AppFunctionId | undefined = resource.Metadata?.[FUNCTION_METADATA.name];
    if (id) found.set(appFunctionName(id), resource.Properties.Environment.Variables);
  }
  return found;
}

const BY_NAME = new Map(Object.values(FUNCTION_ENV).map((variable) => [variable.name as string, variable]));

describe("each function's environment in the template", () => {
  const templates = Object.entries(DESIGNS).map(([design, context]) => ({
    design,
    fns: environments(synthesizeTemplate(context)),
  }));

  it.each(templates)('$design: holds only what the table gives that function', ({ fns }) => {
    expect([...fns.keys()].sort()).toEqual(['castVote', 'countVotes', 'createPoll', 'getPoll', 'getResults']);
    for (const [fn, variables] of fns) {
      for (const name of Object.keys(variables)) {
        const variable = BY_NAME.get(name);
        expect(variable, `${fn} is given ${name}, which config/function-env.ts does not hold`).toBeDefined();
        expect(variable!.functions, `${fn} is given ${name}`).toContain(fn);
        expect('localOnly' in variable!, `${name} is the local runtime's`).toBe(false);
      }
      expect(variables).toHaveProperty(FUNCTION_ENV.tableName.name);
      expect(variables).toHaveProperty(FUNCTION_ENV.serviceName.name);
    }
  });

  it('sets, on some design, every variable the table says the stack sets', () => {
    const set = new Set(
      templates.flatMap(({ fns }) => [...fns.values()].flatMap((variables) => Object.keys(variables))),
    );
    const fromStack = Object.values(FUNCTION_ENV).filter((variable) => !('localOnly' in variable));
    expect([...set].sort()).toEqual(fromStack.map((variable) => variable.name).sort());
  });
});

describe('functionEnvironment', () => {
  it('names each setting as the table does, in the order given', () => {
    expect(
      Object.entries(functionEnvironment('castVote', { tableName: 't', queueUrl: 'q', rateLimit: 'off' })),
    ).toEqual([
      [FUNCTION_ENV.tableName.name, 't'],
      [FUNCTION_ENV.queueUrl.name, 'q'],
      [FUNCTION_ENV.rateLimit.name, 'off'],
    ]);
  });

  it("refuses a setting the function does not read, or one that is the local runtime's", () => {
    expect(() => functionEnvironment('getPoll', { queueUrl: 'q' })).toThrow(
      `The stack does not set ${FUNCTION_ENV.queueUrl.name} on getPoll`,
    );
    expect(() => functionEnvironment('castVote', { sqsEndpoint: 'http://127.0.0.1' })).toThrow(
      FUNCTION_ENV.sqsEndpoint.name,
    );
  });
});
