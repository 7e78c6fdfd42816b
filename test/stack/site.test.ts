/** The static site in the template: a private bucket behind CloudFront, its one page, its CORS and cache rules. */
import { describe, expect, it } from 'vitest';
import { SITE_CACHE_CONTROL } from '../../config/caching';
import { ROUTES } from '../../config/api-contract';
import { FUNCTION_ENV } from '../../config/function-env';
import { templateFor } from '../support/synth';
import { appFunctions, resources, restMethods } from '../support/template-resources';

const http = templateFor('http');

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
    const apiFunctions = appFunctions().filter(
      ([, fn]) => fn.Metadata!['poll:entry'] !== 'lambdas/entries/count-votes-function.ts',
    );
    expect(apiFunctions).toHaveLength(4);
    for (const [, fn] of apiFunctions)
      expect(fn.Properties.Environment.Variables[FUNCTION_ENV.siteOrigin.name]).toEqual(siteOrigin());
  });
});
