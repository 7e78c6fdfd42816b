/**
 * The API's OpenAPI description (docs/openapi.yaml), read by maintained validators: the document
 * against the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator), answers against its
 * operations (openapi-backend, with ajv-formats for `date-time`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Document } from 'openapi-backend';

export const OPENAPI_PATH = fileURLToPath(new URL('../../docs/openapi.yaml', import.meta.url));

export async function loadOpenApi() {
  const validator = new Validator();
  const result = await validator.validate(readFileSync(OPENAPI_PATH, 'utf8'));
  // Quick: openapi-backend would check the document against the 3.0 schema; the validator above checks it as 3.1.
  const api = new OpenAPIBackend({
    definition: validator.specification as unknown as Document,
    quick: true,
    strict: true,
    customizeAjv: (ajv) => {
      addFormats(ajv);
      return ajv;
    },
  });
  await api.init();
  return { result, document: validator.specification as Record<string, any>, api };
}

/** One request and its answer, as a client saw it. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  /** The body, parsed as JSON (undefined when it is not). */
  body: unknown;
}

/**
 * What in an answer disagrees with the description: its operation, its status (an undescribed status
 * would pass openapi-backend unchecked), its media type, its body and its headers. Empty: it agrees.
 */
export function disagreements(api: OpenAPIBackend, exchange: Exchange): string[] {
  const { method, path, status } = exchange;
  const operation = api.matchOperation({ method, path, headers: {} });
  if (!operation) return [`${method} ${path}: no operation describes it`];
  const name = `${operation.operationId} ${status}`;
  const described = (operation.responses as Record<string, any> | undefined)?.[String(status)];
  if (!described) return [`${name}: the status is not described`];
  const problems: string[] = [];
  const contentType = exchange.headers.get('content-type') ?? '';
  const mediaTypes = Object.keys(described.content ?? {});
  if (!mediaTypes.some((type) => contentType.startsWith(type)))
    problems.push(`${name}: content-type ${contentType}, described ${mediaTypes.join(', ')}`);
  const body = api.validateResponse(exchange.body, operation, status);
  const headers = api.validateResponseHeaders(Object.fromEntries(exchange.headers), operation, { statusCode: status });
  for (const error of [...(body.errors ?? []), ...(headers.errors ?? [])])
    problems.push(`${name}: ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
  return problems;
}
