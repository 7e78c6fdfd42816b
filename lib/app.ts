/** Builds the CDK app; shared by bin/poll-app.ts, the tests and the local runtime. */
import { App, type AppProps } from 'aws-cdk-lib';
import { DEFAULT_API_KIND, type ApiKind } from '../config/app-config';
import { PollStack } from './poll-stack';

export const STACK_NAME = 'ServerlessPoll';

export function apiKindFrom(value: unknown): ApiKind {
  const kind = value ?? DEFAULT_API_KIND;
  if (kind !== 'http' && kind !== 'rest') {
    throw new Error(`apiKind must be "http" or "rest" (got ${JSON.stringify(kind)}); e.g. npx cdk synth -c apiKind=rest`);
  }
  return kind;
}

export function buildApp(props: AppProps = {}): { app: App; stack: PollStack } {
  const app = new App(props);
  const stack = new PollStack(app, STACK_NAME, {
    apiKind: apiKindFrom(app.node.tryGetContext('apiKind')),
    retainData: app.node.tryGetContext('retainData') === 'true' || app.node.tryGetContext('retainData') === true,
    description: 'Serverless poll platform: API Gateway, Lambda, SQS FIFO, DynamoDB',
  });
  return { app, stack };
}
