/**
 * The stack's flags, each written once: its name as CDK context (`npx cdk synth -c apiKind=rest`,
 * read by lib/app.ts) and as a command's option (`npm start -- --api-kind rest`), how its value is
 * read, and what a wrong value is told. The checks that join two flags (a budget's amount and its
 * e-mail, what LocalStack cannot deploy) stay with the stack's settings in lib/app.ts.
 */
import { BUDGET_FLAGS } from './budget';
import { DEFAULT_RESULTS_DELIVERY, RESULTS_DELIVERIES, RESULTS_URL, type ResultsDelivery } from './results-delivery';
import { DEFAULT_API_KIND, type ApiKind, type DeployTarget } from './stack';
import { API_RATE_FLAG, HOT_POLL_FLAG, MAX_API_RATE_LIMIT, MAX_HOT_POLL_VOTES_PER_SECOND } from './vote-path';

/** What a flag's parse returns for a value it does not take. */
export const INVALID: unique symbol = Symbol('invalid');

export interface Flag<T> {
  /** Its CDK context key. */
  name: string;
  /** Its name as a command's option: the key in kebab case. */
  option: string;
  /** What a value must be, as the message says it after the flag's name. */
  mustBe: string;
  /** The flags of a value that works, as `npx cdk synth` takes them, for the context's message. */
  example?: string;
  /** The value read (absent, undefined, is the flag's default), or INVALID. */
  parse(value: unknown): T | typeof INVALID;
}

/** A whole number from 1 to `max`, or off (undefined, as when absent). */
const rate =
  (max: number) =>
  (value: unknown): number | undefined | typeof INVALID => {
    if (value === undefined || value === null || value === '' || value === 'off') return undefined;
    const n = typeof value === 'number' ? value : Number(value);
    return Number.isInteger(n) && n >= 1 && n <= max ? n : INVALID;
  };

const oneOf =
  <T extends string>(values: readonly T[], fallback: T) =>
  (value: unknown): T | typeof INVALID => {
    const chosen = value ?? fallback;
    return values.includes(chosen as T) ? (chosen as T) : INVALID;
  };

/** on or off (true or false, as CDK context may carry a boolean), or `fallback` when absent. */
const onOff =
  (fallback: boolean) =>
  (value: unknown): boolean | typeof INVALID => {
    if (value === undefined) return fallback;
    if (value === 'on' || value === 'true' || value === true) return true;
    if (value === 'off' || value === 'false' || value === false) return false;
    return INVALID;
  };

const BUDGET_EXAMPLE = `-c ${BUDGET_FLAGS.amount}=320 -c ${BUDGET_FLAGS.email}=you@example.com`;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;
/** An AWS Region code: us-east-1, ap-southeast-4. */
const REGION_CODE = /^[a-z]{2}(-[a-z]+)+-\d+$/;

export const FLAGS = {
  target: {
    name: 'target',
    option: 'target',
    mustBe: 'must be "aws" or "localstack"',
    example: '-c target=localstack',
    parse: oneOf<DeployTarget>(['aws', 'localstack'], 'aws'),
  },
  apiKind: {
    name: 'apiKind',
    option: 'api-kind',
    mustBe: 'must be "http" or "rest"',
    example: '-c apiKind=rest',
    parse: oneOf<ApiKind>(['http', 'rest'], DEFAULT_API_KIND),
  },
  results: {
    name: 'results',
    option: 'results',
    mustBe: `must be one of ${RESULTS_DELIVERIES.join(', ')}`,
    example: '-c results=function-url',
    parse: oneOf<ResultsDelivery>(RESULTS_DELIVERIES, DEFAULT_RESULTS_DELIVERY),
  },
  resultsConcurrency: {
    name: 'resultsConcurrency',
    option: 'results-concurrency',
    mustBe: 'must be a whole number from 1 to 10000, or off',
    parse: (value: unknown) => {
      if (value === undefined) return RESULTS_URL.reservedConcurrency;
      if (value === 'off') return undefined;
      const n = Number(value);
      return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : INVALID;
    },
  },
  hotPollVotesPerSecond: {
    name: HOT_POLL_FLAG,
    option: 'hot-poll-votes-per-second',
    mustBe:
      `must be a whole number of votes a second from 1 to ${MAX_HOT_POLL_VOTES_PER_SECOND.toLocaleString('en-US')} ` +
      "(the FIFO queue's sends a second), or off",
    example: `-c ${HOT_POLL_FLAG}=50000`,
    parse: rate(MAX_HOT_POLL_VOTES_PER_SECOND),
  },
  apiRateLimit: {
    name: API_RATE_FLAG,
    option: 'api-rate-limit',
    mustBe:
      `must be a whole number of requests a second from 1 to ${MAX_API_RATE_LIMIT.toLocaleString('en-US')}, ` +
      'or off',
    example: `-c ${API_RATE_FLAG}=20000`,
    parse: rate(MAX_API_RATE_LIMIT),
  },
  rateLimits: {
    name: 'rateLimits',
    option: 'rate-limits',
    mustBe: 'must be "on" or "off"',
    example: '-c rateLimits=off',
    parse: onOff(true),
  },
  retainData: {
    name: 'retainData',
    option: 'retain-data',
    mustBe: 'must be "true" or "false"',
    example: '-c retainData=true',
    parse: onOff(false),
  },
  monthlyBudgetUsd: {
    name: BUDGET_FLAGS.amount,
    option: 'monthly-budget-usd',
    mustBe: 'must be a positive number of dollars a month',
    example: BUDGET_EXAMPLE,
    parse: (value: unknown) => {
      const usd =
        typeof value === 'number' || (typeof value === 'string' && value.trim() !== '') ? Number(value) : Number.NaN;
      return Number.isFinite(usd) && usd > 0 ? usd : INVALID;
    },
  },
  budgetEmail: {
    name: BUDGET_FLAGS.email,
    option: 'budget-email',
    mustBe: 'must be an e-mail address',
    example: BUDGET_EXAMPLE,
    parse: (value: unknown) => (typeof value === 'string' && EMAIL.test(value) ? value : INVALID),
  },
  region: {
    name: 'region',
    option: 'region',
    mustBe: 'must be an AWS Region code such as eu-central-1',
    example: '-c region=eu-central-1',
    // Absent: where the CDK CLI deploys (lib/app.ts). Its shape here; whether it has a price book, pricing/.
    parse: (value: unknown) =>
      value === undefined ? undefined : typeof value === 'string' && REGION_CODE.test(value) ? value : INVALID,
  },
} as const satisfies Record<string, Flag<unknown>>;
