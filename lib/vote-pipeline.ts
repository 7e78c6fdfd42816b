/**
 * The vote path after the API: the FIFO vote queue, its dead-letter queue, the
 * consumer that counts (lambdas/entries/count-votes-function.ts), and two alarms: anything in the
 * DLQ, and a consumer failing minute after minute.
 */
import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CONSUMER_FAILURE_ALARM, CONSUMER_METRICS, VOTE_QUEUE } from '../config/vote-queue';
import { appFunction } from './functions';

export class VotePipeline extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly consumer: NodejsFunction;
  readonly dlqAlarm: Alarm;
  readonly consumerFailureAlarm: Alarm;

  constructor(scope: Construct, id: string, props: { table: ITable }) {
    super(scope, id);

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      fifo: true,
      retentionPeriod: Duration.days(VOTE_QUEUE.dlqRetentionDays),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });

    this.queue = new Queue(this, 'VoteQueue', {
      // FIFO: in-order delivery per message group is what makes counting exact (domain/tally.ts).
      fifo: true,
      // High-throughput FIFO: quotas apply per message group, not per queue.
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      visibilityTimeout: Duration.seconds(VOTE_QUEUE.visibilityTimeoutSeconds),
      retentionPeriod: Duration.days(VOTE_QUEUE.retentionDays),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: VOTE_QUEUE.maxReceiveCount },
    });

    this.consumer = appFunction(this, 'CountVotes', {
      entry: 'count-votes-function.ts',
      timeoutSeconds: VOTE_QUEUE.consumerTimeoutSeconds,
      environment: { tableName: props.table.tableName, deadLetterQueueUrl: this.deadLetterQueue.queueUrl },
      customMetrics: CONSUMER_METRICS.always,
    });
    // Only what counting needs: the conditional update of a counter item, its read on a redelivery, and
    // dead-lettering a record it judged on its last delivery (domain/dead-letter.ts).
    props.table.grant(this.consumer, 'dynamodb:UpdateItem', 'dynamodb:GetItem');
    this.deadLetterQueue.grant(this.consumer, 'sqs:SendMessage');
    this.consumer.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: VOTE_QUEUE.batchSize,
        reportBatchItemFailures: true,
      }),
    );

    this.dlqAlarm = new Alarm(this, 'DeadLetterAlarm', {
      alarmDescription: 'Votes reached the dead-letter queue: inspect them (npm run dlq -- inspect).',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: 'Maximum',
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    // A batch that fails whole makes the invocation fail (lambdas/handlers/count-votes.ts): a few are
    // retries; failures in every minute for minutes on end mean votes are not being counted.
    this.consumerFailureAlarm = new Alarm(this, 'ConsumerFailureAlarm', {
      alarmDescription:
        `The vote consumer failed in each of the last ${CONSUMER_FAILURE_ALARM.evaluationPeriods} minutes: ` +
        'votes wait in the queue and head for the dead-letter queue. ' +
        'See its logs (DynamoDB throttled or unreachable?).',
      metric: this.consumer.metricErrors({
        period: Duration.minutes(CONSUMER_FAILURE_ALARM.periodMinutes),
        statistic: 'Sum',
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: CONSUMER_FAILURE_ALARM.evaluationPeriods,
      datapointsToAlarm: CONSUMER_FAILURE_ALARM.evaluationPeriods,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
