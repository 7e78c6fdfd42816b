/**
 * The public API: the routes of config/api-contract.ts, as an HTTP API (default,
 * cheapest per request) or a REST API (`-c apiKind=rest`, for LocalStack's free
 * plan). Both pass the request to the same handlers; see lambdas/adapters/api-gateway.ts.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { CorsHttpMethod, HttpApi, HttpMethod, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LambdaIntegration, RestApi, type IResource } from 'aws-cdk-lib/aws-apigateway';
import type { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { API_CORS, ROUTES, type ApiFunctionName } from '../config/api-contract';
import type { ApiKind } from '../config/stack';
import { acknowledge } from './nag';

/**
 * Browsers may call the API only from the site. Preflights are cached for two
 * hours (Chromium's cap), so a voter pays for about one OPTIONS request.
 */
const REST_STAGE = 'prod';

const CORS = { methods: ['GET', 'POST'] as const, maxAge: Duration.hours(2) };

export interface PollApiProps {
  kind: ApiKind;
  functions: Record<ApiFunctionName, IFunction>;
  /**
   * The site's origin: the only one allowed by CORS. None when the site fronts the API on its own
   * origin (results=cloudfront).
   */
  siteOrigin?: string;
  /** The stage's throttle, every route together (sizing/vote-path.ts sizes it). */
  throttle: { rateLimit: number; burstLimit: number };
}

/** The API's own metrics, every route together (per-route metrics are off: lib/cost-dashboard.ts says why). */
export interface ApiMetrics {
  requests: Metric;
  /** 4xx answers, the stage throttle's 429s among them. */
  clientErrors: Metric;
  serverErrors: Metric;
}

export class PollApi extends Construct {
  readonly url: string;
  readonly metrics: ApiMetrics;
  /** Where CloudFront reaches the API (results=cloudfront): its host, and the stage path a REST API puts first. */
  readonly origin: { domainName: string; path?: string };

  constructor(scope: Construct, id: string, props: PollApiProps) {
    super(scope, id);
    const { url, apiId, metrics } = props.kind === 'http' ? this.httpApi(props) : this.restApi(props);
    this.url = url;
    this.metrics = metrics;
    const stack = Stack.of(this);
    this.origin = {
      domainName: `${apiId}.execute-api.${stack.region}.${stack.urlSuffix}`,
      path: props.kind === 'rest' ? `/${REST_STAGE}` : undefined,
    };
    acknowledge(
      this,
      ['AwsSolutions-APIG4', 'AwsSolutions-COG4'],
      'A public poll: anyone with the link may read and vote, as on the VPS platform. ' +
        'Abuse is bounded by stage throttling and per-voter claims.',
    );
    acknowledge(
      this,
      ['AwsSolutions-APIG1', 'AwsSolutions-APIG6'],
      'Access and execution logs cost per request ' +
        '(hundreds of dollars a month at the seed profile, see npm run cost); ' +
        'the functions log errors, and API Gateway metrics stay on.',
    );
  }

  private httpApi({ functions, siteOrigin, throttle }: PollApiProps): {
    url: string;
    apiId: string;
    metrics: ApiMetrics;
  } {
    const api = new HttpApi(this, 'HttpApi', {
      createDefaultStage: false,
      corsPreflight: siteOrigin
        ? {
            allowOrigins: [siteOrigin],
            allowMethods: CORS.methods.map((m) => CorsHttpMethod[m]),
            allowHeaders: [...API_CORS.allowHeaders],
            exposeHeaders: [...API_CORS.exposeHeaders],
            maxAge: CORS.maxAge,
          }
        : undefined,
    });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      throttle,
    });
    const integrations = new Map<ApiFunctionName, HttpLambdaIntegration>();
    for (const route of ROUTES) {
      if (!integrations.has(route.fn))
        integrations.set(route.fn, new HttpLambdaIntegration(`${route.fn}Integration`, functions[route.fn]));
      api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: integrations.get(route.fn)!,
      });
    }
    return {
      url: stage.url.replace(/\/$/, ''),
      apiId: api.apiId,
      metrics: {
        requests: api.metricCount(),
        clientErrors: api.metricClientError(),
        serverErrors: api.metricServerError(),
      },
    };
  }

  private restApi({ functions, siteOrigin, throttle }: PollApiProps): {
    url: string;
    apiId: string;
    metrics: ApiMetrics;
  } {
    const api = new RestApi(this, 'RestApi', {
      deployOptions: {
        stageName: REST_STAGE,
        throttlingRateLimit: throttle.rateLimit,
        throttlingBurstLimit: throttle.burstLimit,
      },
      // Handlers answer with JSON errors themselves (and the CORS header: see lambdas/adapters/api-gateway.ts).
      cloudWatchRole: false,
      defaultCorsPreflightOptions: siteOrigin
        ? {
            allowOrigins: [siteOrigin],
            allowMethods: [...CORS.methods],
            allowHeaders: [...API_CORS.allowHeaders],
            maxAge: CORS.maxAge,
          }
        : undefined,
    });
    const integrations = new Map<ApiFunctionName, LambdaIntegration>();
    for (const route of ROUTES) {
      if (!integrations.has(route.fn)) integrations.set(route.fn, new LambdaIntegration(functions[route.fn]));
      const resource = route.path
        .split('/')
        .filter(Boolean)
        .reduce<IResource>((parent, part) => parent.getResource(part) ?? parent.addResource(part), api.root);
      resource.addMethod(route.method, integrations.get(route.fn)!);
    }
    acknowledge(
      api,
      ['AwsSolutions-APIG2'],
      'The handlers validate every body and answer with the API’s one JSON error shape; ' +
        'a gateway request validator would answer in another.',
    );
    acknowledge(
      api,
      ['AwsSolutions-APIG3'],
      'AWS WAF costs $5 a month plus $0.60 per million requests, more than this API at small volume; ' +
        'stage throttling caps the rate. Add a web ACL for a public deployment that needs one.',
    );
    return {
      url: api.url.replace(/\/$/, ''),
      apiId: api.restApiId,
      metrics: {
        requests: api.metricCount(),
        clientErrors: api.metricClientError(),
        serverErrors: api.metricServerError(),
      },
    };
  }
}
