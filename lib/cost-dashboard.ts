/**
 * The cost dashboard: one CloudWatch dashboard with what the app does (requests by route, votes
 * queued and counted, the dead-letter queue, throttles) and what that costs right now, in dollars
 * an hour, as metric math over the same usage metrics. Its prices are read from the price sheet
 * (config/aws-prices.ts) at synth time, never written here: list prices, first tier, before free tiers,
 * so at small volume it shows what the usage would cost, not what the bill will say.
 *
 * Requests by route come from each route's function (its invocations), not from API Gateway's
 * per-route metrics: those are off, as they cost (docs/deploy.md, "Cost dashboard").
 */
import { Aws, CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import {
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  SingleValueWidget,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Operation, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CONSUMER_METRICS, type ConsumerMetricName } from '../config/vote-queue';
import { ROUTES, type ApiFunctionName } from '../config/api-contract';
import type { ApiKind } from '../config/stack';
import { PRICE_SHEET_CHECKED, PRICE_SHEET_REGION, PRICES, type PriceId } from '../config/aws-prices';
import { SQS_REQUESTS_PER_BATCH } from '../config/vote-rates';
import type { ApiMetrics } from './poll-api';

/** Every graph's period; the cost math scales each period's usage to an hour, whatever the period. */
const PERIOD = Duration.minutes(5);
/** CloudFront publishes its metrics in us-east-1 only, with this dimension. */
const CLOUDFRONT_METRICS = { region: 'us-east-1', dimension: { Region: 'Global' } } as const;
/** The price of each Lambda architecture's GB-second. */
const GB_SECOND_PRICE: Record<string, PriceId> = { arm64: 'lambdaArmGbSeconds', x86_64: 'lambdaX86GbSeconds' };

/**
 * A price as metric math: the first tier's price over its unit, e.g. `0.2 / 1000000` a request.
 * Plain decimals (no exponent), so that a test can read each one back and compare it with the sheet.
 */
export function priceTerm(id: PriceId): string {
  const { tiers, per } = PRICES[id];
  const [price, unit] = [String(tiers[0].price), String(per)];
  if (/e/i.test(price + unit)) throw new Error(`The price ${id} does not print as a plain decimal: ${price} / ${unit}`);
  return `${price} / ${unit}`;
}

/** One service's cost line: each usage (an expression in the price's own units) times its price, per hour. */
function costRate(label: string, metrics: Record<string, IMetric>, usage: [PriceId, string][]): MathExpression {
  const perHour = `3600 / PERIOD(${Object.keys(metrics)[0]})`;
  const dollars = usage.map(([id, units]) => `(${units}) * ${priceTerm(id)}`).join(' + ');
  return new MathExpression({ expression: `(${dollars}) * ${perHour}`, usingMetrics: metrics, label, period: PERIOD });
}

const sum = (metrics: Record<string, unknown>) => Object.keys(metrics).join(' + ');

export interface CostDashboardProps {
  apiKind: ApiKind;
  api: ApiMetrics;
  /** The API's functions by name; each route's requests are its function's invocations. */
  functions: Record<ApiFunctionName, LambdaFunction>;
  consumer: LambdaFunction;
  queue: IQueue;
  deadLetterQueue: IQueue;
  table: ITable;
  /** The site's distribution, where the design has one. */
  distribution?: Distribution;
}

export class CostDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: CostDashboardProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const fns = { ...props.functions, countVotes: props.consumer };
    const sumOf = (label: string, each: (fn: LambdaFunction) => Metric) =>
      new MathExpression({
        expression: sum(fns),
        usingMetrics: Object.fromEntries(Object.entries(fns).map(([name, fn]) => [name, each(fn)])),
        label,
        period: PERIOD,
      });

    const routes = Object.entries(props.functions).map(([name, fn]) =>
      fn.metricInvocations({
        label: ROUTES.filter((r) => r.fn === name)
          .map((r) => `${r.method} ${r.path}`)
          .join(', '),
        period: PERIOD,
      }),
    );
    const votesQueued = props.queue.metricNumberOfMessagesSent({ label: 'votes queued', period: PERIOD });
    const votesCounted = new Metric({
      namespace: CONSUMER_METRICS.namespace,
      metricName: 'VotesCounted' satisfies ConsumerMetricName,
      dimensionsMap: { service: CONSUMER_METRICS.service },
      statistic: 'Sum',
      label: 'votes counted',
      period: PERIOD,
    });

    const costs = this.costRates(props, fns);
    const total = new MathExpression({
      expression: sum(costs),
      usingMetrics: costs,
      label: 'all of it, $ an hour',
      period: PERIOD,
    });

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${stack.stackName}-cost-${Aws.REGION}`,
      defaultInterval: Duration.hours(3),
    });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          `**${stack.stackName}: usage and its cost rate.** Made by the stack (lib/cost-dashboard.ts): ` +
          'edits here are lost on the next deploy. Prices from config/aws-prices.ts ' +
          `(${PRICE_SHEET_REGION} list prices checked ${PRICE_SHEET_CHECKED}): first tier, before free tiers.`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Cost rate by service, $ an hour (stacked: the top is the total)',
        left: Object.values(costs),
        stacked: true,
        width: 18,
      }),
      new SingleValueWidget({ title: 'Cost rate now, $ an hour', metrics: [total], width: 6, height: 6 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Requests by route (each route’s function; the API’s count is every route)',
        left: [props.api.requests.with({ label: 'API requests (all routes)', period: PERIOD }), ...routes],
        width: 12,
      }),
      new GraphWidget({ title: 'Votes queued and counted', left: [votesQueued, votesCounted], width: 12 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Throttles',
        left: [
          sumOf('Lambda throttles (all functions)', (fn) => fn.metricThrottles({ period: PERIOD })),
          props.api.clientErrors.with({ label: 'API 4xx (its 429s among them)', period: PERIOD }),
          props.table.metricThrottledRequestsForOperations({
            operations: [
              Operation.GET_ITEM,
              Operation.BATCH_GET_ITEM,
              Operation.QUERY,
              Operation.UPDATE_ITEM,
              Operation.PUT_ITEM,
              Operation.DELETE_ITEM,
              Operation.BATCH_WRITE_ITEM,
            ],
            label: 'DynamoDB throttled requests',
            period: PERIOD,
          }),
        ],
        width: 12,
      }),
      new GraphWidget({
        title: 'Dead-letter queue: votes waiting (npm run dlq -- inspect)',
        left: [
          props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
            label: 'messages visible',
            statistic: 'Maximum',
            period: PERIOD,
          }),
        ],
        width: 12,
      }),
    );

    new CfnOutput(stack, 'CostDashboardUrl', {
      value:
        `https://${Aws.REGION}.console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}` +
        `#dashboards/dashboard/${this.dashboard.dashboardName}`,
      description: 'Usage and its cost rate in dollars an hour (docs/deploy.md)',
    });
  }

  /** Each service's cost rate in dollars an hour, by label. */
  private costRates(props: CostDashboardProps, fns: Record<string, LambdaFunction>): Record<string, MathExpression> {
    const rates: Record<string, MathExpression> = {};
    rates.api = costRate(
      'API Gateway',
      { apiRequests: props.api.requests.with({ statistic: 'Sum', period: PERIOD }) },
      [[props.apiKind === 'http' ? 'httpApiRequests' : 'restApiRequests', 'apiRequests']],
    );

    // Requests, and GB-seconds: each function's summed milliseconds times its memory, by architecture.
    const lambda: Record<string, IMetric> = {};
    const gbSeconds = new Map<PriceId, string[]>();
    for (const [name, fn] of Object.entries(fns)) {
      const cfn = fn.node.defaultChild as CfnFunction;
      lambda[`${name}Invocations`] = fn.metricInvocations({ period: PERIOD });
      lambda[`${name}Ms`] = fn.metricDuration({ statistic: 'Sum', period: PERIOD });
      const price = GB_SECOND_PRICE[(cfn.architectures as string[] | undefined)?.[0] ?? 'x86_64'];
      gbSeconds.set(price, [...(gbSeconds.get(price) ?? []), `${name}Ms * ${cfn.memorySize}`]);
    }
    rates.lambda = costRate('Lambda', lambda, [
      [
        'lambdaRequests',
        Object.keys(lambda)
          .filter((k) => k.endsWith('Invocations'))
          .join(' + '),
      ],
      ...[...gbSeconds].map(([id, terms]): [PriceId, string] => [id, `(${terms.join(' + ')}) / 1000 / 1024`]),
    ]);

    // A send per vote (and per dead letter), a receive and a batch delete per consumer invocation, and the
    // poller's empty receives: as the cost model counts them (cost/estimate/rates.ts).
    rates.sqs = costRate(
      'SQS',
      {
        sqsSent: props.queue.metricNumberOfMessagesSent({ period: PERIOD }),
        sqsDeadLettered: props.deadLetterQueue.metricNumberOfMessagesSent({ period: PERIOD }),
        sqsEmptyReceives: props.queue.metricNumberOfEmptyReceives({ period: PERIOD }),
        sqsBatches: props.consumer.metricInvocations({ period: PERIOD }),
      },
      [['sqsFifoRequests', `sqsSent + sqsDeadLettered + sqsEmptyReceives + ${SQS_REQUESTS_PER_BATCH} * sqsBatches`]],
    );

    rates.dynamodb = costRate(
      'DynamoDB',
      {
        readUnits: props.table.metricConsumedReadCapacityUnits({ period: PERIOD }),
        writeUnits: props.table.metricConsumedWriteCapacityUnits({ period: PERIOD }),
      },
      [
        ['dynamoReadUnits', 'readUnits'],
        ['dynamoWriteUnits', 'writeUnits'],
      ],
    );

    if (props.distribution) {
      const edge = { ...CLOUDFRONT_METRICS, statistic: 'Sum', period: PERIOD };
      const dimensionsMap = { DistributionId: props.distribution.distributionId, ...CLOUDFRONT_METRICS.dimension };
      rates.cloudfront = costRate(
        'CloudFront',
        {
          edgeRequests: props.distribution.metricRequests({ ...edge, dimensionsMap }),
          edgeBytes: props.distribution.metricBytesDownloaded({ ...edge, dimensionsMap }),
        },
        [
          ['cloudFrontRequests', 'edgeRequests'],
          // AWS's GB for the line (the sheet's bytes.perUnit), as the cost model counts it.
          ['cloudFrontTransfer', `edgeBytes / ${PRICES.cloudFrontTransfer.bytes.perUnit}`],
        ],
      );
    }
    return rates;
  }
}
