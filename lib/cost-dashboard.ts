/**
 * The cost dashboard: one CloudWatch dashboard with what the app does (requests by route, votes
 * queued and counted, the dead-letter queue, throttles) and what that costs right now, in dollars
 * an hour, as metric math over the same usage metrics. Which metrics price which line, and how, is the
 * table the estimator's CloudWatch reader reads too (config/priced-metrics.ts); the prices are read from the
 * price book of the stack's region (pricing/books/) at synth time, never written here: list prices, first tier,
 * before free tiers, so at small volume it shows what the usage would cost, not what the bill will say.
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
import { bookText } from '../pricing/book-words';
import type { PriceBook } from '../pricing/price-book';
import { listPrice } from '../pricing/tiers';
import { bytesPerUnit, type PriceId } from '../pricing/price-lines';
import {
  MB_PER_GB,
  METERED_METRICS,
  METERED_SERVICES,
  type MeteredMetric,
  MS_PER_SECOND,
  PRICED_USAGE,
  type PricedUsage,
  type Queue,
  TERM_OF_LABELS,
  type TermOf,
  type UsageTerm,
} from '../config/priced-metrics';
import type { ApiMetrics } from './poll-api';
import { priceFor } from '../pricing/priced-by';

/** Every graph's period; the cost math scales each period's usage to an hour, whatever the period. */
const PERIOD = Duration.minutes(5);

/**
 * A price as metric math: the first tier's price over its unit, e.g. `0.2 / 1000000` a request.
 * Plain decimals (no exponent), so that a test can read each one back and compare it with the sheet.
 */
export function priceTerm(book: PriceBook, id: PriceId): string {
  const list = listPrice(book.prices[id]);
  const [price, unit] = [String(list.price), String(list.per)];
  if (/e/i.test(price + unit)) throw new Error(`The price ${id} does not print as a plain decimal: ${price} / ${unit}`);
  return `${price} / ${unit}`;
}

/** One service's cost line: each usage (an expression in the price's own units) times its price, per hour. */
function costRate(
  book: PriceBook,
  label: string,
  metrics: Record<string, IMetric>,
  usage: [PriceId, string][],
): MathExpression {
  const perHour = `3600 / PERIOD(${Object.keys(metrics)[0]})`;
  const dollars = usage.map(([id, units]) => `(${units}) * ${priceTerm(book, id)}`).join(' + ');
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
  /** The prices of the stack's region. */
  book: PriceBook;
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
          `edits here are lost on the next deploy. Prices: ${bookText(props.book)}: first tier, before free tiers.`,
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

  /**
   * Each service's cost rate in dollars an hour, by its key: its metrics and its math made from the table
   * of priced metrics (config/priced-metrics.ts), which the estimator's CloudWatch reader is made from too.
   */
  private costRates(props: CostDashboardProps, fns: Record<string, LambdaFunction>): Record<string, MathExpression> {
    // Each resource a term reads, by the dimensions its metrics name it with (an API's: as its own metrics do).
    const queues: Record<Queue, Record<string, string>> = {
      voteQueue: { QueueName: props.queue.queueName },
      deadLetterQueue: { QueueName: props.deadLetterQueue.queueName },
    };
    const named: Record<Exclude<TermOf, 'eachFunction' | 'eachQueue'>, Record<string, string> | undefined> = {
      api: props.api.requests.dimensions,
      consumer: { FunctionName: props.consumer.functionName },
      ...queues,
      table: { TableName: props.table.tableName },
      distribution: props.distribution && { DistributionId: props.distribution.distributionId },
    };
    // A term's metrics, by their names in the math: a metric of each of the resources it reads.
    const parts = (t: UsageTerm): [string, Record<string, string> | undefined][] => {
      if (t.of === 'eachFunction')
        return Object.entries(fns).map(([name, fn]) => [name + t.id, { FunctionName: fn.functionName }]);
      if (typeof t.id !== 'string') {
        const ids = t.id;
        return (Object.keys(ids) as Queue[]).map((queue) => [ids[queue], queues[queue]]);
      }
      return [[t.id, named[t.of as keyof typeof named]]];
    };
    const metricOf = (t: UsageTerm, dimensions: Record<string, string>): IMetric => {
      const m: MeteredMetric = METERED_METRICS[t.metric];
      const dimension = typeof m.dimension === 'string' ? m.dimension : m.dimension[props.apiKind];
      if (!(dimension in dimensions))
        throw new Error(`The dashboard's ${t.metric}: ${TERM_OF_LABELS[t.of]} has no ${dimension}`);
      return new Metric({
        namespace: m.namespace,
        metricName: m.metricName,
        dimensionsMap: { ...dimensions, ...m.fixedDimensions },
        statistic: m.statistic,
        period: PERIOD,
        ...(m.region ? { region: m.region } : {}),
      }).attachTo(this);
    };
    const rates: Record<string, MathExpression> = {};
    for (const [key, service] of Object.entries(METERED_SERVICES)) {
      const lines = PRICED_USAGE.filter((line) => line.service === service);
      const terms = lines.flatMap((line) => line.terms);
      // A service the design has none of (a distribution) has no line.
      if (terms.some((t) => parts(t).some(([, dimensions]) => !dimensions))) continue;
      // Each function's metrics together, then the rest in the table's order.
      const metrics: Record<string, IMetric> = {};
      const perFunction = terms.filter((t) => t.of === 'eachFunction');
      for (const i of Object.keys(fns).keys())
        for (const t of perFunction) {
          const [id, dimensions] = parts(t)[i];
          metrics[id] = metricOf(t, dimensions!);
        }
      for (const t of terms.filter((t) => t.of !== 'eachFunction'))
        for (const [id, dimensions] of parts(t)) metrics[id] = metricOf(t, dimensions!);
      const names = (t: UsageTerm) => parts(t).map(([id]) => id);
      rates[key] = costRate(
        props.book,
        service,
        metrics,
        lines.flatMap((line) => usageOf(line, names, fns, props.apiKind)),
      );
    }
    return rates;
  }
}

/**
 * A line's usage in its price's units, as metric math over its terms' metrics (`names`): GB-seconds by the
 * price of each function's architecture.
 */
function usageOf(
  line: PricedUsage,
  names: (t: UsageTerm) => string[],
  fns: Record<string, LambdaFunction>,
  apiKind: ApiKind,
): [PriceId, string][] {
  const termText = (t: UsageTerm): string => {
    const sum = names(t).join(' + ');
    if (t.inBytes) return `${sum} / ${bytesPerUnit(priceFor(line.price, apiKind))}`;
    return t.times ? `${t.times} * ${sum}` : sum;
  };
  if (!line.terms.some((t) => t.atMemory))
    return [[priceFor(line.price, apiKind), line.terms.map(termText).join(' + ')]];
  // GB-seconds: each function's summed milliseconds times its memory, by the price of its architecture.
  const byPrice = new Map<PriceId, string[]>();
  for (const t of line.terms)
    for (const [i, fn] of Object.values(fns).entries()) {
      const cfn = fn.node.defaultChild as CfnFunction;
      const price = priceFor(line.price, (cfn.architectures as string[] | undefined)?.[0] ?? 'x86_64');
      byPrice.set(price, [...(byPrice.get(price) ?? []), `${names(t)[i]} * ${cfn.memorySize}`]);
    }
  return [...byPrice].map(([id, terms]) => [id, `(${terms.join(' + ')}) / ${MS_PER_SECOND} / ${MB_PER_GB}`]);
}
