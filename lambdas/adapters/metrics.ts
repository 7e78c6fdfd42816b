/**
 * The consumer's metrics through Powertools Metrics: CloudWatch's embedded metric format,
 * written to stdout with the invocation's logs, so they cost no API call (only their log
 * bytes and the custom metrics themselves; see the cost model).
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { CONSUMER_METRICS } from '../../config/vote-queue';
import type { ConsumerMetrics } from '../../domain/ports';

/** The ConsumerMetrics port over Powertools Metrics. Throws nothing of ours. */
export function powertoolsMetrics(
  metrics: Metrics = new Metrics({ namespace: CONSUMER_METRICS.namespace }),
): ConsumerMetrics {
  return {
    add: (name, value) => void metrics.addMetric(name, MetricUnit.Count, value),
    deadLettered(verdict) {
      // Its own dimension: one metric per verdict, published at once.
      metrics
        .singleMetric()
        .addDimension('Verdict', verdict)
        .addMetric(CONSUMER_METRICS.byVerdict, MetricUnit.Count, 1);
    },
    publish: () => void metrics.publishStoredMetrics(),
  };
}
