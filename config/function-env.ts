/**
 * The functions' environment, each variable's name written once: the stack sets them (lib/), the handlers
 * read them (lambdas/adapters/lambda-settings.ts and the AWS clients), the local runtime sets its own over
 * the template's (local/runtime.ts). No other file spells a name (test/architecture/function-env.test.ts),
 * and the stack gives a function only what this table says it reads.
 */
import type { ApiFunctionName } from './api-contract';
import type { AppFunctionName } from './functions';

const API: readonly ApiFunctionName[] = ['createPoll', 'getPoll', 'castVote', 'getResults'];
const ALL: readonly AppFunctionName[] = [...API, 'countVotes'];
/** The functions a client can run up a bill with: rate-limited, and behind the CAPTCHA when there is one. */
const GUARDED: readonly AppFunctionName[] = ['createPoll', 'castVote'];

export interface FunctionVariable {
  name: string;
  /** The functions that read it: the stack sets it on no other. */
  functions: readonly AppFunctionName[];
  /** Set by the local runtime only (local/runtime.ts), never by the stack. */
  localOnly?: true;
}

/** Every variable a function of ours reads, by what it holds. */
export const FUNCTION_ENV = {
  /** Powertools' service name, on every log line and metric (config/vote-queue.ts CONSUMER_METRICS.service). */
  serviceName: { name: 'POWERTOOLS_SERVICE_NAME', functions: ALL },
  tableName: { name: 'TABLE_NAME', functions: ALL },
  /** The site's origin, which the API answers CORS for; absent when the site fronts the API (results=cloudfront). */
  siteOrigin: { name: 'SITE_ORIGIN', functions: API },
  queueUrl: { name: 'QUEUE_URL', functions: ['castVote'] },
  deadLetterQueueUrl: { name: 'DEAD_LETTER_QUEUE_URL', functions: ['countVotes'] },
  /** "<perMinute>/<burst>" (config/throttling.ts RATE_LIMITS) or "off". */
  rateLimit: { name: 'RATE_LIMIT', functions: GUARDED },
  /** With a CAPTCHA: its provider, and the SSM parameter that holds its secret. */
  captchaProvider: { name: 'CAPTCHA_PROVIDER', functions: GUARDED },
  captchaSecretParameter: { name: 'CAPTCHA_SECRET_PARAMETER', functions: GUARDED },
  /** A stand-in for the provider's siteverify. */
  captchaVerifyUrl: { name: 'CAPTCHA_VERIFY_URL', functions: GUARDED, localOnly: true },
  /**
   * The vote path's size (sizing/vote-path.ts) when the stack sizes it for a hot poll, absent for the default
   * size: the create function records it in each new poll (a poll keeps its size for life: domain/poll.ts),
   * and the cost model reads the deployment's size there (cost/estimate/stack-config.ts).
   */
  groupsPerPoll: { name: 'VOTE_GROUPS_PER_POLL', functions: ['createPoll'] },
  counterShards: { name: 'COUNTER_SHARDS', functions: ['createPoll'] },
  /**
   * "false" behind CloudFront (results=cloudfront), where the distribution is the results cache: the function
   * answers every request it gets fresh, with the whole max-age, which CloudFront keeps. A kept copy's answer
   * would say what is left of its max-age, down to 0, which CloudFront does not cache.
   */
  resultsKeepCounts: { name: 'RESULTS_KEEP_COUNTS', functions: ['getResults'] },
  /** Where the emulated DynamoDB and SQS answer (on AWS the SDK finds the service itself). */
  dynamoEndpoint: { name: 'AWS_ENDPOINT_URL_DYNAMODB', functions: ALL, localOnly: true },
  sqsEndpoint: { name: 'AWS_ENDPOINT_URL_SQS', functions: ['castVote', 'countVotes'], localOnly: true },
} as const satisfies Record<string, FunctionVariable>;

export type FunctionEnvKey = keyof typeof FUNCTION_ENV;
/** What the stack tells a function, by the table's keys. */
export type FunctionSettings = Partial<Record<FunctionEnvKey, string>>;
