/**
 * Everything on the LocalStack path up to the deploy itself (these machines have
 * no Docker engine): the variant's template fits the free plan, the preflight's
 * messages, the compose file, and finding the deployed API from the outputs.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { synthesizeTemplate } from '../../lib/app';
import { freePlanViolations } from '../../localstack/free-plan';
import { DEFAULT_IMAGE, problems, readDotEnv, TOKEN_FREE_IMAGE, type Probe } from '../../localstack/preflight';
import { localstackApiUrl } from '../../localstack/urls';
import { queuesOf } from '../../dlq/cli';
import { deployedApiUrl } from '../../load-tests/run';
import { templateFor } from '../support/synth';

const localstackTemplate = synthesizeTemplate({ target: 'localstack' });

describe('the LocalStack variant', () => {
  it('uses only what LocalStack’s free plan deploys, also with results from a function URL', () => {
    expect(freePlanViolations(localstackTemplate)).toEqual([]);
    expect(freePlanViolations(synthesizeTemplate({ target: 'localstack', results: 'function-url' }))).toEqual([]);
  });

  it('fails the same check otherwise (the AWS variant needs CloudFront, API Gateway v2 and the site upload)', () => {
    const violations = freePlanViolations(templateFor('http').toJSON()).join('\n');
    expect(violations).toMatch(/AWS::CloudFront::Distribution is not on LocalStack's free plan/);
    expect(violations).toMatch(/AWS::ApiGatewayV2::Api/);
    expect(violations).toMatch(/Custom::CDKBucketDeployment/);
    expect(
      freePlanViolations({ Resources: { Fn: { Type: 'AWS::Lambda::Function', Properties: { Layers: ['arn'] } } } }),
    ).toEqual(['Fn: Lambda layers are a paid LocalStack feature']);
  });

  it('is the same app: a REST API with every route, the FIFO pipeline, and a website bucket the API allows', () => {
    const types = Object.values<any>(localstackTemplate.Resources).map((r) => r.Type);
    expect(types).toContain('AWS::ApiGateway::RestApi');
    expect(types.filter((t) => t === 'AWS::SQS::Queue')).toHaveLength(2);
    const bucket = Object.entries<any>(localstackTemplate.Resources).find(([, r]) => r.Type === 'AWS::S3::Bucket')!;
    expect(bucket[1].Properties.WebsiteConfiguration).toEqual({
      IndexDocument: 'index.html',
      ErrorDocument: 'index.html',
    });
    const castVote = Object.values<any>(localstackTemplate.Resources).find(
      (r) => r.Metadata?.['poll:entry'] === 'lambdas/entries/cast-vote-function.ts',
    );
    expect(castVote.Properties.Environment.Variables.SITE_ORIGIN).toEqual({ 'Fn::GetAtt': [bucket[0], 'WebsiteURL'] });
    expect(Object.keys(localstackTemplate.Outputs ?? {})).toEqual(
      expect.arrayContaining(['ApiUrl', 'SiteUrl', 'SiteBucketName']),
    );
  });

  it('refuses an HTTP API for LocalStack with a reason, and unknown targets', () => {
    expect(() => synthesizeTemplate({ target: 'localstack', apiKind: 'http' })).toThrow(/free plan has no HTTP API/);
    expect(() => synthesizeTemplate({ target: 'azure' })).toThrow(/target must be "aws" or "localstack"/);
  });
});

describe('the preflight', () => {
  const healthy: Probe['health'] = {
    services: Object.fromEntries(
      ['cloudformation', 'lambda', 'apigateway', 'dynamodb', 'sqs', 's3', 'iam', 'logs'].map((s) => [s, 'available']),
    ),
  };
  const ok: Probe = { dockerCli: true, dockerDaemon: true, health: healthy, image: DEFAULT_IMAGE };

  it.each<[string, Partial<Probe>, 'up' | 'deploy', RegExp | null]>([
    ['all good', {}, 'deploy', null],
    ['no docker', { dockerCli: false, health: undefined }, 'up', /^Docker is not installed/],
    ['daemon down', { dockerDaemon: false, health: undefined }, 'up', /^Docker is not running/],
    [
      'newer image, no token',
      { image: 'localstack/localstack:2026.11', health: undefined },
      'up',
      /needs LOCALSTACK_AUTH_TOKEN/,
    ],
    [
      'newer image with a token',
      { image: 'localstack/localstack:2026.11', token: 'ls-xyz', health: undefined },
      'up',
      null,
    ],
    [
      'LocalStack not started',
      { health: undefined },
      'deploy',
      /not answering on http:\/\/127\.0\.0\.1:4566: start it with npm run localstack:up/,
    ],
    [
      'a healthy LocalStack started some other way, and no Docker here',
      { dockerCli: false, dockerDaemon: false },
      'deploy',
      null,
    ],
    ['up, when one already answers healthy', { dockerCli: false, dockerDaemon: false }, 'up', null],
    [
      'nothing answering and no Docker',
      { health: undefined, dockerCli: false, dockerDaemon: false },
      'deploy',
      /not answering .*npm run localstack:up needs Docker, which is not installed/,
    ],
    [
      'LocalStack still starting',
      { health: { services: { ...healthy!.services, lambda: 'initializing' } } },
      'deploy',
      /not healthy yet \(lambda: initializing\)/,
    ],
    [
      'a service switched off',
      { health: { services: { dynamodb: 'available' } } },
      'deploy',
      /does not offer cloudformation, lambda/,
    ],
  ])('%s', (_name, change, step, expected) => {
    const found = problems({ ...ok, ...change }, step);
    if (expected === null) expect(found).toEqual([]);
    else {
      expect(
        found.some((line) => expected.test(line)),
        found.join('\n'),
      ).toBe(true);
      expect(found.every((line) => !line.includes('\n'))).toBe(true);
    }
  });

  it('reads the token from .env lines', () => {
    expect(readDotEnv('# comment\nLOCALSTACK_AUTH_TOKEN="ls-abc"\nOTHER=1\n')).toEqual({
      LOCALSTACK_AUTH_TOKEN: 'ls-abc',
      OTHER: '1',
    });
  });

  it('stops npm run localstack:deploy with one line per problem, not a stack trace, when nothing answers', async () => {
    // A port nothing listens on, so that a LocalStack running on this machine is not deployed to.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const env = { ...process.env, LOCALSTACK_ENDPOINT: `http://127.0.0.1:${port}` };
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'bin/localstack.ts', 'deploy'], {
      encoding: 'utf8',
      timeout: 60_000,
      env,
    });
    expect(result.stderr).toContain(`not answering on http://127.0.0.1:${port}`);
    expect(result.status).toBe(1);
    const lines = result.stderr.split('\n').filter((l) => l.startsWith('✗'));
    expect(lines.length).toBeGreaterThan(0);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('docker-compose.yml', () => {
  const compose = readFileSync('docker-compose.yml', 'utf8');
  it('pins the image, mounts the Docker socket, takes the token from the env, expires TTL items, checks health', () => {
    expect(compose).toContain(`image: \${LOCALSTACK_IMAGE:-${TOKEN_FREE_IMAGE}}`);
    expect(compose).not.toMatch(/localstack\/localstack(:latest)?\s*$/m);
    expect(compose).toContain('/var/run/docker.sock:/var/run/docker.sock');
    expect(compose).toContain(`LOCALSTACK_AUTH_TOKEN=\${LOCALSTACK_AUTH_TOKEN:-}`);
    expect(compose).toContain('DYNAMODB_REMOVE_EXPIRED_ITEMS=1');
    expect(compose).toMatch(/healthcheck:[\s\S]*_localstack\/health/);
    expect(compose).toContain('"127.0.0.1:4566:4566"');
  });
});

describe('finding the deployed API', () => {
  it('turns the URL LocalStack 4.14 reports into /_aws/execute-api on LocalStack’s port (no DNS needed)', () => {
    // The fixture is the outputs file a real LocalStack 4.14.0 deploy wrote.
    expect(deployedApiUrl('localstack', 'test/fixtures/cdk-outputs.localstack.json')).toBe(
      'http://127.0.0.1:4566/_aws/execute-api/6fbkylyhrv/prod',
    );
    expect(localstackApiUrl('https://b4k9x2q1ze.execute-api.us-east-1.amazonaws.com/prod/')).toBe(
      'http://127.0.0.1:4566/_aws/execute-api/b4k9x2q1ze/prod',
    );
    expect(() => localstackApiUrl('https://d1.cloudfront.net')).toThrow(/Not a REST API stage URL/);
  });

  it('gives npm run dlq the deployed queues on LocalStack’s port, or says how to get an outputs file', async () => {
    const queues = await queuesOf('localstack', '', 'test/fixtures/cdk-outputs.localstack.json');
    expect(queues.deadLetterQueueUrl).toMatch(/DeadLetterQueue.*\.fifo$/);
    expect(queues.voteQueueUrl).toMatch(/VoteQueue.*\.fifo$/);
    expect(await queues.sqs.config.region()).toBe('us-east-1');
    expect(await queues.sqs.config.endpoint?.()).toMatchObject({ hostname: '127.0.0.1', port: 4566 });
    queues.sqs.destroy();
    await expect(queuesOf('aws', '', '/nonexistent/cdk-outputs.json')).rejects.toThrow(
      /is missing or has no VoteQueueUrl.*npm run deploy \(docs\/deploy\.md\) writes it/,
    );
  });
});
