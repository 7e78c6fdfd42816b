/**
 * The public API: the routes of config/app-config.ts, as an HTTP API (default,
 * cheapest per request) or a REST API (`-c apiKind=rest`, for LocalStack's free
 * plan). Both pass the request to the same handlers; see lambdas/adapters/http.ts.
 */
import { HttpApi, HttpMethod, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LambdaIntegration, RestApi, type IResource } from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { API_THROTTLE, ROUTES, type ApiFunctionName, type ApiKind } from '../config/app-config';

export class PollApi extends Construct {
  readonly url: string;

  constructor(scope: Construct, id: string, props: { kind: ApiKind; functions: Record<ApiFunctionName, IFunction> }) {
    super(scope, id);
    this.url = props.kind === 'http' ? this.httpApi(props.functions) : this.restApi(props.functions);
  }

  private httpApi(functions: Record<ApiFunctionName, IFunction>): string {
    const api = new HttpApi(this, 'HttpApi', { createDefaultStage: false });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      throttle: API_THROTTLE,
    });
    const integrations = new Map<ApiFunctionName, HttpLambdaIntegration>();
    for (const route of ROUTES) {
      if (!integrations.has(route.fn)) integrations.set(route.fn, new HttpLambdaIntegration(`${route.fn}Integration`, functions[route.fn]));
      api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration: integrations.get(route.fn)! });
    }
    return stage.url.replace(/\/$/, '');
  }

  private restApi(functions: Record<ApiFunctionName, IFunction>): string {
    const api = new RestApi(this, 'RestApi', {
      deployOptions: { stageName: 'prod', throttlingRateLimit: API_THROTTLE.rateLimit, throttlingBurstLimit: API_THROTTLE.burstLimit },
      // Handlers answer with JSON errors themselves; no API keys, no API Gateway CORS (same origin via CloudFront).
      cloudWatchRole: false,
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
    return api.url.replace(/\/$/, '');
  }
}
