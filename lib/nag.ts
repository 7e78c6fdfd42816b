/**
 * cdk-nag's AWS Solutions checks run on every synth (and so in every test that
 * synthesizes): a finding stops synthesis unless it is fixed or acknowledged
 * in code, next to the construct it is about, with the reason.
 */
import { Validations, type App, type CfnElement, type Stack } from 'aws-cdk-lib';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export function addNagChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}

/** Acknowledges rules on a construct, one reason for all of them. */
export function acknowledge(scope: IConstruct, ids: string[], reason: string): void {
  for (const id of ids) Validations.of(scope).acknowledge({ id, reason });
}

/**
 * CDK's own site-upload function (a stack-level singleton of BucketDeployment):
 * its role and runtime are CDK's, not ours to change.
 */
export function acknowledgeCdkDeploymentFunction(stack: Stack, siteBucket: IBucket): void {
  const bucketArn = `<${stack.getLogicalId(siteBucket.node.defaultChild as CfnElement)}.Arn>`;
  const findings = [
    'AwsSolutions-L1',
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map(
      (action) => `AwsSolutions-IAM5[Action::${action}]`,
    ),
    'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
    `AwsSolutions-IAM5[Resource::${bucketArn}/*]`,
    // cloudfront:CreateInvalidation has no resource-level permissions.
    'AwsSolutions-IAM5[Resource::*]',
  ];
  for (const child of stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
    acknowledge(
      child,
      findings,
      'CDK BucketDeployment’s provider function: CDK sets its runtime and its S3 permissions ' +
        '(the asset bucket and the site bucket only); it runs only during deploys.',
    );
  }
}
