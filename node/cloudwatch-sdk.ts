/**
 * The SDK clients `npm run cost -- --from-cloudwatch` reads a deployed stack with: CloudFormation for
 * its resources, CloudWatch for their metrics (CloudFront's in us-east-1). Here, not in cost/, which
 * loads no SDK: cost/report-files.ts imports this only when asked to read CloudWatch.
 */
import { CloudFormationClient, DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient, GetMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { EMULATED_REGION, LOCALSTACK } from '../config/emulated-aws';
import type { MetricsClient, StackResourcesClient } from '../cost/estimate/cloudwatch';
import { CLIENT_LIMITS, type CloudWatchTarget } from '../cost/cloudwatch-command';

/** The SDK's clients for the target: LocalStack's endpoint and test credentials, or the default chain. */
export function cloudWatchClients(
  target: CloudWatchTarget,
  endpoint: string = LOCALSTACK.endpoint,
): {
  stacks: StackResourcesClient;
  metrics: MetricsClient;
  globalMetrics: MetricsClient;
  region: () => Promise<string>;
} {
  // The SDK's notice that its releases of 2027 will need Node 22 is not this command's answer (Node 20 is supported).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const common = {
    maxAttempts: CLIENT_LIMITS.maxAttempts,
    requestHandler: {
      connectionTimeout: CLIENT_LIMITS.connectionTimeout,
      requestTimeout: CLIENT_LIMITS.requestTimeout,
      // Else the handler only warns when the answer is late, and waits on.
      throwOnRequestTimeout: true,
    },
    ...(target === 'localstack' ? { endpoint, credentials: LOCALSTACK.credentials, region: EMULATED_REGION } : {}),
  };
  const cfn = new CloudFormationClient(common);
  const cw = new CloudWatchClient(common);
  // CloudFront's metrics are in us-east-1, wherever the stack is.
  const cwGlobal = target === 'localstack' ? cw : new CloudWatchClient({ ...common, region: 'us-east-1' });
  return {
    stacks: { send: ({ input }) => cfn.send(new DescribeStackResourcesCommand(input)) },
    metrics: { send: ({ input }) => cw.send(new GetMetricDataCommand(input)) },
    globalMetrics: { send: ({ input }) => cwGlobal.send(new GetMetricDataCommand(input)) },
    // Where the stack's metrics are read: the region its bill is priced for.
    region: () => cw.config.region(),
  };
}
