/** What watches the bill in the template: the cost dashboard, the budget flags, the cost allocation tag. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { CfnResource, TagManager } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { CONSUMER_METRICS } from '../../config/vote-queue';
import { COST_ALLOCATION_TAG } from '../../config/budget';
import { FUNCTION_DEFAULTS } from '../../config/functions';
import { ROUTES } from '../../config/api-contract';
import type { PriceId } from '../../pricing/price-lines';
import { budgetFrom, buildApp, inTemporaryOutdir, SKIP_BUNDLING, synthesizeTemplate } from '../../lib/app';
import { templateFor } from '../support/synth';
import { US_EAST_1 } from '../support/prices';
import { bookFile } from '../../pricing/price-book';
import { PRICING_REGION_METADATA } from '../../config/stack';

const http = templateFor('http');

type Template = { Resources: Record<string, any> };
const ofType = (template: Template, type: string) =>
  Object.entries<any>(template.Resources).filter(([, r]) => r.Type === type);

describe('the cost dashboard', () => {
  type Widget = { type: string; properties: { title?: string; metrics?: any[][]; markdown?: string } };
  /** The dashboard's body as CloudWatch gets it, each deploy-time value (a name, the region) as TOKEN. */
  const bodyOf = (template: Template): { widgets: Widget[] } => {
    const dashboards = ofType(template, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const parts: unknown[] = dashboards[0][1].Properties.DashboardBody['Fn::Join'][1];
    return JSON.parse(parts.map((part) => (typeof part === 'string' ? part : 'TOKEN')).join(''));
  };
  const widget = (template: Template, title: RegExp) => {
    const found = bodyOf(template).widgets.filter((w) => title.test(w.properties.title ?? ''));
    expect(found, String(title)).toHaveLength(1);
    return found[0].properties.metrics!;
  };
  /** The expressions of a widget by label, and its plain metrics as namespace/name. */
  const expressions = (metrics: any[][]) =>
    Object.fromEntries(metrics.filter(([m]) => m.expression).map(([m]) => [m.label, m.expression as string]));
  const metricNames = (metrics: any[][]) =>
    metrics.filter(([m]) => typeof m === 'string').map(([namespace, name]) => `${namespace} ${name}`);
  /** Each price in a cost line, as it is written there: `* <price> / <units>`. */
  const pricesIn = (expression: string) =>
    [...expression.matchAll(/\* (\d[\d.]*) \/ (\d+)\b/g)].map(([, price, per]) => [Number(price), Number(per)]);
  const sheet = (...ids: PriceId[]) => ids.map((id) => [US_EAST_1.prices[id].tiers[0].price, US_EAST_1.prices[id].per]);
  const costLines = (template: Template) => expressions(widget(template, /^Cost rate by service/));

  it('prices each service’s usage with the price sheet’s first tier, in dollars an hour', () => {
    const lines = costLines(http.toJSON() as Template);
    expect(Object.keys(lines)).toEqual(['API Gateway', 'Lambda', 'SQS', 'DynamoDB', 'CloudFront']);
    expect(pricesIn(lines['API Gateway'])).toEqual(sheet('httpApiRequests'));
    expect(pricesIn(lines.Lambda)).toEqual(sheet('lambdaRequests', 'lambdaArmGbSeconds'));
    expect(pricesIn(lines.SQS)).toEqual(sheet('sqsFifoRequests'));
    expect(pricesIn(lines.DynamoDB)).toEqual(sheet('dynamoWriteUnits', 'dynamoReadUnits'));
    expect(pricesIn(lines.CloudFront)).toEqual(sheet('cloudFrontRequests', 'cloudFrontTransfer'));
    // GB-seconds are each function's milliseconds times its memory; every line is scaled from its period to an hour.
    expect(lines.Lambda.match(new RegExp(`Ms \\* ${FUNCTION_DEFAULTS.memoryMb}\\b`, 'g'))).toHaveLength(5);
    expect(lines.Lambda).toContain('/ 1000 / 1024');
    for (const expression of Object.values(lines)) expect(expression).toMatch(/\* 3600 \/ PERIOD\(\w+\)$/);
    expect(metricNames(widget(http.toJSON() as Template, /^Cost rate by service/))).toEqual(
      expect.arrayContaining([
        'AWS/ApiGateway Count',
        'AWS/Lambda Invocations',
        'AWS/Lambda Duration',
        'AWS/SQS NumberOfMessagesSent',
        'AWS/SQS NumberOfEmptyReceives',
        'AWS/DynamoDB ConsumedReadCapacityUnits',
        'AWS/DynamoDB ConsumedWriteCapacityUnits',
        'AWS/CloudFront Requests',
        'AWS/CloudFront BytesDownloaded',
      ]),
    );
    // CloudFront's metrics are in us-east-1 only.
    const edge = widget(http.toJSON() as Template, /^Cost rate by service/).filter(([ns]) => ns === 'AWS/CloudFront');
    for (const metric of edge) expect(metric.at(-1)).toMatchObject({ region: 'us-east-1' });
    // And the total, now.
    expect(Object.values(expressions(widget(http.toJSON() as Template, /^Cost rate now/)))[0]).toBe(
      'api + lambda + sqs + dynamodb + cloudfront',
    );
  });

  it("reads the prices from the region's book when it is synthesized: a price changed there changes the math", () => {
    // A book for a region no other test prices, made from us-east-1's with one price changed, for this synth only.
    const region = 'ap-southeast-7';
    const book = JSON.parse(readFileSync(bookFile('us-east-1'), 'utf8'));
    book.region = region;
    book.lines.sqsFifoRequests.tiers[0].price = 0.37;
    writeFileSync(bookFile(region), JSON.stringify(book));
    try {
      const template = synthesizeTemplate({ region });
      expect(pricesIn(costLines(template).SQS)).toEqual([[0.37, 1_000_000]]);
      expect(template.Metadata).toEqual({ [PRICING_REGION_METADATA]: region });
    } finally {
      rmSync(bookFile(region));
    }
    expect(() => synthesizeTemplate({ region })).toThrow(/No price book for ap-southeast-7: .*npm run prices/);
  });

  it('synthesizes for every design, with the REST API’s price for a REST API', () => {
    for (const context of [{ results: 'function-url' }, { results: 'cloudfront' }, { apiKind: 'rest' }]) {
      const lines = costLines(synthesizeTemplate(context));
      expect(Object.keys(lines)).toEqual(['API Gateway', 'Lambda', 'SQS', 'DynamoDB', 'CloudFront']);
    }
    const rest = costLines(synthesizeTemplate({ results: 'cloudfront', apiKind: 'rest' }));
    expect(pricesIn(rest['API Gateway'])).toEqual(sheet('restApiRequests'));
  });

  it('shows requests by route, votes queued and counted, the dead-letter queue and throttles', () => {
    const template = http.toJSON() as Template;
    const routes = widget(template, /^Requests by route/);
    expect(metricNames(routes)).toEqual(['AWS/ApiGateway Count', ...Array(4).fill('AWS/Lambda Invocations')]);
    const labels = routes.map((metric) => metric.at(-1).label).join(', ');
    for (const route of ROUTES) expect(labels).toContain(`${route.method} ${route.path}`);

    const votes = widget(template, /^Votes queued and counted/);
    expect(metricNames(votes)).toEqual(['AWS/SQS NumberOfMessagesSent', `${CONSUMER_METRICS.namespace} VotesCounted`]);
    // As Powertools publishes it: with the service dimension.
    expect(votes[1].slice(2, 4)).toEqual(['service', CONSUMER_METRICS.service]);

    const [dlqId] = ofType(template, 'AWS::SQS::Queue').find(([, q]) => !q.Properties.RedrivePolicy)!;
    const dlq = widget(template, /^Dead-letter queue/);
    expect(dlq).toEqual([
      [
        'AWS/SQS',
        'ApproximateNumberOfMessagesVisible',
        'QueueName',
        'TOKEN',
        expect.objectContaining({ stat: 'Maximum' }),
      ],
    ]);
    expect(JSON.stringify(ofType(template, 'AWS::CloudWatch::Dashboard')[0][1])).toContain(dlqId);

    const throttles = widget(template, /^Throttles/);
    expect(new Set(metricNames(throttles))).toEqual(
      new Set(['AWS/Lambda Throttles', 'AWS/ApiGateway 4xx', 'AWS/DynamoDB ThrottledRequests']),
    );
    expect(metricNames(widget(synthesizeTemplate({ apiKind: 'rest' }), /^Throttles/))).toContain(
      'AWS/ApiGateway 4XXError',
    );
    expect(Object.keys(http.toJSON().Outputs)).toContain('CostDashboardUrl');
  });

  it('is left out of the LocalStack variant, whose free plan has no dashboards', () => {
    expect(ofType(synthesizeTemplate({ target: 'localstack' }), 'AWS::CloudWatch::Dashboard')).toEqual([]);
  });
});

describe('the budget (-c monthlyBudgetUsd, -c budgetEmail)', () => {
  const budgeted = synthesizeTemplate({ monthlyBudgetUsd: '300', budgetEmail: 'ops@example.com' });

  it('is a monthly cost budget on the stack’s tag, mailing at 80% and 100% of actual and forecast spend', () => {
    const budgets = ofType(budgeted, 'AWS::Budgets::Budget');
    expect(budgets).toHaveLength(1);
    const { Budget, NotificationsWithSubscribers } = budgets[0][1].Properties;
    expect(Budget).toMatchObject({
      BudgetType: 'COST',
      TimeUnit: 'MONTHLY',
      BudgetLimit: { Amount: 300, Unit: 'USD' },
      CostFilters: { TagKeyValue: [`user:${COST_ALLOCATION_TAG.key}$${COST_ALLOCATION_TAG.value}`] },
    });
    expect(NotificationsWithSubscribers).toHaveLength(4);
    expect(
      NotificationsWithSubscribers.map((n: any) => [n.Notification.NotificationType, n.Notification.Threshold]),
    ).toEqual([
      ['ACTUAL', 80],
      ['ACTUAL', 100],
      ['FORECASTED', 80],
      ['FORECASTED', 100],
    ]);
    for (const n of NotificationsWithSubscribers) {
      expect(n.Notification).toMatchObject({ ComparisonOperator: 'GREATER_THAN', ThresholdType: 'PERCENTAGE' });
      expect(n.Subscribers).toEqual([{ SubscriptionType: 'EMAIL', Address: 'ops@example.com' }]);
    }
  });

  it('is not there by default', () => {
    expect(ofType(http.toJSON() as Template, 'AWS::Budgets::Budget')).toEqual([]);
  });

  it('refuses a wrong amount or address, one flag alone, and LocalStack, in one line', () => {
    expect(budgetFrom('320.5', 'a@b.io')).toEqual({ monthlyUsd: 320.5, email: 'a@b.io' });
    for (const amount of ['0', '-5', 'ten', '', 'Infinity'])
      expect(() => budgetFrom(amount, 'ops@example.com')).toThrow(/^monthlyBudgetUsd must be a positive number/);
    for (const email of ['ops', 'ops@example', 'ops@@example.com', 'o ps@example.com'])
      expect(() => budgetFrom('300', email)).toThrow(/^budgetEmail must be an e-mail address/);
    expect(() => budgetFrom('300', undefined)).toThrow(/go together/);
    expect(() => budgetFrom(undefined, 'ops@example.com')).toThrow(/go together/);
    expect(() => synthesizeTemplate({ target: 'localstack', monthlyBudgetUsd: '300', budgetEmail: 'a@b.io' })).toThrow(
      /^LocalStack’s free plan has no AWS Budgets/,
    );
  });
});

describe('the cost allocation tag', () => {
  it('is on every resource the stack makes that takes tags, the budget included', () => {
    for (const context of [{ monthlyBudgetUsd: '300', budgetEmail: 'ops@example.com' }, { target: 'localstack' }]) {
      const { stack, template } = inTemporaryOutdir((outdir) => {
        const built = buildApp({ outdir, context: { ...context, ...SKIP_BUNDLING } });
        return { stack: built.stack, template: built.app.synth().getStackByName(built.stack.stackName).template };
      });
      const taggable = stack.node
        .findAll()
        .filter(CfnResource.isCfnResource)
        .filter(
          (r) => TagManager.isTaggable(r) || TagManager.isTaggableV2(r) || /::(Role|Function)$/.test(r.cfnResourceType),
        );
      expect(taggable.length).toBeGreaterThan(20);
      const untagged = taggable
        .map((r) => [r.cfnResourceType, template.Resources[stack.resolve(r.logicalId)].Properties] as const)
        .filter(([, props]) => {
          const tags = props.Tags ?? props.ResourceTags;
          return Array.isArray(tags)
            ? !tags.some((t: any) => t.Key === COST_ALLOCATION_TAG.key && t.Value === COST_ALLOCATION_TAG.value)
            : tags?.[COST_ALLOCATION_TAG.key] !== COST_ALLOCATION_TAG.value;
        })
        .map(([type]) => type);
      expect(untagged, JSON.stringify(context)).toEqual([]);
    }
  });
});
