/** The stack's template: its table, queue, functions and their rights, the API, a hot poll, rate limits, CAPTCHA. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { API_THROTTLE, RATE_LIMITS } from '../../config/throttling';
import { VOTE_QUEUE } from '../../config/vote-queue';
import { FUNCTION_METADATA } from '../../config/functions';
import { ROUTES } from '../../config/api-contract';
import { TABLE } from '../../config/table';
import { FUNCTION_ENV } from '../../config/function-env';
import { readStackConfig } from '../../cost/estimate/stack-config';
import { FLAGS } from '../../config/flags';
import { fromContext } from '../../lib/context';
import { buildApp, inTemporaryOutdir, SKIP_BUNDLING, synthesizeTemplate } from '../../lib/app';
import { templateFor } from '../support/synth';
import { actionsOf, appFunctions, declaredRoutes, type Resource, resources } from '../support/template-resources';
import { votePathFor, withApiRateLimit } from '../../sizing/vote-path';

const http = templateFor('http');

describe('the table', () => {
  it('is on-demand, keyed pk/sk, with TTL on expiresAt', () => {
    http.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false },
    });
    http.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Delete' });
  });
});

describe('the vote queue', () => {
  it('is high-throughput FIFO, SSE, with a FIFO dead-letter queue after a few receives', () => {
    const queues = resources('AWS::SQS::Queue');
    expect(queues).toHaveLength(2);
    const [, main] = queues.find(([, q]) => q.Properties.RedrivePolicy)!;
    expect(main.Properties).toMatchObject({
      FifoQueue: true,
      FifoThroughputLimit: 'perMessageGroupId',
      DeduplicationScope: 'messageGroup',
      VisibilityTimeout: VOTE_QUEUE.visibilityTimeoutSeconds,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { maxReceiveCount: VOTE_QUEUE.maxReceiveCount },
    });
    const [dlqId, dlq] = queues.find(([, q]) => !q.Properties.RedrivePolicy)!;
    expect(dlq.Properties.FifoQueue).toBe(true);
    expect(main.Properties.RedrivePolicy.deadLetterTargetArn).toEqual({ 'Fn::GetAtt': [dlqId, 'Arn'] });
  });

  it('refuses non-TLS access on both queues', () => {
    const policies = resources('AWS::SQS::QueuePolicy');
    expect(policies).toHaveLength(2);
    for (const [, policy] of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it('keeps the visibility timeout at least 6x the consumer timeout', () => {
    const [, consumer] = resources('AWS::Lambda::Function').find(
      ([, r]) => r.Metadata?.['poll:entry'] === 'lambdas/entries/count-votes-function.ts',
    )!;
    expect(VOTE_QUEUE.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * consumer.Properties.Timeout);
  });

  it('feeds the consumer in batches with partial batch failures', () => {
    http.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: VOTE_QUEUE.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      // FIFO event sources do not support a batching window: it must not be set.
      MaximumBatchingWindowInSeconds: Match.absent(),
    });
  });

  it('raises an alarm when the consumer fails in every minute for five minutes', () => {
    const consumer = appFunctions().find(([, r]) => r.Metadata?.['poll:function'] === 'CountVotes')!;
    http.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Errors',
      Namespace: 'AWS/Lambda',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: consumer[0] } }],
      Period: 60,
      EvaluationPeriods: 5,
      DatapointsToAlarm: 5,
      Threshold: 0,
    });
    // What it publishes is recorded for the cost model.
    expect(consumer[1].Metadata?.['poll:custom-metrics']).toEqual([
      'VotesCounted',
      'Batches',
      'WriteConflicts',
      'RecordsFailed',
    ]);
  });

  it('raises an alarm as soon as anything is in the dead-letter queue', () => {
    http.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });
});

/** The app's own functions (not CDK's deployment helpers such as the site upload). */
describe('functions', () => {
  it('run the newest Node.js runtime on arm64 with JSON logs, WARN platform logs and a retained log group', () => {
    const fns = appFunctions();
    expect(fns).toHaveLength(5);
    for (const [, fn] of fns) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        LoggingConfig: { LogFormat: 'JSON', SystemLogLevel: 'WARN' },
      });
    }
    expect(resources('AWS::Logs::LogGroup').every(([, g]) => g.Properties.RetentionInDays === 14)).toBe(true);
  });
});

describe('least privilege', () => {
  it('gives each function only the actions it calls', () => {
    expect(actionsOf('create-poll-function.ts').actions).toEqual(['dynamodb:BatchWriteItem']);
    expect(actionsOf('get-poll-function.ts').actions).toEqual(['dynamodb:GetItem']);
    expect(actionsOf('get-results-function.ts').actions).toEqual(['dynamodb:BatchGetItem', 'dynamodb:Query']);
    expect(actionsOf('cast-vote-function.ts').actions).toEqual([
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'sqs:SendMessage',
    ]);
    expect(actionsOf('count-votes-function.ts').actions).toEqual(
      [
        'dynamodb:GetItem',
        'dynamodb:UpdateItem',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
        'sqs:SendMessage',
      ].sort(),
    );
  });

  it('lets the consumer send to the dead-letter queue only, and receive from the vote queue only', () => {
    const queues = resources('AWS::SQS::Queue');
    const [voteQueueId] = queues.find(([, q]) => q.Properties.RedrivePolicy)!;
    const [dlqId] = queues.find(([, q]) => !q.Properties.RedrivePolicy)!;
    const { statements } = actionsOf('count-votes-function.ts');
    const onQueue = (action: string) =>
      statements.filter((s) => [s.Action].flat().includes(action)).map((s) => s.Resource);
    expect(onQueue('sqs:SendMessage')).toEqual([{ 'Fn::GetAtt': [dlqId, 'Arn'] }]);
    expect(onQueue('sqs:ReceiveMessage')).toEqual([{ 'Fn::GetAtt': [voteQueueId, 'Arn'] }]);
  });

  it('lets the vote function write voter claims only, never counts', () => {
    const { statements } = actionsOf('cast-vote-function.ts');
    const writes = statements.filter((s) =>
      [s.Action].flat().some((a: string) => /Put|Delete|Update|Write/.test(a) && a.startsWith('dynamodb:')),
    );
    expect(writes).toHaveLength(1);
    expect(writes[0].Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['VOTER#*'] } });
    expect(actionsOf('cast-vote-function.ts').actions).not.toContain('dynamodb:UpdateItem');
  });

  it('never grants the app functions wildcard actions', () => {
    const roles = new Set(appFunctions().map(([, fn]) => fn.Properties.Role['Fn::GetAtt'][0]));
    const policies = resources('AWS::IAM::Policy').filter(([, p]) =>
      p.Properties.Roles.some((r: any) => roles.has(r.Ref)),
    );
    expect(policies.length).toBeGreaterThanOrEqual(5);
    for (const [, policy] of policies) {
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        for (const action of [statement.Action].flat()) expect(action).not.toMatch(/\*/);
      }
    }
  });
});

/** "METHOD /path" for every route a template's API declares. */
describe('the API', () => {
  const expected = ROUTES.map((r) => `${r.method} ${r.path}`).sort();

  it('exposes the same routes as an HTTP API and as a REST API', () => {
    expect(declaredRoutes('http')).toEqual(expected);
    expect(declaredRoutes('rest')).toEqual(expected);
  });

  it('throttles the stage', () => {
    http.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
    });
    templateFor('rest').hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: Match.arrayWith([
        Match.objectLike({ ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() }),
      ]),
    });
  });

  it('builds no API Gateway v2 resources in the REST variant', () => {
    const types = Object.values(templateFor('rest').toJSON().Resources as Record<string, Resource>).map((r) => r.Type);
    expect(types.filter((t) => t.startsWith('AWS::ApiGatewayV2'))).toEqual([]);
  });

  it('names the API kind it was asked for and refuses others', () => {
    expect(fromContext(FLAGS.apiKind, undefined)).toBe('http');
    expect(fromContext(FLAGS.apiKind, 'rest')).toBe('rest');
    expect(() => fromContext(FLAGS.apiKind, 'grpc')).toThrow(/apiKind must be "http" or "rest"/);
  });

  it('outputs the URL and names a user needs', () => {
    const outputs = Object.keys(http.toJSON().Outputs);
    expect(outputs).toEqual(
      expect.arrayContaining([
        'SiteUrl',
        'ApiUrl',
        'TableName',
        'VoteQueueUrl',
        'DeadLetterQueueUrl',
        'DeadLetterAlarmName',
      ]),
    );
  });
});

describe('a hot poll (-c hotPollVotesPerSecond=, -c apiRateLimit=)', () => {
  const hot = synthesizeTemplate({ hotPollVotesPerSecond: '50000', apiRateLimit: '66000' });
  const hotRest = synthesizeTemplate({ hotPollVotesPerSecond: '50000', apiRateLimit: '66000', apiKind: 'rest' });
  const envOf = (template: { Resources: Record<string, Resource> }, entry: string) =>
    Object.values(template.Resources).find((r) => r.Metadata?.[FUNCTION_METADATA.entry] === `lambdas/entries/${entry}`)!
      .Properties.Environment.Variables;
  const sized = withApiRateLimit(votePathFor(50_000), 66_000);

  it('throttles both API stages as apiRateLimit says, and sizes groups and counter items as votePathFor says', () => {
    expect(readStackConfig(hot).votePath).toEqual({
      groupsPerPoll: sized.groupsPerPoll,
      counterShards: sized.counterShards,
      stageRateLimit: sized.stageRateLimit,
      stageBurstLimit: sized.stageBurstLimit,
    });
    expect(readStackConfig(hotRest).votePath.stageRateLimit).toBe(sized.stageRateLimit);
    expect(readStackConfig(hotRest).votePath.stageBurstLimit).toBe(sized.stageBurstLimit);
    const size = {
      [FUNCTION_ENV.groupsPerPoll.name]: '334',
      [FUNCTION_ENV.counterShards.name]: String(sized.counterShards),
    };
    // A poll takes its size at creation (its META item): only the create function is told it.
    expect(envOf(hot, 'create-poll-function.ts')).toMatchObject(size);
    for (const entry of ['cast-vote-function.ts', 'count-votes-function.ts', 'get-results-function.ts'])
      expect(Object.keys(envOf(hot, entry))).not.toContain(FUNCTION_ENV.groupsPerPoll.name);
  });

  it('without the flag: no size in any function, the default throttle', () => {
    const plain = http.toJSON() as { Resources: Record<string, Resource> };
    for (const entry of [
      'create-poll-function.ts',
      'cast-vote-function.ts',
      'count-votes-function.ts',
      'get-results-function.ts',
    ])
      expect(Object.keys(envOf(plain, entry))).not.toContain(FUNCTION_ENV.counterShards.name);
    expect(readStackConfig(plain).votePath).toEqual({
      groupsPerPoll: VOTE_QUEUE.groupsPerPoll,
      counterShards: 1,
      stageRateLimit: API_THROTTLE.rateLimit,
      stageBurstLimit: API_THROTTLE.burstLimit,
    });
    expect(synthesizeTemplate({ hotPollVotesPerSecond: 'off' })).toEqual(plain);
  });

  it('grants the same actions as without it: results read a poll laid out either way on any stack', () => {
    const granted = (template: { Resources: Record<string, Resource> }) =>
      Object.values(template.Resources)
        .filter((r) => r.Type === 'AWS::IAM::Policy')
        .flatMap((p) => p.Properties.PolicyDocument.Statement.map((s: any) => [s.Action].flat().sort().join(',')))
        .sort();
    expect(granted(hot)).toEqual(granted(http.toJSON() as { Resources: Record<string, Resource> }));
  });

  it('refuses a size that is not a whole number within the queue’s quota, with one line naming the range', () => {
    for (const value of ['0', '2.5', 'many', '1000000'])
      expect(() => synthesizeTemplate({ hotPollVotesPerSecond: value })).toThrow(
        /^hotPollVotesPerSecond must be a whole number of votes a second from 1 to 70,000 [^\n]*$/,
      );
  });
});

describe('rate limits', () => {
  const envOf = (entry: string, context: Record<string, unknown> = {}) => {
    const template = Object.keys(context).length ? synthesizeTemplate(context) : templateFor('http').toJSON();
    const fn = Object.values<any>(template.Resources).find(
      (r) => r.Metadata?.['poll:entry'] === `lambdas/entries/${entry}`,
    );
    return fn.Properties.Environment.Variables;
  };

  it('sets each limited function’s limit from RATE_LIMITS, and -c rateLimits=off turns them off', () => {
    expect(envOf('create-poll-function.ts')[FUNCTION_ENV.rateLimit.name]).toBe(
      `${RATE_LIMITS.createPoll.perMinute}/${RATE_LIMITS.createPoll.burst}`,
    );
    expect(envOf('cast-vote-function.ts')[FUNCTION_ENV.rateLimit.name]).toBe(
      `${RATE_LIMITS.castVote.perMinute}/${RATE_LIMITS.castVote.burst}`,
    );
    expect(envOf('get-results-function.ts')[FUNCTION_ENV.rateLimit.name]).toBeUndefined();
    expect(envOf('cast-vote-function.ts', { rateLimits: 'off' })[FUNCTION_ENV.rateLimit.name]).toBe('off');
  });
});

describe('CAPTCHA (optional)', () => {
  const context = {
    captcha: 'recaptcha',
    captchaSiteKey: 'public-site-key',
    captchaSecretParameter: '/poll/captcha-secret',
  };

  it('is off by default: no CAPTCHA settings, no SSM access', () => {
    for (const [, fn] of appFunctions())
      expect(fn.Properties.Environment.Variables[FUNCTION_ENV.captchaProvider.name]).toBeUndefined();
    expect(JSON.stringify(templateFor('http').toJSON())).not.toContain('ssm:');
  });

  it('gives create and vote the provider and the secret’s SSM parameter (never the secret); they read only it', () => {
    const template = synthesizeTemplate(context);
    const fns = Object.values<any>(template.Resources).filter((r) => r.Metadata?.['poll:entry']);
    const withCaptcha = fns
      .filter((fn) => fn.Properties.Environment.Variables[FUNCTION_ENV.captchaProvider.name] === 'recaptcha')
      .map((fn) => fn.Metadata['poll:entry']);
    expect(withCaptcha.sort()).toEqual([
      'lambdas/entries/cast-vote-function.ts',
      'lambdas/entries/create-poll-function.ts',
    ]);
    const ssmStatements = Object.values<any>(template.Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      .filter((s) => [s.Action].flat().some((a: string) => a.startsWith('ssm:')));
    expect(ssmStatements).toHaveLength(2);
    for (const statement of ssmStatements) {
      expect(statement.Action).toBe('ssm:GetParameter');
      expect(JSON.stringify(statement.Resource)).toContain(':parameter/poll/captcha-secret');
    }
  });

  it('refuses half a configuration with the missing setting named', () => {
    expect(() => synthesizeTemplate({ captcha: 'turnstile' })).toThrow(/captchaSiteKey/);
    expect(() =>
      synthesizeTemplate({ captcha: 'turnstile', captchaSiteKey: 'k', captchaSecretParameter: 'the-secret-itself' }),
    ).toThrow(/SSM SecureString/);
    expect(() => synthesizeTemplate({ captcha: 'hcaptcha' })).toThrow(/captcha must be/);
  });
});

describe('synthesis', () => {
  it('pins the runtime (no NODEJS_LATEST warning) and warns about nothing else either', () => {
    const warnings = inTemporaryOutdir((outdir) => {
      const { app, stack } = buildApp({ outdir, context: SKIP_BUNDLING });
      app.synth();
      return Annotations.fromStack(stack).findWarning('*', Match.anyValue());
    });
    expect(warnings.map((w) => w.entry.data)).toEqual([]);
  });

  it('leaves nothing in the temporary folder (an App given no outdir leaves a cdk.out folder there each time)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'synth-tmp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = folder;
    try {
      expect(synthesizeTemplate().Resources).not.toEqual({});
      expect(() => synthesizeTemplate({ apiKind: 'graphql' })).toThrow();
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
