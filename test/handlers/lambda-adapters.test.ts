/** The Lambda-side adapters without AWS: HTTP events to the API's request shape, and metrics to CloudWatch's format. */
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { CONSUMER_METRICS } from '../../config/vote-queue';
import { ROUTES } from '../../config/api-contract';
import { apiGatewayHandler, toApiRequest } from '../../lambdas/adapters/api-gateway';
import { powertoolsMetrics } from '../../lambdas/adapters/metrics';
import { routeMatcher, type ApiRoute } from '../../lambdas/handlers/http';
import { functionUrlEvent, httpApiEvent, restApiEvent } from '../support/factories';

const resultsRoutes = ROUTES.filter((r) => r.fn === 'getResults');
const resultsMatch = routeMatcher(resultsRoutes);
const ID = 'x'.repeat(21);

describe('HTTP events', () => {
  it('read the same request from an HTTP API, a REST API and a function URL', () => {
    const expected = {
      method: 'GET',
      route: '/api/poll/{id}/results',
      pathParameters: { id: ID },
      sourceIp: '192.0.2.1',
    };
    expect(
      toApiRequest(
        httpApiEvent('GET', `/api/poll/${ID}/results`, {
          route: '/api/poll/{id}/results',
          pathParameters: { id: ID },
        }),
        resultsMatch,
      ),
    ).toMatchObject(expected);
    expect(
      toApiRequest(restApiEvent('GET', '/api/poll/{id}/results', { pathParameters: { id: ID } }), resultsMatch),
    ).toMatchObject(expected);
    // A function URL has no router in front: the path is matched against the function's routes.
    expect(toApiRequest(functionUrlEvent('GET', `/api/poll/${ID}/results`), resultsMatch)).toMatchObject(expected);
  });

  it('answer a function URL request for another path or method in the API’s error shape', () => {
    expect(toApiRequest(functionUrlEvent('GET', '/api/poll'), resultsMatch)).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
    expect(toApiRequest(functionUrlEvent('DELETE', `/api/poll/${ID}/results`), resultsMatch)).toMatchObject({
      status: 405,
      body: { error: { code: 'method_not_allowed', message: 'Use GET here.' } },
      headers: { allow: 'GET' },
    });
    // A malformed escape stays as typed: the id check refuses it like any bad id.
    expect(toApiRequest(functionUrlEvent('GET', '/api/poll/50%off/results'), resultsMatch)).toMatchObject({
      pathParameters: { id: '50%off' },
    });
  });

  it('give a REST API answer the site’s CORS origin, and decode a base64 body', async () => {
    const seen: string[] = [];
    const route: ApiRoute = async (request) => {
      seen.push(request.body ?? '');
      return { status: 200, body: { ok: true } };
    };
    const logger = { addContext: () => undefined, error: () => undefined, warn: () => undefined } as unknown as Logger;
    const handler = apiGatewayHandler(route, {
      logger,
      routes: resultsRoutes,
      siteOrigin: 'https://d111.cloudfront.net',
    });
    const event = {
      ...restApiEvent('GET', '/api/poll/{id}/results', { pathParameters: { id: ID } }),
      body: Buffer.from('{"a":1}').toString('base64'),
      isBase64Encoded: true,
    };
    const result = await handler(event, {} as Context);
    expect(result).toMatchObject({
      statusCode: 200,
      headers: {
        'access-control-allow-origin': 'https://d111.cloudfront.net',
        'access-control-expose-headers': 'retry-after',
        'content-type': 'application/json; charset=utf-8',
      },
    });
    expect(seen).toEqual(['{"a":1}']);
  });
});

describe('consumer metrics', () => {
  it('are CloudWatch embedded-metric-format counts in the configured namespace', () => {
    const metrics = new Metrics({ namespace: CONSUMER_METRICS.namespace, serviceName: 'poll' });
    const port = powertoolsMetrics(metrics);
    port.add('VotesCounted', 7);
    port.add('Batches', 1);
    const emf = metrics.serializeMetrics();
    const [directive] = emf._aws.CloudWatchMetrics;
    expect(directive.Namespace).toBe('ServerlessPoll');
    expect(directive.Metrics).toEqual([
      { Name: 'VotesCounted', Unit: 'Count' },
      { Name: 'Batches', Unit: 'Count' },
    ]);
    expect(emf).toMatchObject({ VotesCounted: 7, Batches: 1, service: 'poll' });
  });
});
