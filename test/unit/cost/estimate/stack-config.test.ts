/**
 * What the cost model reads from a synthesized template (cost/estimate/stack-config.ts): the API kind, each
 * function's settings, the consumer's batching and how results are delivered.
 */
import { describe, expect, it } from 'vitest';
import { POLL_READ_CACHE_SECONDS } from '../../../../config/caching';
import { DEPLOYABLE_DESIGNS } from '../../../../cost/estimate/designs';
import { readStack, readStackConfig, TemplateError } from '../../../../cost/estimate/stack-config';
import { synthesizeTemplate } from '../../../../lib/app';
import { committedTemplate } from '../../../support/templates';
import { designStack } from '../../../support/cost';
import { templateFor } from '../../../support/synth';

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

  it('prices every deployable design whole: nothing of theirs is left unpriced, no part is missing', () => {
    for (const design of DEPLOYABLE_DESIGNS) {
      const template = design.context.apiKind
        ? templateFor('rest').toJSON()
        : design.context.results
          ? synthesizeTemplate(design.context)
          : templateFor('http').toJSON();
      const reading = readStack(template);
      expect([design.id, reading.notPriced, reading.missing]).toEqual([design.id, [], []]);
    }
  });

  it('reads a changed template without throwing, and lists by type and logical id what it does not price', () => {
    const template = committedTemplate('default');
    const tableId = Object.keys(template.Resources).find((id) => id.startsWith('PollTable'))!;
    const table = template.Resources[tableId];
    table.Properties.GlobalSecondaryIndexes = [{ IndexName: 'ByOwner', KeySchema: [], Projection: {} }];
    Object.assign(template.Resources, {
      KeyA1B2: { Type: 'AWS::KMS::Key', Properties: {} },
      WebAcl: { Type: 'AWS::WAFv2::WebACL', Properties: {} },
      ExtraQueue: { Type: 'AWS::SQS::Queue', Properties: {} },
    });
    const reading = readStack(template);
    expect(reading.notPriced.map((n) => `${n.type} ${n.logicalId}`).sort()).toEqual([
      `AWS::DynamoDB::Table ${tableId}`,
      'AWS::KMS::Key KeyA1B2',
      'AWS::SQS::Queue ExtraQueue',
      'AWS::WAFv2::WebACL WebAcl',
    ]);
    expect(reading.notPriced.find((n) => n.logicalId === tableId)?.why).toMatch(/index ByOwner/);
    expect(reading.stack).toEqual(readStack(committedTemplate('default')).stack);
  });

  it('never throws on a template of this app with any one resource stripped of its properties or its metadata', () => {
    const ids = Object.keys(committedTemplate('default').Resources);
    for (const id of ids)
      for (const strip of ['Properties', 'Metadata'] as const) {
        const template = committedTemplate('default');
        delete template.Resources[id][strip];
        expect(() => readStack(template), `${id} without ${strip}`).not.toThrow();
      }
  });

  it('prices the rest of a template that lacks a part, and says which part', () => {
    const template = committedTemplate('default');
    for (const [id, r] of Object.entries(template.Resources))
      if ((r as { Type: string }).Type === 'AWS::Lambda::EventSourceMapping') delete template.Resources[id];
    const reading = readStack(template);
    expect(reading.missing).toEqual([
      { part: 'no SQS event source for the vote consumer', pricedAs: 'batches of 10 with no batching window' },
    ]);
    expect(reading.stack.consumer).toEqual(readStack(committedTemplate('default')).stack.consumer);
  });

  it('refuses another app’s template: no poll table, no vote queue', () => {
    const other = { Resources: { Bucket: { Type: 'AWS::S3::Bucket', Properties: {} } } };
    expect(() => readStack(other)).toThrow(TemplateError);
    expect(() => readStack(other)).toThrow(
      'Not a template of this app: it has no DynamoDB table (the polls) and no SQS queue (the votes).',
    );
    expect(() => readStack({ AWSTemplateFormatVersion: '2010-09-09' })).toThrow(/no Resources/);
  });
});
