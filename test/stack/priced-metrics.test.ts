/**
 * The stack's cost dashboard (lib/cost-dashboard.ts) and the estimator's CloudWatch reader
 * (cost/estimate/cloudwatch.ts) are both made from one table (config/priced-metrics.ts): here they must
 * count alike. Each metric of the table is given a value on both sides, one at a time: the dashboard's
 * math, as synthesized and evaluated, and the reader's priced usage of an hour, at the first tier's price,
 * must come to the same dollars an hour, service by service, and to more than nothing where the metric feeds
 * a line. A metric either side leaves out, counts twice, or converts otherwise fails it.
 */
import { describe, expect, it } from 'vitest';
import type { PriceId } from '../../pricing/price-lines';
import { METERED_METRICS, type MeteredMetricId, PRICED_USAGE } from '../../config/priced-metrics';
import { type Measurement, metricQueries } from '../../cost/estimate/cloudwatch';
import { meteredUsage } from '../../cost/estimate/cloudwatch-bill';
import { readStackConfig } from '../../cost/estimate/stack-config';
import { FUNCTION_ROLES } from '../../cost/usage/unit-costs';
import { synthesizeTemplate } from '../../lib/app';
import { US_EAST_1 } from '../support/prices';

type Template = { Resources: Record<string, { Type: string }> };
/** A metric of the dashboard's cost widget: its namespace and name, and its name in the math. */
type Rendered = { namespace: string; name: string; id: string };

/** The cost widget of the synthesized dashboard: each service's expression by label, and its metrics. */
function costWidget(template: Template): { expressions: Record<string, string>; metrics: Rendered[] } {
  const [dashboard] = Object.values(template.Resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
  const parts: unknown[] = (dashboard as any).Properties.DashboardBody['Fn::Join'][1];
  const body = JSON.parse(parts.map((part) => (typeof part === 'string' ? part : 'TOKEN')).join(''));
  const widget = body.widgets.find((w: any) => /^Cost rate by service/.test(w.properties.title ?? ''));
  const all: any[][] = widget.properties.metrics;
  return {
    expressions: Object.fromEntries(all.filter(([m]) => m.expression).map(([m]) => [m.label, m.expression])),
    metrics: all.filter(([m]) => typeof m === 'string').map((m) => ({ namespace: m[0], name: m[1], id: m.at(-1).id })),
  };
}

/** An expression's value with each metric's value given, over a period of an hour. */
function evaluate(expression: string, values: Record<string, number>): number {
  const arithmetic = expression
    .replace(/PERIOD\(\w+\)/g, '3600')
    .replace(/[a-z][A-Za-z0-9]*/g, (id) => String(values[id] ?? 0));
  expect(arithmetic).toMatch(/^[\d.\s()+*/]+$/);
  return Function(`return ${arithmetic}`)();
}

/** A measurement of an hour where only `metric` has datapoints: `value` for each resource the dashboard reads. */
function measurementOf(metric: MeteredMetricId, value: number, count: number, kind: 'http' | 'rest'): Measurement {
  const start = new Date('2026-11-25T12:00:00Z');
  const m: Measurement = {
    stackName: 'ServerlessPoll',
    window: { start, end: new Date(start.getTime() + 3_600_000) },
    missing: {},
    api: { kind, routes: {} },
    functions: FUNCTION_ROLES.map((role) => ({ name: role, role })),
    sqs: {},
    dynamo: {},
    cloudFront: {},
  };
  // What the reader would have summed over the resources: each function on its own, the rest as totals.
  if (metric === 'invocations') for (const f of m.functions) f.invocations = value;
  else if (metric === 'durationMs') for (const f of m.functions) f.durationMs = value;
  else if (metric === 'apiRequests') m.api!.requests = value * count;
  else if (metric === 'messagesSent') m.sqs!.sent = value * count;
  else if (metric === 'emptyReceives') m.sqs!.emptyReceives = value * count;
  else if (metric === 'readUnits') m.dynamo!.readUnits = value * count;
  else if (metric === 'writeUnits') m.dynamo!.writeUnits = value * count;
  else if (metric === 'edgeRequests') m.cloudFront!.requests = value * count;
  else if (metric === 'edgeBytes') m.cloudFront!.bytes = value * count;
  else throw new Error(`No way to measure ${metric} here`);
  return m;
}

/** Dollars at each price's first tier, by the service a bill names. */
function dollarsByService(usage: Map<PriceId, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, units] of usage) {
    const { service, tiers, per } = US_EAST_1.prices[id];
    out[service] = (out[service] ?? 0) + (units * tiers[0].price) / per;
  }
  return out;
}

/** The reader's fallbacks: metrics it counts only where the one they stand in for has no datapoints. */
const fallbacks = new Set(PRICED_USAGE.flatMap((l) => l.terms.flatMap((t) => t.orElse?.metrics ?? [])));

describe('the cost dashboard and the CloudWatch reader, made from one table', () => {
  for (const context of [{}, { apiKind: 'rest', results: 'cloudfront' }]) {
    const label = JSON.stringify(context);
    const template = synthesizeTemplate(context) as Template;
    const { expressions, metrics } = costWidget(template);
    const stack = readStackConfig(template);
    const kind = stack.apiKind;

    it(`count each metric alike, service by service (${label})`, () => {
      const metered = (Object.keys(METERED_METRICS) as MeteredMetricId[]).filter((id) => !fallbacks.has(id));
      for (const id of metered) {
        const { namespace, metricName, service } = METERED_METRICS[id];
        const rendered = metrics.filter((m) => m.namespace === namespace && m.name === metricName);
        // Every metric the table prices is in the dashboard's math.
        expect(rendered.length, id).toBeGreaterThan(0);
        const value = 1000;
        const values = Object.fromEntries(rendered.map((m) => [m.id, value]));
        const dashboard = Object.fromEntries(
          Object.entries(expressions).map(([service, expression]) => [service, evaluate(expression, values)]),
        );
        const reader = dollarsByService(meteredUsage(measurementOf(id, value, rendered.length, kind), stack));
        expect(dashboard[service], id).toBeGreaterThan(0);
        // Alike to the last few digits whatever the size (a GB of bytes is a small number of dollars).
        for (const s of new Set([...Object.keys(dashboard), ...Object.keys(reader)])) {
          if (dashboard[s] === 0) expect(reader[s] ?? 0, `${id}: ${s}`).toBe(0);
          else expect((reader[s] ?? 0) / dashboard[s], `${id}: ${s}`).toBeCloseTo(1, 9);
        }
      }
    });

    it(`read every metric of the table, and nothing the dashboard does not (${label})`, () => {
      // The stack's resources as DescribeStackResources lists them (a queue's physical id is its URL).
      const resources = Object.entries(template.Resources).map(([logicalId, r]) => ({
        LogicalResourceId: logicalId,
        ResourceType: r.Type,
        PhysicalResourceId: r.Type === 'AWS::SQS::Queue' ? `https://sqs.example/123/${logicalId}` : logicalId,
        Timestamp: new Date(0),
        ResourceStatus: 'CREATE_COMPLETE' as const,
      }));
      const asked = new Set(metricQueries(resources).map((q) => `${q.namespace} ${q.metricName}`));
      const table = Object.values(METERED_METRICS).map((m) => `${m.namespace} ${m.metricName}`);
      expect([...asked].sort()).toEqual([...new Set(table)].sort());
      for (const m of metrics) expect(asked).toContain(`${m.namespace} ${m.name}`);
    });
  }

  it('falls back to the messages received and deleted where the consumer measured no batches', () => {
    const m = measurementOf('messagesSent', 100, 1, 'http');
    m.sqs = { ...m.sqs, received: 100, deleted: 100 };
    const stack = readStackConfig(synthesizeTemplate({}));
    expect(meteredUsage(m, stack).get('sqsFifoRequests')).toBe(300);
    for (const f of m.functions) f.invocations = f.role === 'countVotes' ? 10 : 0;
    // A send per message, and a receive and a batch delete per batch: the received and deleted are not counted.
    expect(meteredUsage(m, stack).get('sqsFifoRequests')).toBe(120);
  });
});
