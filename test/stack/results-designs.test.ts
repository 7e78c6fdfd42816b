/** Each results design (-c results=) as the template deploys it. */
import { describe, expect, it } from 'vitest';
import { POLL_READ_CACHE_SECONDS, RESULTS_CACHE_SECONDS } from '../../config/caching';
import { FUNCTION_ENV } from '../../config/function-env';
import { synthesizeTemplate } from '../../lib/app';
import { templateFor } from '../support/synth';

const http = templateFor('http');

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
