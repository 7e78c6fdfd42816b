/** Builds the CDK app; shared by bin/poll-app.ts, the tests and the local runtime. */
import { App, type AppProps } from 'aws-cdk-lib';
import { BUDGET_ALERT_PERCENTAGES, BUDGET_FLAGS, budgetFlagsFor } from '../config/budget';
import { DEFAULT_API_KIND, STACK_NAME, type ApiKind, type DeployTarget } from '../config/stack';
import {
  DEFAULT_RESULTS_DELIVERY,
  RESULTS_DELIVERIES,
  RESULTS_URL,
  type ResultsDelivery,
} from '../config/results-delivery';
import { captchaSettingsFrom } from '../config/captcha';
import { UsageError } from '../config/errors';
import {
  API_RATE_FLAG,
  HOT_POLL_FLAG,
  parseApiRateLimit,
  parseHotPollVotesPerSecond,
  votePathFor,
  withApiRateLimit,
  type VotePath,
} from '../config/vote-path';
import type { BudgetSettings } from './cost-budget';
import { addNagChecks } from './nag';
import { PollStack, type PollStackProps, type StackCaptchaSettings } from './poll-stack';

export function apiKindFrom(value: unknown): ApiKind {
  const kind = value ?? DEFAULT_API_KIND;
  if (kind !== 'http' && kind !== 'rest') {
    throw new UsageError(
      `apiKind must be "http" or "rest" (got ${JSON.stringify(kind)}); e.g. npx cdk synth -c apiKind=rest`,
    );
  }
  return kind;
}

export function targetFrom(value: unknown): DeployTarget {
  const target = value ?? 'aws';
  if (target !== 'aws' && target !== 'localstack') {
    throw new UsageError(
      `target must be "aws" or "localstack" (got ${JSON.stringify(target)}); e.g. npx cdk synth -c target=localstack`,
    );
  }
  return target;
}

/**
 * LocalStack's free plan has no API Gateway v2, CloudFront or CDK's site upload:
 * that target gets a REST API and a plain website bucket (npm run localstack:deploy uploads the site).
 */
function apiKindFor(target: DeployTarget, requested: unknown): ApiKind {
  if (target === 'aws') return apiKindFrom(requested);
  if (requested !== undefined && requested !== 'rest') {
    throw new UsageError(
      'LocalStack’s free plan has no HTTP API (API Gateway v2): the localstack target always builds a REST API.',
    );
  }
  return 'rest';
}

/** `-c results=api|function-url|cloudfront`: how the page reads results (config/results-delivery.ts). */
export function resultsFrom(value: unknown, target: DeployTarget = 'aws'): ResultsDelivery {
  const results = value ?? DEFAULT_RESULTS_DELIVERY;
  if (!RESULTS_DELIVERIES.includes(results as ResultsDelivery)) {
    throw new UsageError(
      `results must be one of ${RESULTS_DELIVERIES.join(', ')} (got ${JSON.stringify(results)}); ` +
        'e.g. npx cdk synth -c results=function-url',
    );
  }
  if (target === 'localstack' && results === 'cloudfront')
    throw new UsageError(
      'LocalStack’s free plan has no CloudFront: use -c results=api or -c results=function-url there.',
    );
  return results as ResultsDelivery;
}

/** `-c resultsConcurrency=<n>|off`: the results function's reserved concurrency when it has a function URL. */
export function resultsConcurrencyFrom(value: unknown): number | undefined {
  if (value === undefined) return RESULTS_URL.reservedConcurrency;
  if (value === 'off') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw new UsageError(
      `resultsConcurrency must be a whole number from 1 to 10000, or off (got ${JSON.stringify(value)})`,
    );
  return n;
}

/**
 * `-c hotPollVotesPerSecond=<n>|off`: the vote path sized for one poll of n votes a second, and
 * `-c apiRateLimit=<n>|off`: the API stage's throttle (config/vote-path.ts).
 */
export function votePathFrom(hotPoll: unknown, apiRate: unknown): VotePath {
  const checked = <T>(flag: string, example: number, parse: () => T): T => {
    try {
      return parse();
    } catch (error) {
      const reason = (error as Error).message.replace(/\.$/, '');
      throw new UsageError(`${reason}; e.g. npx cdk synth -c ${flag}=${example}`, { cause: error });
    }
  };
  const path = votePathFor(checked(HOT_POLL_FLAG, 50000, () => parseHotPollVotesPerSecond(hotPoll)));
  return withApiRateLimit(
    path,
    checked(API_RATE_FLAG, 20000, () => parseApiRateLimit(apiRate)),
  );
}

const BUDGET_EXAMPLE = `e.g. npx cdk synth ${budgetFlagsFor(320, 'you@example.com')}`;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;

/**
 * `-c monthlyBudgetUsd=<n> -c budgetEmail=<address>`: a monthly cost budget that e-mails at
 * BUDGET_ALERT_PERCENTAGES of actual and forecast spend; both or neither, never on LocalStack.
 */
export function budgetFrom(amount: unknown, email: unknown, target: DeployTarget = 'aws'): BudgetSettings | undefined {
  if (amount === undefined && email === undefined) return undefined;
  if (target === 'localstack')
    throw new UsageError(
      'LocalStack’s free plan has no AWS Budgets: ' +
        `leave out -c ${BUDGET_FLAGS.amount} and -c ${BUDGET_FLAGS.email} there.`,
    );
  if (amount === undefined || email === undefined)
    throw new UsageError(
      `-c ${BUDGET_FLAGS.amount} and -c ${BUDGET_FLAGS.email} go together (the budget e-mails that address at ` +
        `${BUDGET_ALERT_PERCENTAGES.join('% and ')}% of the amount); ${BUDGET_EXAMPLE}`,
    );
  const usd =
    typeof amount === 'number' || (typeof amount === 'string' && amount.trim() !== '') ? Number(amount) : Number.NaN;
  if (!Number.isFinite(usd) || usd <= 0)
    throw new UsageError(
      `${BUDGET_FLAGS.amount} must be a positive number of dollars a month (got ${JSON.stringify(amount)}); ` +
        BUDGET_EXAMPLE,
    );
  if (typeof email !== 'string' || !EMAIL.test(email))
    throw new UsageError(
      `${BUDGET_FLAGS.email} must be an e-mail address (got ${JSON.stringify(email)}); ${BUDGET_EXAMPLE}`,
    );
  return { monthlyUsd: usd, email };
}

/** `-c captcha=<provider> -c captchaSiteKey=<public key> -c captchaSecretParameter=<SSM parameter name>`. */
function stackCaptchaFrom(context: (key: string) => unknown): StackCaptchaSettings | undefined {
  const settings = captchaSettingsFrom(context('captcha'), context('captchaSiteKey'), {
    provider: 'captcha',
    siteKey: '-c captchaSiteKey=<key>',
  });
  if (!settings) return undefined;
  const secretParameter = context('captchaSecretParameter');
  if (typeof secretParameter !== 'string' || !secretParameter.startsWith('/')) {
    throw new UsageError(
      'captcha needs -c captchaSecretParameter=/<name> of an SSM SecureString holding the secret ' +
        '(the secret never goes in the template)',
    );
  }
  return { ...settings, secretParameter };
}

/** Context that skips asset bundling: the template is the same, synth is much faster. */
export const SKIP_BUNDLING = { 'aws:cdk:bundling-stacks': [] } as const;

/**
 * The stack's CloudFormation template, synthesized in-process with bundling skipped: for the
 * local runtime (it bundles itself), the cost model, the LocalStack free-plan check and tests.
 */
// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is JSON of any shape
type Json = any;
export function synthesizeTemplate(context: Record<string, unknown> = {}): {
  Resources: Record<string, Json>;
  Outputs?: Record<string, Json>;
} {
  const { app, stack } = buildApp({ context: { ...context, ...SKIP_BUNDLING } });
  return app.synth().getStackByName(stack.stackName).template;
}

/**
 * CDK checks every template against CloudFormation's own rules (a circular dependency among
 * them, which would fail the deploy): as errors, so a synth stops on them as it does on cdk-nag.
 */
const STRICT_VALIDATION = { '@aws-cdk/core:validateAgainstDefaultRules': true } as const;

/**
 * The stack's settings from CDK context (`-c key=value`), each checked: a UsageError names the
 * first wrong one. Cheap, so a command can check its flags before it starts anything.
 */
export function stackPropsFrom(context: (key: string) => unknown): PollStackProps {
  const target = targetFrom(context('target'));
  return {
    apiKind: apiKindFor(target, context('apiKind')),
    siteHosting: target === 'aws' ? 'cloudfront' : 'bucket-website',
    retainData: context('retainData') === 'true' || context('retainData') === true,
    rateLimits: !['off', 'false', false].includes(context('rateLimits') as string | boolean),
    captcha: stackCaptchaFrom(context),
    results: resultsFrom(context('results'), target),
    resultsConcurrency: resultsConcurrencyFrom(context('resultsConcurrency')),
    votePath: votePathFrom(context(HOT_POLL_FLAG), context(API_RATE_FLAG)),
    costDashboard: target === 'aws',
    budget: budgetFrom(context(BUDGET_FLAGS.amount), context(BUDGET_FLAGS.email), target),
    description: 'Serverless poll platform: API Gateway, Lambda, SQS FIFO, DynamoDB',
  };
}

export function buildApp(props: AppProps = {}): { app: App; stack: PollStack } {
  const app = new App({ ...props, context: { ...STRICT_VALIDATION, ...props.context } });
  const stack = new PollStack(
    app,
    STACK_NAME,
    stackPropsFrom((key) => app.node.tryGetContext(key)),
  );
  addNagChecks(app);
  return { app, stack };
}
