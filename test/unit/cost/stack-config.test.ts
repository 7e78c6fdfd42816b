/**
 * What the cost model reads from a synthesized template (cost/estimate/stack-config.ts): the API kind, each
 * function's settings, the consumer's batching and how results are delivered.
 */
import { describe, expect, it } from 'vitest';
import { POLL_READ_CACHE_SECONDS } from '../../../config/caching';
import { DEPLOYABLE_DESIGNS } from '../../../cost/estimate/designs';
import { readStackConfig } from '../../../cost/estimate/stack-config';
import { designStack } from '../../support/cost';
import { templateFor } from '../../support/synth';

describe('the stack as the model reads it', () => {
  it.each(['http', 'rest'] as const)('reads the %s template', (kind) => {
    const config = readStackConfig(templateFor(kind).toJSON());
    expect(config.apiKind).toBe(kind);
    expect(config.corsPreflight).toBe(true);
    expect(config.results).toBe('api');
    expect(config.consumer).toEqual({ batchSize: 10, maxBatchingWindowSeconds: 0 });
    expect(
      Object.values(config.functions).every(
        (f) =>
          f.memoryMb === 256 &&
          f.architecture === 'arm64' &&
          f.logFormat === 'JSON' &&
          f.systemLogLevel === 'WARN' &&
          !f.tracing,
      ),
    ).toBe(true);
  });

  it('knows each design from its template', () => {
    const stacks = Object.fromEntries(DEPLOYABLE_DESIGNS.map((d) => [d.id, designStack(d.context)]));
    expect(stacks.api).toMatchObject({
      results: 'api',
      apiKind: 'http',
      corsPreflight: true,
      apiThroughCloudFront: false,
      pollReadCacheSeconds: 0,
    });
    expect(stacks['api-rest']).toMatchObject({ results: 'api', apiKind: 'rest' });
    expect(stacks['function-url']).toMatchObject({
      results: 'function-url',
      resultsConcurrency: 200,
      corsPreflight: true,
    });
    expect(stacks.cloudfront).toMatchObject({
      results: 'cloudfront',
      apiThroughCloudFront: true,
      corsPreflight: false,
      // The poll behaviour's max TTL: the max-age a poll's answer carries at most.
      pollReadCacheSeconds: POLL_READ_CACHE_SECONDS,
    });
  });

  it('says what a file lacks when it is not this stack’s template', () => {
    expect(() => readStackConfig({})).toThrow('Not a CloudFormation template: it has no Resources.');
    const template = templateFor('http').toJSON();
    const withoutConsumer = Object.fromEntries(
      Object.entries(template.Resources).filter(
        ([, r]) => (r as { Type: string }).Type !== 'AWS::Lambda::EventSourceMapping',
      ),
    );
    expect(() => readStackConfig({ Resources: withoutConsumer })).toThrow(/no SQS event source for the vote consumer/);
    const withoutFunctions = Object.fromEntries(
      Object.entries(template.Resources).filter(([, r]) => (r as { Type: string }).Type !== 'AWS::Lambda::Function'),
    );
    expect(() => readStackConfig({ Resources: withoutFunctions })).toThrow(/has no function for createPoll, getPoll/);
  });
});
