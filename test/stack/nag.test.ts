/** cdk-nag's AWS Solutions checks: nothing unacknowledged in any variant, and a new finding stops synthesis. */
import { CfnResource, Fn, type Stack } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { buildApp, inTemporaryOutdir, SKIP_BUNDLING } from '../../lib/app';

/** Builds the app (changed by `edit`) and synthesizes it in a folder removed after. */
const synth = (context: Record<string, unknown>, edit: (stack: Stack) => void = () => undefined) =>
  inTemporaryOutdir((outdir) => {
    const { app, stack } = buildApp({ outdir, context: { ...context, ...SKIP_BUNDLING } });
    edit(stack);
    app.synth();
  });

describe('cdk-nag (AwsSolutionsChecks)', () => {
  it.each([
    {},
    { apiKind: 'rest' },
    { target: 'localstack' },
    { retainData: 'true' },
    { results: 'function-url' },
    { results: 'function-url', resultsConcurrency: 'off' },
    { results: 'cloudfront' },
    { results: 'cloudfront', apiKind: 'rest' },
    { target: 'localstack', results: 'function-url' },
    { hotPollVotesPerSecond: '50000' },
    { hotPollVotesPerSecond: '50000', apiKind: 'rest', results: 'function-url' },
    // What npm run cost -- --profile record-night recommends.
    { results: 'cloudfront', hotPollVotesPerSecond: '63000' },
    { target: 'localstack', hotPollVotesPerSecond: '2000' },
    // The budget flags: a budget on the stack's cost allocation tag.
    { monthlyBudgetUsd: '300', budgetEmail: 'ops@example.com', apiKind: 'rest' },
  ])('finds nothing unacknowledged in %j', (context) => {
    expect(() => synth(context)).not.toThrow();
  });

  it('stops synthesis on a circular dependency, which CloudFormation would refuse to deploy', () => {
    const cyclic = (stack: Stack) => {
      new CfnResource(stack, 'First', {
        type: 'AWS::SSM::Parameter',
        properties: { Type: 'String', Value: Fn.getAtt('Second', 'Value') },
      });
      new CfnResource(stack, 'Second', {
        type: 'AWS::SSM::Parameter',
        properties: { Type: 'String', Value: Fn.getAtt('First', 'Value') },
      });
    };
    expect(() => synth({}, cyclic)).toThrow(/Circular Dependencies/);
  });

  it('stops synthesis on a finding nobody acknowledged', () => {
    // No access logs, no SSL-only policy.
    expect(() => synth({}, (stack) => new Bucket(stack, 'UnloggedPlainBucket'))).toThrow(/AwsSolutions-S(1|10)/);
  });
});
