/** Builds the CDK app; shared by bin/poll-app.ts, the tests and the local runtime. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type AppProps } from 'aws-cdk-lib';
import { BUDGET_ALERT_PERCENTAGES, BUDGET_FLAGS } from '../config/budget';
import type { ResultsDelivery } from '../config/results-delivery';
import { STACK_NAME, type ApiKind, type DeployTarget } from '../config/stack';
import { UsageError } from '../domain/errors';
import { FLAGS, type Flag } from '../config/flags';
import { fromContext } from './context';
import type { BudgetSettings } from './cost-budget';
import { addNagChecks } from './nag';
import { readPriceBook } from '../pricing/price-book';
import { DEFAULT_REGION } from '../pricing/regions';
import { PollStack, type PollStackProps, type StackCaptchaSettings } from './poll-stack';
import { captchaSettingsFrom } from '../domain/captcha';
import { votePathFor, withApiRateLimit } from '../sizing/vote-path';

/**
 * LocalStack's free plan has no API Gateway v2, CloudFront or CDK's site upload:
 * that target gets a REST API and a plain website bucket (npm run localstack:deploy uploads the site).
 */
function apiKindFor(target: DeployTarget, requested: unknown): ApiKind {
  if (target === 'aws') return fromContext(FLAGS.apiKind, requested);
  if (requested !== undefined && requested !== 'rest') {
    throw new UsageError(
      'LocalStack’s free plan has no HTTP API (API Gateway v2): the localstack target always builds a REST API.',
    );
  }
  return 'rest';
}

/** `-c results=api|function-url|cloudfront`: how the page reads results (config/results-delivery.ts). */
function resultsFor(target: DeployTarget, requested: unknown): ResultsDelivery {
  const results = fromContext(FLAGS.results, requested);
  if (target === 'localstack' && results === 'cloudfront')
    throw new UsageError(
      'LocalStack’s free plan has no CloudFront: use -c results=api or -c results=function-url there.',
    );
  return results;
}

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
        `${BUDGET_ALERT_PERCENTAGES.join('% and ')}% of the amount); ` +
        `e.g. npx cdk synth ${FLAGS.monthlyBudgetUsd.example}`,
    );
  return { monthlyUsd: fromContext(FLAGS.monthlyBudgetUsd, amount), email: fromContext(FLAGS.budgetEmail, email) };
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
  Metadata?: Record<string, Json>;
} {
  return inTemporaryOutdir((outdir) => {
    const { app, stack } = buildApp({ outdir, context: { ...context, ...SKIP_BUNDLING } });
    return app.synth().getStackByName(stack.stackName).template;
  });
}

/**
 * Runs `use` with a cloud assembly folder of its own, removed after: an App given no outdir (outside the cdk CLI)
 * leaves a `cdk.out*` folder in the system's temporary folder at every synth, 22 MB with the site's files.
 */
export function inTemporaryOutdir<T>(use: (outdir: string) => T): T {
  const outdir = mkdtempSync(join(tmpdir(), 'poll-synth-'));
  try {
    return use(outdir);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
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
  const flag = <T>(f: Flag<T>) => fromContext(f, context(f.name));
  const target = flag(FLAGS.target);
  // The region whose prices the dashboard shows, recorded for npm run cost: -c region, else where cdk deploys.
  const region = flag(FLAGS.region) ?? process.env.CDK_DEFAULT_REGION ?? process.env.AWS_REGION ?? DEFAULT_REGION;
  return {
    apiKind: apiKindFor(target, context(FLAGS.apiKind.name)),
    siteHosting: target === 'aws' ? 'cloudfront' : 'bucket-website',
    retainData: flag(FLAGS.retainData),
    rateLimits: flag(FLAGS.rateLimits),
    captcha: stackCaptchaFrom(context),
    results: resultsFor(target, context(FLAGS.results.name)),
    resultsConcurrency: flag(FLAGS.resultsConcurrency),
    votePath: withApiRateLimit(votePathFor(flag(FLAGS.hotPollVotesPerSecond)), flag(FLAGS.apiRateLimit)),
    costDashboard: target === 'aws' ? readPriceBook(region) : undefined,
    pricingRegion: target === 'aws' ? region : undefined,
    budget: budgetFrom(context(FLAGS.monthlyBudgetUsd.name), context(FLAGS.budgetEmail.name), target),
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
