/**
 * docs/openapi.yaml against the code's own definitions: a valid OpenAPI 3.1 document, with the routes
 * of config/api-contract.ts (no more, no fewer), every error code at the status lambdas/handlers/http.ts
 * answers it with, and the limits of POLL_LIMITS and IDEMPOTENCY. What the editions really answer is
 * checked against it in test/editions/openapi-answers.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY, POLL_LIMITS, ROUTES } from '../../config/api-contract';
import type { ErrorCode } from '../../domain/errors';
import { ERROR_STATUS } from '../../lambdas/handlers/http';
import { loadOpenApi } from '../support/openapi';

let openApi: Awaited<ReturnType<typeof loadOpenApi>>;
beforeAll(async () => {
  openApi = await loadOpenApi();
});

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The error codes a (dereferenced) response schema names: `error.code`'s enum, in any allOf or oneOf branch. */
function codesIn(schema: any): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const own: string[] = schema.properties?.error?.properties?.code?.enum ?? [];
  return [...own, ...[...(schema.allOf ?? []), ...(schema.oneOf ?? [])].flatMap(codesIn)];
}

describe('docs/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    expect(openApi.result.errors).toBeUndefined();
    expect(openApi.result.valid).toBe(true);
    expect(openApi.document.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it('describes every route of config/api-contract.ts, and no other', () => {
    const described = Object.entries<Record<string, unknown>>(openApi.document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => method in item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(described.sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.path}`).sort());
  });

  it('names every error code at the status the API answers it with, and no code the API does not have', () => {
    const described = new Map<string, Set<number>>();
    for (const operation of openApi.api.getOperations())
      for (const [status, response] of Object.entries<any>(operation.responses ?? {}))
        for (const code of codesIn(response.content?.['application/json']?.schema))
          described.set(code, new Set([...(described.get(code) ?? []), Number(status)]));
    // No route can be asked with a method it does not take: that answer is described on its own.
    const methodNotAllowed = openApi.document.components.responses.MethodNotAllowed;
    expect(codesIn(methodNotAllowed.content['application/json'].schema)).toEqual(['method_not_allowed']);
    described.set('method_not_allowed', new Set([ERROR_STATUS.method_not_allowed]));

    expect([...described.keys()].sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    for (const [code, statuses] of described) expect([...statuses], code).toEqual([ERROR_STATUS[code as ErrorCode]]);
  });

  it('states the limits the API enforces', () => {
    const { schemas, parameters } = openApi.document.components;
    const maxLengthOf = (schema: any) => schema.allOf.find((s: any) => 'maxLength' in s).maxLength;
    expect(maxLengthOf(schemas.NewPoll.properties.title)).toBe(POLL_LIMITS.titleMaxLength);
    expect(schemas.Options).toMatchObject({ minItems: POLL_LIMITS.minOptions, maxItems: POLL_LIMITS.maxOptions });
    expect(maxLengthOf(schemas.Options.items)).toBe(POLL_LIMITS.optionMaxLength);
    expect(schemas.NewPoll.properties.lifetimeMinutes).toMatchObject({
      minimum: POLL_LIMITS.minLifetimeMinutes,
      maximum: POLL_LIMITS.maxLifetimeMinutes,
      default: POLL_LIMITS.defaultLifetimeMinutes,
    });
    expect(schemas.PollId.pattern).toBe(`^[A-Za-z0-9_-]{${POLL_LIMITS.idLength}}$`);
    expect(parameters.PollId.schema.$ref).toBe('#/components/schemas/PollId');
    const key = openApi.api
      .getOperation('castVote')!
      .parameters!.find((p: any) => p.in === 'header' && p.name.toLowerCase() === IDEMPOTENCY.header) as any;
    expect(key.schema.pattern).toBe(`^[A-Za-z0-9_-]{1,${IDEMPOTENCY.maxLength}}$`);
  });
});
