/**
 * The serverless poll platform. Read it top-down: the table, the vote pipeline
 * (queue -> consumer), the API functions, the API. Settings come from
 * config/ (a file a topic); handlers live in lambdas/.
 */
import { CfnOutput, CfnResource, Duration, RemovalPolicy, Stack, TagManager, Tags, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { FunctionUrlAuthType, HttpMethod } from 'aws-cdk-lib/aws-lambda';
import { COST_ALLOCATION_TAG } from '../config/budget';
import { PRICING_REGION_METADATA } from '../config/stack';
import type { PriceBook } from '../pricing/price-book';
import { DEFAULT_RESULTS_DELIVERY, type ResultsDelivery } from '../config/results-delivery';
import type { CaptchaSettings } from '../config/captcha';
import { RATE_LIMITS } from '../config/throttling';
import type { FunctionSettings } from '../config/function-env';
import { TABLE } from '../config/table';
import type { ApiFunctionName } from '../config/api-contract';
import type { ApiKind } from '../config/stack';
import type { SiteConfig } from '../config/site';
import { DEFAULT_VOTE_PATH, type VotePath } from '../config/vote-path';
import { type BudgetSettings, CostBudget } from './cost-budget';
import { CostDashboard } from './cost-dashboard';
import { appFunction } from './functions';
import { acknowledge, acknowledgeCdkDeploymentFunction } from './nag';
import { PollApi } from './poll-api';
import { PollSite, type SiteHosting } from './site';
import { VotePipeline } from './vote-pipeline';
import { pageCaptcha } from '../domain/captcha';

export interface StackCaptchaSettings extends CaptchaSettings {
  /** Name of an SSM SecureString with the secret, created outside the stack. */
  secretParameter: string;
}

export interface PollStackProps extends StackProps {
  apiKind: ApiKind;
  siteHosting: SiteHosting;
  /**
   * Keep the table (and point-in-time recovery) when the stack is deleted.
   * Off by default: polls live minutes to days and the seed app keeps them in
   * memory, so backups would cost more than the data is worth.
   */
  retainData?: boolean;
  /** Per-address limits on create and vote (RATE_LIMITS); `-c rateLimits=off` for load-testing a deployment. */
  rateLimits?: boolean;
  captcha?: StackCaptchaSettings;
  /** How the page reads results (config RESULTS_DELIVERIES); `api` by default. */
  results?: ResultsDelivery;
  /** results=function-url: the results function's reserved concurrency; none when undefined. */
  resultsConcurrency?: number;
  /** The vote path's size (`-c hotPollVotesPerSecond`, sizing/vote-path.ts); the default size when absent. */
  votePath?: VotePath;
  /**
   * The cost dashboard (lib/cost-dashboard.ts), priced from this book (the stack's region's); none for LocalStack,
   * whose free plan has no dashboards.
   */
  costDashboard?: PriceBook;
  /** The AWS Region the stack is synthesized for, recorded in the template's Metadata: what npm run cost prices. */
  pricingRegion?: string;
  /** `-c monthlyBudgetUsd=<n> -c budgetEmail=<address>`: a monthly cost budget on the stack's tag. */
  budget?: BudgetSettings;
}

/**
 * The vote path's size as the create function reads it: none for the default size (the template stays as
 * it was). It records it in each new poll (the cost model reads it there: cost/estimate/stack-config.ts).
 */
function votePathEnv(votePath: VotePath): FunctionSettings {
  if (votePath.hotPollVotesPerSecond === undefined) return {};
  return { groupsPerPoll: String(votePath.groupsPerPoll), counterShards: String(votePath.counterShards) };
}

/**
 * CDK's own custom-resource provider (the site bucket's auto-delete) writes its role and function as plain
 * CloudFormation, which Tags.of() does not reach: they get the cost allocation tag written in.
 */
function tagPlainResources(stack: Stack): void {
  const takesTags = new Set(['AWS::IAM::Role', 'AWS::Lambda::Function']);
  for (const resource of stack.node.findAll().filter(CfnResource.isCfnResource)) {
    if (!takesTags.has(resource.cfnResourceType)) continue;
    if (TagManager.isTaggable(resource) || TagManager.isTaggableV2(resource)) continue;
    resource.addPropertyOverride('Tags', [{ Key: COST_ALLOCATION_TAG.key, Value: COST_ALLOCATION_TAG.value }]);
  }
}

export class PollStack extends Stack {
  constructor(scope: Construct, id: string, props: PollStackProps) {
    super(scope, id, props);
    // On everything the stack makes that takes a tag: what the bill and the budget tell its spend by.
    Tags.of(this).add(COST_ALLOCATION_TAG.key, COST_ALLOCATION_TAG.value);

    const table = new Table(this, 'PollTable', {
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE.ttlAttribute,
      // Encrypted at rest with an AWS-owned key: no KMS charges per request.
      encryption: TableEncryption.DEFAULT,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: props.retainData ?? false },
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    const votePath = props.votePath ?? DEFAULT_VOTE_PATH;
    const sizeEnv = votePathEnv(votePath);
    const votes = new VotePipeline(this, 'Votes', { table });
    const site = new PollSite(this, 'Site', { hosting: props.siteHosting });

    // The API answers CORS for the site's origin, unless the site fronts it on its own (results=cloudfront).
    const sameOrigin = props.results === 'cloudfront';
    const env: FunctionSettings = {
      tableName: table.tableName,
      ...(sameOrigin ? {} : { siteOrigin: site.origin }),
    };
    const captchaEnv: FunctionSettings = props.captcha
      ? { captchaProvider: props.captcha.provider, captchaSecretParameter: props.captcha.secretParameter }
      : {};
    const rateLimit = (limit: { perMinute: number; burst: number }) =>
      props.rateLimits === false ? 'off' : `${limit.perMinute}/${limit.burst}`;
    const functions: Record<ApiFunctionName, ReturnType<typeof appFunction>> = {
      createPoll: appFunction(this, 'CreatePoll', {
        entry: 'create-poll-function.ts',
        environment: { ...env, ...captchaEnv, ...sizeEnv, rateLimit: rateLimit(RATE_LIMITS.createPoll) },
      }),
      getPoll: appFunction(this, 'GetPoll', { entry: 'get-poll-function.ts', environment: env }),
      castVote: appFunction(this, 'CastVote', {
        entry: 'cast-vote-function.ts',
        environment: {
          ...env,
          ...captchaEnv,
          queueUrl: votes.queue.queueUrl,
          rateLimit: rateLimit(RATE_LIMITS.castVote),
        },
      }),
      getResults: appFunction(this, 'GetResults', {
        entry: 'get-results-function.ts',
        environment: { ...env, ...(props.results === 'cloudfront' ? { resultsKeepCounts: 'false' } : {}) },
        // Behind its own public URL nothing throttles it but this.
        reservedConcurrency: props.results === 'function-url' ? props.resultsConcurrency : undefined,
      }),
    };

    // Least privilege: each function gets the actions it calls, nothing more.
    table.grant(functions.createPoll, 'dynamodb:BatchWriteItem');
    table.grant(functions.getPoll, 'dynamodb:GetItem');
    // Results: a Query of a poll's counter items under its key, and a BatchGetItem of those on keys of their own.
    table.grant(functions.getResults, 'dynamodb:Query', 'dynamodb:BatchGetItem');
    table.grant(functions.castVote, 'dynamodb:GetItem');
    // The vote function may write only voter claims (their own key prefix), never polls or counts.
    functions.castVote.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${TABLE.keys.voterPrefix}*`] } },
      }),
    );
    votes.queue.grant(functions.castVote, 'sqs:SendMessage');
    if (props.captcha) {
      // Only the one parameter; SecureStrings under the AWS managed key need no extra KMS grant.
      const secret = StringParameter.fromSecureStringParameterAttributes(this, 'CaptchaSecret', {
        parameterName: props.captcha.secretParameter,
      });
      const readSecret = new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['ssm:GetParameter'],
        resources: [secret.parameterArn],
      });
      for (const fn of [functions.createPoll, functions.castVote]) fn.addToRolePolicy(readSecret);
    }

    const api = new PollApi(this, 'Api', {
      kind: props.apiKind,
      functions,
      siteOrigin: sameOrigin ? undefined : site.origin,
      throttle: { rateLimit: votePath.stageRateLimit, burstLimit: votePath.stageBurstLimit },
    });
    const config: SiteConfig = {
      apiUrl: sameOrigin ? '' : api.url,
      captcha: pageCaptcha(props.captcha),
    };
    if (props.results === 'function-url') {
      const url = functions.getResults.addFunctionUrl({
        authType: FunctionUrlAuthType.NONE,
        cors: { allowedOrigins: [site.origin], allowedMethods: [HttpMethod.GET], maxAge: Duration.hours(2) },
      });
      config.resultsUrl = url.url;
      new CfnOutput(this, 'ResultsUrl', {
        value: url.url,
        description: 'Where the page reads results (results=function-url)',
      });
    } else if (sameOrigin) {
      site.frontApi(api.origin);
    }
    site.deploy(config);
    if (props.costDashboard) {
      new CostDashboard(this, 'Cost', {
        apiKind: props.apiKind,
        api: api.metrics,
        functions,
        consumer: votes.consumer,
        queue: votes.queue,
        deadLetterQueue: votes.deadLetterQueue,
        table,
        distribution: site.distribution,
        book: props.costDashboard,
      });
    }
    if (props.budget) new CostBudget(this, 'Budget', props.budget);
    if (props.pricingRegion) this.templateOptions.metadata = { [PRICING_REGION_METADATA]: props.pricingRegion };
    acknowledgeCdkDeploymentFunction(this, site.bucket);
    tagPlainResources(this);
    if (!props.retainData) {
      acknowledge(
        table,
        ['AwsSolutions-DDB3'],
        'Polls live minutes to days and the seed keeps them in memory: ' +
          'backups would cost more than the data is worth. -c retainData=true turns PITR on.',
      );
    }

    new CfnOutput(this, 'SiteUrl', { value: site.origin, description: 'Open this in a browser' });
    new CfnOutput(this, 'SiteBucketName', { value: site.bucket.bucketName });
    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL of the API (routes start with /api)' });
    new CfnOutput(this, 'ApiKind', { value: props.apiKind });
    new CfnOutput(this, 'Results', {
      value: props.results ?? DEFAULT_RESULTS_DELIVERY,
      description: 'How the page reads results (-c results=...)',
    });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'VoteQueueUrl', { value: votes.queue.queueUrl });
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: votes.deadLetterQueue.queueUrl });
    new CfnOutput(this, 'DeadLetterAlarmName', { value: votes.dlqAlarm.alarmName });
    new CfnOutput(this, 'ConsumerFailureAlarmName', { value: votes.consumerFailureAlarm.alarmName });
  }
}
