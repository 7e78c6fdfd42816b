/**
 * What LocalStack's free plan can deploy. The localstack variant of the template
 * must use only these resource types: a change to the stack that needs a paid
 * feature fails this check (in npm test and before every LocalStack deploy)
 * instead of failing halfway through a deploy.
 *
 * Paid-only, from LocalStack's feature coverage pages and issue tracker (2024-2026):
 * API Gateway v2 (HTTP and WebSocket APIs), CloudFront, Lambda layers, CDK's
 * Custom::CDKBucketDeployment (it runs on a layer).
 */
export const FREE_PLAN_RESOURCE_TYPES = new Set([
  'AWS::DynamoDB::Table',
  'AWS::SQS::Queue',
  'AWS::SQS::QueuePolicy',
  'AWS::Lambda::Function',
  'AWS::Lambda::Permission',
  'AWS::Lambda::EventSourceMapping',
  // results=function-url: function URLs are on the free plan.
  'AWS::Lambda::Url',
  'AWS::IAM::Role',
  'AWS::IAM::Policy',
  'AWS::Logs::LogGroup',
  'AWS::CloudWatch::Alarm',
  'AWS::ApiGateway::RestApi',
  'AWS::ApiGateway::Resource',
  'AWS::ApiGateway::Method',
  'AWS::ApiGateway::Deployment',
  'AWS::ApiGateway::Stage',
  'AWS::S3::Bucket',
  'AWS::S3::BucketPolicy',
  'AWS::CDK::Metadata',
]);

// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is JSON of any shape
type Json = any;

/** One line per resource or feature the free plan cannot deploy; empty when the template fits. */
export function freePlanViolations(template: Json): string[] {
  const problems: string[] = [];
  for (const [id, resource] of Object.entries<Json>(template.Resources ?? {})) {
    if (!FREE_PLAN_RESOURCE_TYPES.has(resource.Type))
      problems.push(`${id}: ${resource.Type} is not on LocalStack's free plan`);
    if (resource.Type === 'AWS::Lambda::Function' && resource.Properties?.Layers?.length)
      problems.push(`${id}: Lambda layers are a paid LocalStack feature`);
  }
  return problems;
}
