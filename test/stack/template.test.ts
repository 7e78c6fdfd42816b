import { readFileSync } from 'node:fs';
import { CfnResource, TagManager } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { API_THROTTLE, RATE_LIMITS } from '../../config/throttling';
import { CONSUMER_METRICS, VOTE_QUEUE } from '../../config/vote-queue';
import { COST_ALLOCATION_TAG } from '../../config/budget';
import { FUNCTION_DEFAULTS, FUNCTION_METADATA } from '../../config/functions';
import { POLL_READ_CACHE_SECONDS, RESULTS_CACHE_SECONDS, SITE_CACHE_CONTROL } from '../../config/caching';
import { ROUTES } from '../../config/api-contract';
import { TABLE } from '../../config/table';
import { FUNCTION_ENV } from '../../config/function-env';
import { PRICES, type PriceId } from '../../config/aws-prices';
import { readStackConfig } from '../../cost/estimate/stack-config';
import { votePathFor, withApiRateLimit } from '../../config/vote-path';
import { FLAGS, fromContext } from '../../config/flags';
import { budgetFrom, buildApp, SKIP_BUNDLING, synthesizeTemplate } from '../../lib/app';
import { ESBUILD_OPTIONS } from '../../local/functions';
import { templateFor } from '../support/synth';

const http = templateFor('http');

type Resource = { Type: string; Properties: Record<string, any>; Metadata?: Record<string, any> };
const resources = (type: string, kind: 'http' | 'rest' = 'http') =>
  Object.entries(templateFor(kind).toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);

/** The IAM actions granted to the function whose source is `entry`. */
function actionsOf(entry: string): { actions: string[]; statements: any[] } {
  const [, fn] = resources('AWS::Lambda::Function').find(([, r]) => r.Metadata?.['poll:entry'] === `lambdas/${entry}`)!;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  const statements = resources('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
  return { actions: statements.flatMap((s) => [s.Action].flat()).sort(), statements };
}

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
      ([, r]) => r.Metadata?.['poll:entry'] === 'lambdas/count-votes.ts',
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
const appFunctions = (kind: 'http' | 'rest' = 'http') =>
  resources('AWS::Lambda::Function', kind).filter(([, r]) => r.Metadata?.['poll:entry']);

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
    expect(actionsOf('create-poll.ts').actions).toEqual(['dynamodb:BatchWriteItem']);
    expect(actionsOf('get-poll.ts').actions).toEqual(['dynamodb:GetItem']);
    expect(actionsOf('get-results.ts').actions).toEqual(['dynamodb:BatchGetItem', 'dynamodb:Query']);
    expect(actionsOf('cast-vote.ts').actions).toEqual([
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'sqs:SendMessage',
    ]);
    expect(actionsOf('count-votes.ts').actions).toEqual(
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
    const { statements } = actionsOf('count-votes.ts');
    const onQueue = (action: string) =>
      statements.filter((s) => [s.Action].flat().includes(action)).map((s) => s.Resource);
    expect(onQueue('sqs:SendMessage')).toEqual([{ 'Fn::GetAtt': [dlqId, 'Arn'] }]);
    expect(onQueue('sqs:ReceiveMessage')).toEqual([{ 'Fn::GetAtt': [voteQueueId, 'Arn'] }]);
  });

  it('lets the vote function write voter claims only, never counts', () => {
    const { statements } = actionsOf('cast-vote.ts');
    const writes = statements.filter((s) =>
      [s.Action].flat().some((a: string) => /Put|Delete|Update|Write/.test(a) && a.startsWith('dynamodb:')),
    );
    expect(writes).toHaveLength(1);
    expect(writes[0].Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['VOTER#*'] } });
    expect(actionsOf('cast-vote.ts').actions).not.toContain('dynamodb:UpdateItem');
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
function declaredRoutes(kind: 'http' | 'rest'): string[] {
  if (kind === 'http')
    return resources('AWS::ApiGatewayV2::Route', kind)
      .map(([, r]) => r.Properties.RouteKey)
      .sort();
  return restMethods()
    .filter((route) => !route.startsWith('OPTIONS ')) // CORS preflights, answered by API Gateway itself
    .sort();
}

/** "METHOD /path" for every method of the REST API, its CORS preflights (OPTIONS) included. */
function restMethods(): string[] {
  const byId = new Map(resources('AWS::ApiGateway::Resource', 'rest'));
  const pathOf = (ref: any): string => {
    if (!ref?.Ref) return '';
    const resource = byId.get(ref.Ref)!;
    return `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
  };
  return resources('AWS::ApiGateway::Method', 'rest').map(
    ([, m]) => `${m.Properties.HttpMethod} ${pathOf(m.Properties.ResourceId)}`,
  );
}

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
    Object.values(template.Resources).find((r) => r.Metadata?.[FUNCTION_METADATA.entry] === `lambdas/${entry}`)!
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
    expect(envOf(hot, 'create-poll.ts')).toMatchObject(size);
    for (const entry of ['cast-vote.ts', 'count-votes.ts', 'get-results.ts'])
      expect(Object.keys(envOf(hot, entry))).not.toContain(FUNCTION_ENV.groupsPerPoll.name);
  });

  it('without the flag: no size in any function, the default throttle', () => {
    const plain = http.toJSON() as { Resources: Record<string, Resource> };
    for (const entry of ['create-poll.ts', 'cast-vote.ts', 'count-votes.ts', 'get-results.ts'])
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

describe('the site', () => {
  const distributionId = () => resources('AWS::CloudFront::Distribution')[0][0];
  const siteOrigin = () => ({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId(), 'DomainName'] }]] });

  it('is a private, encrypted, TLS-only bucket that only CloudFront reads', () => {
    http.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
    });
    http.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const [, policy] = resources('AWS::S3::BucketPolicy')[0];
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('cloudfront.amazonaws.com');
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('answers the page paths with the page and any other path with a 404 page, at the edge, over HTTPS only', () => {
    const [, distribution] = resources('AWS::CloudFront::Distribution')[0];
    const behavior = distribution.Properties.DistributionConfig.DefaultCacheBehavior;
    expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    // No custom error responses: they would rewrite the API's own 404s where CloudFront fronts it too.
    expect(distribution.Properties.DistributionConfig.CustomErrorResponses).toBeUndefined();
    const [routerId, router] = resources('AWS::CloudFront::Function')[0];
    expect(behavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [routerId, 'FunctionARN'] } },
    ]);
    expect(router.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    // Run the deployed code as CloudFront would.
    const handler = new Function(`${router.Properties.FunctionCode}; return handler;`)() as (event: unknown) => any;
    const viewer = (uri: string) => handler({ request: { method: 'GET', uri, headers: {} } });
    for (const page of ['/', `/poll/${'a'.repeat(21)}`, '/poll/anything/', '/poll/50%off'])
      expect(viewer(page), page).toMatchObject({ uri: '/index.html' });
    for (const other of ['/favicon.ico', '/poll', '/poll/a/b', '/index.html', '/.env', '/api/poll']) {
      expect(viewer(other), other).toMatchObject({
        statusCode: 404,
        body: { encoding: 'text', data: expect.stringContaining('Page not found') },
      });
    }
  });

  it.each(['http', 'rest'] as const)(
    'deploys the page with the %s API’s URL written in at deploy time, and has CloudFront drop the old one',
    (kind) => {
      const deployments = resources('Custom::CDKBucketDeployment', kind);
      expect(deployments).toHaveLength(1);
      const [, page] = deployments[0];
      const markers = JSON.stringify(page.Properties.SourceMarkers);
      const apiId = resources(kind === 'http' ? 'AWS::ApiGatewayV2::Api' : 'AWS::ApiGateway::RestApi', kind)[0][0];
      expect(markers).toContain(`"Ref":"${apiId}"`);
      expect(page.Properties.DistributionPaths).toEqual(['/index.html']);
      expect(page.Properties.SystemMetadata).toEqual({
        'cache-control': SITE_CACHE_CONTROL,
        'content-type': 'text/html; charset=utf-8',
      });
    },
  );

  it('lets browsers call the API from the site origin only, with a ballot’s key, and read Retry-After', () => {
    http.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: [siteOrigin()],
        AllowHeaders: ['content-type', 'idempotency-key'],
        ExposeHeaders: ['retry-after'],
      },
    });
    const options = resources('AWS::ApiGateway::Method', 'rest').filter(
      ([, m]) => m.Properties.HttpMethod === 'OPTIONS',
    );
    // A preflight on every path a route of ours serves; CDK adds one to each resource above them too (the root,
    // /api), which serve nothing: no other path has one.
    const preflighted = restMethods()
      .filter((route) => route.startsWith('OPTIONS '))
      .map((route) => route.slice('OPTIONS '.length));
    const routePaths = [...new Set(ROUTES.map((r) => r.path))];
    expect(preflighted).toEqual(expect.arrayContaining(routePaths));
    const above = preflighted.filter((path) => !routePaths.includes(path));
    for (const path of above)
      expect(
        routePaths.some((route) => route.startsWith(`${path}/`)),
        path,
      ).toBe(true);
    expect(options).toHaveLength(preflighted.length);
    for (const [, method] of options) {
      const headers = method.Properties.Integration.IntegrationResponses[0].ResponseParameters;
      expect(headers['method.response.header.Access-Control-Allow-Headers']).toBe("'content-type,idempotency-key'");
      expect(headers['method.response.header.Access-Control-Allow-Origin']).toEqual({
        'Fn::Join': [
          '',
          [
            "'https://",
            { 'Fn::GetAtt': [resources('AWS::CloudFront::Distribution', 'rest')[0][0], 'DomainName'] },
            "'",
          ],
        ],
      });
    }
    const apiFunctions = appFunctions().filter(([, fn]) => fn.Metadata!['poll:entry'] !== 'lambdas/count-votes.ts');
    expect(apiFunctions).toHaveLength(4);
    for (const [, fn] of apiFunctions)
      expect(fn.Properties.Environment.Variables[FUNCTION_ENV.siteOrigin.name]).toEqual(siteOrigin());
  });
});

describe('rate limits', () => {
  const envOf = (entry: string, context: Record<string, unknown> = {}) => {
    const template = Object.keys(context).length ? synthesizeTemplate(context) : templateFor('http').toJSON();
    const fn = Object.values<any>(template.Resources).find((r) => r.Metadata?.['poll:entry'] === `lambdas/${entry}`);
    return fn.Properties.Environment.Variables;
  };

  it('sets each limited function’s limit from RATE_LIMITS, and -c rateLimits=off turns them off', () => {
    expect(envOf('create-poll.ts')[FUNCTION_ENV.rateLimit.name]).toBe(
      `${RATE_LIMITS.createPoll.perMinute}/${RATE_LIMITS.createPoll.burst}`,
    );
    expect(envOf('cast-vote.ts')[FUNCTION_ENV.rateLimit.name]).toBe(
      `${RATE_LIMITS.castVote.perMinute}/${RATE_LIMITS.castVote.burst}`,
    );
    expect(envOf('get-results.ts')[FUNCTION_ENV.rateLimit.name]).toBeUndefined();
    expect(envOf('cast-vote.ts', { rateLimits: 'off' })[FUNCTION_ENV.rateLimit.name]).toBe('off');
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
    expect(withCaptcha.sort()).toEqual(['lambdas/cast-vote.ts', 'lambdas/create-poll.ts']);
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
    const { app, stack } = buildApp({ context: SKIP_BUNDLING });
    app.synth();
    const warnings = Annotations.fromStack(stack).findWarning('*', Match.anyValue());
    expect(warnings.map((w) => w.entry.data)).toEqual([]);
  });
});

describe('results designs (-c results=)', () => {
  const fnUrl = synthesizeTemplate({ results: 'function-url' });
  const viaCloudFront = synthesizeTemplate({ results: 'cloudfront' });
  const of = (template: { Resources: Record<string, any> }, type: string) =>
    Object.entries<any>(template.Resources).filter(([, r]) => r.Type === type);
  const fnByName = (template: { Resources: Record<string, any> }, name: string) =>
    of(template, 'AWS::Lambda::Function').find(([, r]) => r.Metadata?.['poll:function'] === name)!;
  const distributionOrigin = (template: { Resources: Record<string, any> }) => ({
    'Fn::Join': [
      '',
      ['https://', { 'Fn::GetAtt': [of(template, 'AWS::CloudFront::Distribution')[0][0], 'DomainName'] }],
    ],
  });

  it('function-url: a public GET-only URL on the results function only, CORS to the site, concurrency capped', () => {
    const urls = of(fnUrl, 'AWS::Lambda::Url');
    expect(urls).toHaveLength(1);
    const [resultsId, results] = fnByName(fnUrl, 'GetResults');
    expect(urls[0][1].Properties).toEqual({
      AuthType: 'NONE',
      TargetFunctionArn: { 'Fn::GetAtt': [resultsId, 'Arn'] },
      Cors: { AllowMethods: ['GET'], AllowOrigins: [distributionOrigin(fnUrl)], MaxAge: 7200 },
    });
    expect(results.Properties.ReservedConcurrentExecutions).toBe(200);
    // Every other function: no URL, no cap.
    for (const [, fn] of of(fnUrl, 'AWS::Lambda::Function').filter(
      ([id, r]) => r.Metadata?.['poll:entry'] && id !== resultsId,
    )) {
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
    // Anyone may invoke it, and only through the URL.
    const grants = of(fnUrl, 'AWS::Lambda::Permission')
      .filter(([, p]) => p.Properties.Principal === '*')
      .map(([, p]) => p.Properties);
    expect(grants).toEqual([
      expect.objectContaining({ Action: 'lambda:InvokeFunctionUrl', FunctionUrlAuthType: 'NONE' }),
      expect.objectContaining({ Action: 'lambda:InvokeFunction', InvokedViaFunctionUrl: true }),
    ]);
    expect(Object.keys(fnUrl.Outputs ?? {})).toEqual(expect.arrayContaining(['ResultsUrl']));
    // The page reads results there: the URL is written into it at deploy time.
    const [, deployment] = of(fnUrl, 'Custom::CDKBucketDeployment')[0];
    expect(JSON.stringify(deployment.Properties.SourceMarkers)).toContain(urls[0][0]);
    expect(
      synthesizeTemplate({ results: 'function-url', resultsConcurrency: 'off' }).Resources[resultsId].Properties
        .ReservedConcurrentExecutions,
    ).toBeUndefined();
  });

  it('cloudfront: the distribution fronts the API, caching results and poll reads, so the page needs no CORS', () => {
    const [, distribution] = of(viaCloudFront, 'AWS::CloudFront::Distribution')[0];
    const config = distribution.Properties.DistributionConfig;
    // CloudFront takes the first behavior that matches: results and votes before the poll, the poll before the rest.
    expect(config.CacheBehaviors.map((b: any) => b.PathPattern)).toEqual([
      '/api/poll/*/results',
      '/api/poll/*/vote',
      '/api/poll/*',
      '/api/*',
    ]);
    const [results, vote, poll, rest] = config.CacheBehaviors;
    const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
    for (const cached of [results, poll])
      expect(cached).toMatchObject({ AllowedMethods: ['GET', 'HEAD'], ViewerProtocolPolicy: 'redirect-to-https' });
    // Votes (and creates, under /api/*) are never cached, and reach the API with every viewer header but Host.
    for (const passed of [vote, rest])
      expect(passed).toMatchObject({
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: rest.OriginRequestPolicyId,
      });
    for (const behavior of [results, vote, poll, rest])
      expect(JSON.stringify(config.Origins.find((o: any) => o.Id === behavior.TargetOriginId).DomainName)).toContain(
        '.execute-api.',
      );
    const policyOf = (behavior: any) =>
      viaCloudFront.Resources[behavior.CachePolicyId.Ref].Properties.CachePolicyConfig;
    expect(policyOf(results)).toMatchObject({
      MinTTL: 0,
      DefaultTTL: RESULTS_CACHE_SECONDS,
      MaxTTL: RESULTS_CACHE_SECONDS,
    });
    // A poll is kept for the max-age its answer carries (never past its close), at most the poll max-age; an
    // answer without one not at all.
    expect(policyOf(poll)).toMatchObject({ MinTTL: 0, DefaultTTL: 0, MaxTTL: POLL_READ_CACHE_SECONDS });
    for (const cached of [results, poll])
      expect(policyOf(cached).ParametersInCacheKeyAndForwardedToOrigin).toMatchObject({
        QueryStringsConfig: { QueryStringBehavior: 'none' },
        HeadersConfig: { HeaderBehavior: 'none' },
        CookiesConfig: { CookieBehavior: 'none' },
      });
    // One origin for page and API: no CORS anywhere, and nothing refers back to the distribution
    // (CloudFormation would find a cycle).
    expect(of(viaCloudFront, 'AWS::ApiGatewayV2::Api')[0][1].Properties.CorsConfiguration).toBeUndefined();
    for (const [, fn] of of(viaCloudFront, 'AWS::Lambda::Function').filter(([, r]) => r.Metadata?.['poll:entry'])) {
      expect(fn.Properties.Environment.Variables[FUNCTION_ENV.siteOrigin.name]).toBeUndefined();
    }
    expect(of(viaCloudFront, 'AWS::Lambda::Url')).toEqual([]);
    // CloudFront is the results cache: the function answers fresh with the whole max-age, which it keeps.
    const keepCounts = (template: { Resources: Record<string, any> }) =>
      fnByName(template, 'GetResults')[1].Properties.Environment.Variables[FUNCTION_ENV.resultsKeepCounts.name];
    expect(keepCounts(viaCloudFront)).toBe('false');
    expect(keepCounts(synthesizeTemplate())).toBeUndefined();
    // A REST API is reached at its stage.
    const restConfig = of(
      synthesizeTemplate({ results: 'cloudfront', apiKind: 'rest' }),
      'AWS::CloudFront::Distribution',
    )[0][1].Properties.DistributionConfig;
    expect(restConfig.Origins.find((o: any) => o.Id === restConfig.CacheBehaviors[0].TargetOriginId).OriginPath).toBe(
      '/prod',
    );
  });

  it('api (the default): neither a function URL nor a cached API path', () => {
    expect(of(http.toJSON() as { Resources: Record<string, any> }, 'AWS::Lambda::Url')).toEqual([]);
    expect(
      of(http.toJSON() as { Resources: Record<string, any> }, 'AWS::CloudFront::Distribution')[0][1].Properties
        .DistributionConfig.CacheBehaviors,
    ).toBeUndefined();
  });

  it('refuses an unknown design or cap with one line naming the valid values, and CloudFront on LocalStack', () => {
    expect(() => synthesizeTemplate({ results: 'websocket' })).toThrow(
      /^results must be one of api, function-url, cloudfront \(got "websocket"\)/,
    );
    expect(() => synthesizeTemplate({ results: 'function-url', resultsConcurrency: 'lots' })).toThrow(
      /resultsConcurrency must be a whole number from 1 to 10000, or off/,
    );
    expect(() => synthesizeTemplate({ target: 'localstack', results: 'cloudfront' })).toThrow(
      /LocalStack’s free plan has no CloudFront/,
    );
    expect(of(synthesizeTemplate({ target: 'localstack', results: 'function-url' }), 'AWS::Lambda::Url')).toHaveLength(
      1,
    );
  });
});

describe('the function bundles', () => {
  /** Each function bundled as the stack bundles it (config/functions.ts BUNDLING, the entry in its metadata), in KB. */
  async function bundleSizes(): Promise<Record<string, number>> {
    const entries = Object.fromEntries(
      resources('AWS::Lambda::Function')
        .filter(([, fn]) => fn.Metadata?.[FUNCTION_METADATA.entry])
        .map(([, fn]) => [
          fn.Metadata![FUNCTION_METADATA.name] as string,
          fn.Metadata![FUNCTION_METADATA.entry] as string,
        ]),
    );
    const result = await build({
      entryPoints: entries,
      outdir: 'out',
      write: false,
      ...ESBUILD_OPTIONS,
    });
    return Object.fromEntries(
      result.outputFiles.map((file) => [file.path.replace(/^.*\/(\w+)\.js$/, '$1'), file.contents.length / 1024]),
    );
  }

  // A cold start loads all of it: small, and as large as docs/architecture.md says.
  it('are each under 64 KB, within the range docs/architecture.md states', async () => {
    const sizes = await bundleSizes();
    console.log(
      `bundles (KB): ${Object.entries(sizes)
        .map(([name, kb]) => `${name} ${kb.toFixed(1)}`)
        .join(', ')}`,
    );
    expect(Object.keys(sizes).length).toBeGreaterThanOrEqual(5);
    const stated = /Minified bundles are (\d+)–(\d+) KB/.exec(readFileSync('docs/architecture.md', 'utf8'));
    expect(stated, 'docs/architecture.md: "Minified bundles are <min>–<max> KB"').not.toBeNull();
    const [low, high] = [Number(stated![1]), Number(stated![2])];
    // Rounded to the KB, with 2 KB of slack so that a small change does not have to touch the docs.
    expect(Math.min(...Object.values(sizes))).toBeGreaterThanOrEqual(low - 2);
    expect(Math.max(...Object.values(sizes))).toBeLessThanOrEqual(high + 2);
    for (const kb of Object.values(sizes)) expect(kb).toBeLessThan(64);
  });
});

type Template = { Resources: Record<string, any> };
const ofType = (template: Template, type: string) =>
  Object.entries<any>(template.Resources).filter(([, r]) => r.Type === type);

describe('the cost dashboard', () => {
  type Widget = { type: string; properties: { title?: string; metrics?: any[][]; markdown?: string } };
  /** The dashboard's body as CloudWatch gets it, each deploy-time value (a name, the region) as TOKEN. */
  const bodyOf = (template: Template): { widgets: Widget[] } => {
    const dashboards = ofType(template, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const parts: unknown[] = dashboards[0][1].Properties.DashboardBody['Fn::Join'][1];
    return JSON.parse(parts.map((part) => (typeof part === 'string' ? part : 'TOKEN')).join(''));
  };
  const widget = (template: Template, title: RegExp) => {
    const found = bodyOf(template).widgets.filter((w) => title.test(w.properties.title ?? ''));
    expect(found, String(title)).toHaveLength(1);
    return found[0].properties.metrics!;
  };
  /** The expressions of a widget by label, and its plain metrics as namespace/name. */
  const expressions = (metrics: any[][]) =>
    Object.fromEntries(metrics.filter(([m]) => m.expression).map(([m]) => [m.label, m.expression as string]));
  const metricNames = (metrics: any[][]) =>
    metrics.filter(([m]) => typeof m === 'string').map(([namespace, name]) => `${namespace} ${name}`);
  /** Each price in a cost line, as it is written there: `* <price> / <units>`. */
  const pricesIn = (expression: string) =>
    [...expression.matchAll(/\* (\d[\d.]*) \/ (\d+)\b/g)].map(([, price, per]) => [Number(price), Number(per)]);
  const sheet = (...ids: PriceId[]) => ids.map((id) => [PRICES[id].tiers[0].price, PRICES[id].per]);
  const costLines = (template: Template) => expressions(widget(template, /^Cost rate by service/));

  it('prices each service’s usage with the price sheet’s first tier, in dollars an hour', () => {
    const lines = costLines(http.toJSON() as Template);
    expect(Object.keys(lines)).toEqual(['API Gateway', 'Lambda', 'SQS', 'DynamoDB', 'CloudFront']);
    expect(pricesIn(lines['API Gateway'])).toEqual(sheet('httpApiRequests'));
    expect(pricesIn(lines.Lambda)).toEqual(sheet('lambdaRequests', 'lambdaArmGbSeconds'));
    expect(pricesIn(lines.SQS)).toEqual(sheet('sqsFifoRequests'));
    expect(pricesIn(lines.DynamoDB)).toEqual(sheet('dynamoReadUnits', 'dynamoWriteUnits'));
    expect(pricesIn(lines.CloudFront)).toEqual(sheet('cloudFrontRequests', 'cloudFrontTransfer'));
    // GB-seconds are each function's milliseconds times its memory; every line is scaled from its period to an hour.
    expect(lines.Lambda.match(new RegExp(`Ms \\* ${FUNCTION_DEFAULTS.memoryMb}\\b`, 'g'))).toHaveLength(5);
    expect(lines.Lambda).toContain('/ 1000 / 1024');
    for (const expression of Object.values(lines)) expect(expression).toMatch(/\* 3600 \/ PERIOD\(\w+\)$/);
    expect(metricNames(widget(http.toJSON() as Template, /^Cost rate by service/))).toEqual(
      expect.arrayContaining([
        'AWS/ApiGateway Count',
        'AWS/Lambda Invocations',
        'AWS/Lambda Duration',
        'AWS/SQS NumberOfMessagesSent',
        'AWS/SQS NumberOfEmptyReceives',
        'AWS/DynamoDB ConsumedReadCapacityUnits',
        'AWS/DynamoDB ConsumedWriteCapacityUnits',
        'AWS/CloudFront Requests',
        'AWS/CloudFront BytesDownloaded',
      ]),
    );
    // CloudFront's metrics are in us-east-1 only.
    const edge = widget(http.toJSON() as Template, /^Cost rate by service/).filter(([ns]) => ns === 'AWS/CloudFront');
    for (const metric of edge) expect(metric.at(-1)).toMatchObject({ region: 'us-east-1' });
    // And the total, now.
    expect(Object.values(expressions(widget(http.toJSON() as Template, /^Cost rate now/)))[0]).toBe(
      'api + lambda + sqs + dynamodb + cloudfront',
    );
  });

  it('reads the prices from the sheet when it is synthesized: a price changed there changes the math', () => {
    const tier = PRICES.sqsFifoRequests.tiers[0];
    const price = tier.price;
    try {
      tier.price = 0.37;
      expect(pricesIn(costLines(synthesizeTemplate()).SQS)).toEqual([[0.37, 1_000_000]]);
    } finally {
      tier.price = price;
    }
  });

  it('synthesizes for every design, with the REST API’s price for a REST API', () => {
    for (const context of [{ results: 'function-url' }, { results: 'cloudfront' }, { apiKind: 'rest' }]) {
      const lines = costLines(synthesizeTemplate(context));
      expect(Object.keys(lines)).toEqual(['API Gateway', 'Lambda', 'SQS', 'DynamoDB', 'CloudFront']);
    }
    const rest = costLines(synthesizeTemplate({ results: 'cloudfront', apiKind: 'rest' }));
    expect(pricesIn(rest['API Gateway'])).toEqual(sheet('restApiRequests'));
  });

  it('shows requests by route, votes queued and counted, the dead-letter queue and throttles', () => {
    const template = http.toJSON() as Template;
    const routes = widget(template, /^Requests by route/);
    expect(metricNames(routes)).toEqual(['AWS/ApiGateway Count', ...Array(4).fill('AWS/Lambda Invocations')]);
    const labels = routes.map((metric) => metric.at(-1).label).join(', ');
    for (const route of ROUTES) expect(labels).toContain(`${route.method} ${route.path}`);

    const votes = widget(template, /^Votes queued and counted/);
    expect(metricNames(votes)).toEqual(['AWS/SQS NumberOfMessagesSent', `${CONSUMER_METRICS.namespace} VotesCounted`]);
    // As Powertools publishes it: with the service dimension.
    expect(votes[1].slice(2, 4)).toEqual(['service', CONSUMER_METRICS.service]);

    const [dlqId] = ofType(template, 'AWS::SQS::Queue').find(([, q]) => !q.Properties.RedrivePolicy)!;
    const dlq = widget(template, /^Dead-letter queue/);
    expect(dlq).toEqual([
      [
        'AWS/SQS',
        'ApproximateNumberOfMessagesVisible',
        'QueueName',
        'TOKEN',
        expect.objectContaining({ stat: 'Maximum' }),
      ],
    ]);
    expect(JSON.stringify(ofType(template, 'AWS::CloudWatch::Dashboard')[0][1])).toContain(dlqId);

    const throttles = widget(template, /^Throttles/);
    expect(new Set(metricNames(throttles))).toEqual(
      new Set(['AWS/Lambda Throttles', 'AWS/ApiGateway 4xx', 'AWS/DynamoDB ThrottledRequests']),
    );
    expect(metricNames(widget(synthesizeTemplate({ apiKind: 'rest' }), /^Throttles/))).toContain(
      'AWS/ApiGateway 4XXError',
    );
    expect(Object.keys(http.toJSON().Outputs)).toContain('CostDashboardUrl');
  });

  it('is left out of the LocalStack variant, whose free plan has no dashboards', () => {
    expect(ofType(synthesizeTemplate({ target: 'localstack' }), 'AWS::CloudWatch::Dashboard')).toEqual([]);
  });
});

describe('the budget (-c monthlyBudgetUsd, -c budgetEmail)', () => {
  const budgeted = synthesizeTemplate({ monthlyBudgetUsd: '300', budgetEmail: 'ops@example.com' });

  it('is a monthly cost budget on the stack’s tag, mailing at 80% and 100% of actual and forecast spend', () => {
    const budgets = ofType(budgeted, 'AWS::Budgets::Budget');
    expect(budgets).toHaveLength(1);
    const { Budget, NotificationsWithSubscribers } = budgets[0][1].Properties;
    expect(Budget).toMatchObject({
      BudgetType: 'COST',
      TimeUnit: 'MONTHLY',
      BudgetLimit: { Amount: 300, Unit: 'USD' },
      CostFilters: { TagKeyValue: [`user:${COST_ALLOCATION_TAG.key}$${COST_ALLOCATION_TAG.value}`] },
    });
    expect(NotificationsWithSubscribers).toHaveLength(4);
    expect(
      NotificationsWithSubscribers.map((n: any) => [n.Notification.NotificationType, n.Notification.Threshold]),
    ).toEqual([
      ['ACTUAL', 80],
      ['ACTUAL', 100],
      ['FORECASTED', 80],
      ['FORECASTED', 100],
    ]);
    for (const n of NotificationsWithSubscribers) {
      expect(n.Notification).toMatchObject({ ComparisonOperator: 'GREATER_THAN', ThresholdType: 'PERCENTAGE' });
      expect(n.Subscribers).toEqual([{ SubscriptionType: 'EMAIL', Address: 'ops@example.com' }]);
    }
  });

  it('is not there by default', () => {
    expect(ofType(http.toJSON() as Template, 'AWS::Budgets::Budget')).toEqual([]);
  });

  it('refuses a wrong amount or address, one flag alone, and LocalStack, in one line', () => {
    expect(budgetFrom('320.5', 'a@b.io')).toEqual({ monthlyUsd: 320.5, email: 'a@b.io' });
    for (const amount of ['0', '-5', 'ten', '', 'Infinity'])
      expect(() => budgetFrom(amount, 'ops@example.com')).toThrow(/^monthlyBudgetUsd must be a positive number/);
    for (const email of ['ops', 'ops@example', 'ops@@example.com', 'o ps@example.com'])
      expect(() => budgetFrom('300', email)).toThrow(/^budgetEmail must be an e-mail address/);
    expect(() => budgetFrom('300', undefined)).toThrow(/go together/);
    expect(() => budgetFrom(undefined, 'ops@example.com')).toThrow(/go together/);
    expect(() => synthesizeTemplate({ target: 'localstack', monthlyBudgetUsd: '300', budgetEmail: 'a@b.io' })).toThrow(
      /^LocalStack’s free plan has no AWS Budgets/,
    );
  });
});

describe('the cost allocation tag', () => {
  it('is on every resource the stack makes that takes tags, the budget included', () => {
    for (const context of [{ monthlyBudgetUsd: '300', budgetEmail: 'ops@example.com' }, { target: 'localstack' }]) {
      const { app, stack } = buildApp({ context: { ...context, ...SKIP_BUNDLING } });
      const template = app.synth().getStackByName(stack.stackName).template;
      const taggable = stack.node
        .findAll()
        .filter(CfnResource.isCfnResource)
        .filter(
          (r) => TagManager.isTaggable(r) || TagManager.isTaggableV2(r) || /::(Role|Function)$/.test(r.cfnResourceType),
        );
      expect(taggable.length).toBeGreaterThan(20);
      const untagged = taggable
        .map((r) => [r.cfnResourceType, template.Resources[stack.resolve(r.logicalId)].Properties] as const)
        .filter(([, props]) => {
          const tags = props.Tags ?? props.ResourceTags;
          return Array.isArray(tags)
            ? !tags.some((t: any) => t.Key === COST_ALLOCATION_TAG.key && t.Value === COST_ALLOCATION_TAG.value)
            : tags?.[COST_ALLOCATION_TAG.key] !== COST_ALLOCATION_TAG.value;
        })
        .map(([type]) => type);
      expect(untagged, JSON.stringify(context)).toEqual([]);
    }
  });
});
