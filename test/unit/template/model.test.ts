/**
 * The template's one model (template/model.ts), which the local runtime and the estimator both read: the
 * committed templates of this app, and a copy changed as a pull request may change it, read without throwing, the
 * change in both readers' views, and each resource of a type the model does not read listed by type and id (a
 * template stripped of a resource's properties: test/unit/cost/estimate/stack-config.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { FUNCTION_METADATA } from '../../../config/functions';
import { readStack } from '../../../cost/estimate/stack-config';
import { readTemplate } from '../../../local/template-model';
import { readStackTemplate } from '../../../template/model';
import { committedTemplate } from '../../support/templates';

type Json = any;
const idOf = (template: Json, prefix: string) => Object.keys(template.Resources).find((id) => id.startsWith(prefix))!;
const functionId = (template: Json, name: string) =>
  Object.keys(template.Resources).find((id) => template.Resources[id].Metadata?.[FUNCTION_METADATA.name] === name)!;

describe("the template's model", () => {
  it('reads the functions, the table, the queues, the API and the distribution of the committed template', () => {
    const template = committedTemplate('default');
    const model = readStackTemplate(template);
    // The custom resources' providers (bucket cleanup, site upload) are deploy machinery: not the app's functions.
    expect(model.functions.map((fn) => fn.name).sort()).toEqual([
      'CastVote',
      'CountVotes',
      'CreatePoll',
      'GetPoll',
      'GetResults',
    ]);
    expect(model.functions.every((fn) => fn.memoryMb === 256 && fn.architecture === 'arm64')).toBe(true);
    expect(model.tables.map((t) => [t.logicalId, t.ttlAttribute, t.indexes])).toEqual([
      [idOf(template, 'PollTable'), 'expiresAt', []],
    ]);
    const voteQueue = idOf(template, 'VotesVoteQueue');
    expect(model.queues.find((q) => q.logicalId === voteQueue)?.redrive?.deadLetterLogicalId).toBe(
      idOf(template, 'VotesDeadLetterQueue'),
    );
    expect(model.eventSources).toMatchObject([
      { queueLogicalId: voteQueue, functionLogicalId: functionId(template, 'CountVotes'), batchSize: 10 },
    ]);
    expect(model.apiKind).toBe('http');
    expect(model.routes).toContainEqual({
      method: 'POST',
      path: '/api/poll/{id}/vote',
      functionLogicalId: functionId(template, 'CastVote'),
    });
    expect(model.distributions).toMatchObject([{ origins: [idOf(template, 'SiteBucket')], siteRouter: true }]);
    expect(model.region).toBe('us-east-1');
  });

  it("reads the function URL design's URL and its cap", () => {
    const template = committedTemplate('function-url');
    const model = readStackTemplate(template);
    const results = functionId(template, 'GetResults');
    expect(model.functionUrls.map((url) => url.functionLogicalId)).toEqual([results]);
    expect(model.functions.find((fn) => fn.logicalId === results)?.reservedConcurrency).toBe(200);
  });

  it('reads a changed template without throwing: the change in both views, what it does not read listed', () => {
    const template = committedTemplate('default');
    const castVote = functionId(template, 'CastVote');
    Object.assign(template.Resources[castVote].Properties, { MemorySize: 1024, Architectures: ['x86_64'] });
    Object.assign(template.Resources, {
      KeyA1B2: { Type: 'AWS::KMS::Key', Properties: {} },
      WebAcl: { Type: 'AWS::WAFv2::WebACL' },
      BareQueue: { Type: 'AWS::SQS::Queue' },
    });
    const model = readStackTemplate(template);
    expect(model.functions.find((fn) => fn.logicalId === castVote)).toMatchObject({
      memoryMb: 1024,
      architecture: 'x86_64',
    });
    expect(model.queues.find((q) => q.logicalId === 'BareQueue')).toEqual({
      logicalId: 'BareQueue',
      name: 'BareQueue',
      fifo: false,
      dedupePerGroup: false,
      visibilityTimeoutSeconds: 30,
      redrive: undefined,
    });
    expect(model.unread).toEqual([
      ...readStackTemplate(committedTemplate('default')).unread,
      { type: 'AWS::KMS::Key', logicalId: 'KeyA1B2' },
      { type: 'AWS::WAFv2::WebACL', logicalId: 'WebAcl' },
    ]);
    expect(readTemplate(template).functions.find((fn) => fn.logicalId === castVote)?.memoryMb).toBe(1024);
    const reading = readStack(template);
    expect(reading.stack.functions.castVote).toMatchObject({ memoryMb: 1024, architecture: 'x86_64' });
    expect(reading.notPriced.map((n) => `${n.type} ${n.logicalId}`)).toEqual([
      'AWS::KMS::Key KeyA1B2',
      'AWS::WAFv2::WebACL WebAcl',
      'AWS::SQS::Queue BareQueue',
    ]);
  });
});
