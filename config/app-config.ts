/**
 * The one source of truth for what the app is: routes, limits, table, queue and
 * function settings. Read by the CDK stack (lib/), the handlers (lambdas/), the
 * embedded local runtime (local/) and the cost model. Plain data, no imports, so
 * the browser can use it too.
 */

/** The handlers behind the API, by name; each becomes one Lambda function. */
export type ApiFunctionName = 'createPoll' | 'getPoll' | 'castVote' | 'getResults';

export interface RouteSpec {
  method: 'GET' | 'POST';
  /** API Gateway path syntax: `{id}` is a path parameter. */
  path: string;
  fn: ApiFunctionName;
}

/** The CloudFormation stack's name (and the key of its outputs in `cdk deploy --outputs-file`). */
export const STACK_NAME = 'ServerlessPoll';

/**
 * The cost allocation tag the stack puts on everything it creates that takes tags: once activated in
 * Billing → Cost allocation tags, the bill (and the budget of `-c monthlyBudgetUsd`) can tell the
 * stack's spend from the rest of the account's.
 */
export const COST_ALLOCATION_TAG = { key: 'app', value: 'serverless-poll' } as const;

/**
 * `-c monthlyBudgetUsd=<n> -c budgetEmail=<address>`: an AWS Budgets cost budget on the tag above, which
 * e-mails at these percentages of the month's amount, of actual and of forecast spend.
 */
export const BUDGET_ALERT_PERCENTAGES = [80, 100] as const;
/** The two flags, by what they set. */
export const BUDGET_FLAGS = { amount: 'monthlyBudgetUsd', email: 'budgetEmail' } as const;
/** The flags of a budget of `usd` a month, a whole number of dollars (at least 1), as a command line shows them. */
export const budgetFlagsFor = (usd: number, email = '<you@example.com>'): string =>
  `-c ${BUDGET_FLAGS.amount}=${Math.max(1, Math.ceil(usd))} -c ${BUDGET_FLAGS.email}=${email}`;

/** Every API route starts here; everything else on the site's origin is the static frontend. */
export const API_BASE_PATH = '/api';

/** Mirrors the routes of the VPS poll platform. */
export const ROUTES: readonly RouteSpec[] = [
  { method: 'POST', path: '/api/poll', fn: 'createPoll' },
  { method: 'GET', path: '/api/poll/{id}', fn: 'getPoll' },
  { method: 'GET', path: '/api/poll/{id}/options', fn: 'getPoll' },
  { method: 'POST', path: '/api/poll/{id}/vote', fn: 'castVote' },
  { method: 'GET', path: '/api/poll/{id}/results', fn: 'getResults' },
];

/** What a poll may look like; validation, the frontend and the docs read these. */
export const POLL_LIMITS = {
  titleMaxLength: 200,
  minOptions: 2,
  maxOptions: 20,
  optionMaxLength: 100,
  /** Lifetime in minutes: the seed keeps polls ~30 minutes; a week at most. */
  minLifetimeMinutes: 1,
  defaultLifetimeMinutes: 60,
  maxLifetimeMinutes: 7 * 24 * 60,
  /** Request bodies above this are refused before parsing (a create is < 3 KB). */
  maxBodyBytes: 8 * 1024,
  /** Poll ids: 21 url-safe characters, like the seed's nanoid ids (126 random bits). */
  idLength: 21,
} as const;

/** DynamoDB: one table, on-demand, items expire by TTL. */
export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  /**
   * Keep counts a while after a poll closes so late viewers see final results,
   * then let TTL delete everything.
   */
  retainAfterCloseSeconds: 24 * 60 * 60,
  /**
   * Item keys: a poll is `POLL#<id>` with sort keys META and COUNTS; a poll created sized for a hot
   * poll has its counter shard k > 0 on a partition key of its own, `POLL#<id>#<k>` with sort key
   * COUNTS (one created before that layout: `COUNTS#<k>` under the poll's key; see PollTable). A
   * voter claim has its own partition key prefix, so that IAM can confine the vote function to
   * claims (lib/poll-stack.ts).
   */
  keys: { pollPrefix: 'POLL#', voterPrefix: 'VOTER#', pollSort: 'META', countsSort: 'COUNTS', voterSort: 'VOTER' },
} as const;

/**
 * Template metadata on each app function: its source file and its name. The local runtime
 * finds the handler by it, and the cost model which function does what.
 */
export const FUNCTION_METADATA = {
  entry: 'poll:entry',
  name: 'poll:function',
  metrics: 'poll:custom-metrics',
} as const;

/** Lambda settings shared by every function. */
export const FUNCTION_DEFAULTS = {
  /** The newest Node.js Lambda runtime (cdk-nag AwsSolutions-L1); bundles target the same version. */
  runtime: 'nodejs24.x',
  architecture: 'arm64',
  memoryMb: 256,
  timeoutSeconds: 5,
  logLevel: 'INFO',
  systemLogLevel: 'WARN',
  logRetentionDays: 14,
} as const;

/**
 * The vote queue is FIFO so that votes of one message group arrive in order:
 * that is what lets the consumer count exactly once with one conditional write
 * per poll per batch (see docs/exactly-once.md).
 */
export const VOTE_QUEUE = {
  /**
   * Message groups per poll. A group is processed one batch at a time and is
   * limited to ~300 sends/s in high-throughput mode, so a hot poll is spread
   * over a few groups. More groups = more parallelism, slightly more writes.
   */
  groupsPerPoll: 4,
  /** The FIFO maximum for a Lambda event source. */
  batchSize: 10,
  /** A batching window is not supported for FIFO event sources. */
  maxBatchingWindowSeconds: 0,
  consumerTimeoutSeconds: 10,
  /** AWS advice for SQS event sources: at least 6x the function timeout. */
  visibilityTimeoutSeconds: 60,
  /** After this many failed receives a message goes to the dead-letter queue. */
  maxReceiveCount: 3,
  retentionDays: 4,
  dlqRetentionDays: 14,
  /** The consumer gives up on one poll's write after this many condition races. */
  maxWriteAttempts: 4,
} as const;

/**
 * A client names each ballot with a key (the `Idempotency-Key` header on a vote), and a retry
 * with the same key is the same vote: it is counted once. The window is SQS FIFO's deduplication
 * interval (fixed by AWS at 5 minutes); the VPS edition keeps keys exactly as long. See
 * docs/exactly-once.md.
 */
export const IDEMPOTENCY = {
  header: 'idempotency-key',
  maxLength: 64,
  windowSeconds: 5 * 60,
} as const;

/**
 * What a browser on the site may send to the API on another origin, and read of its answers: the
 * ballot's key, and when a refused request may be tried again.
 */
export const API_CORS = {
  allowHeaders: ['content-type', IDEMPOTENCY.header],
  exposeHeaders: ['retry-after'],
} as const;

/**
 * How the page retries a vote whose answer it did not get (a network error, a 5xx, a 429), with
 * the ballot's key: doubling waits with jitter, all tries well inside the idempotency window.
 */
export const VOTE_RETRY = {
  /** Tries in all, the first included. */
  attempts: 6,
  firstDelayMs: 500,
  maxDelayMs: 8_000,
  /** A Retry-After longer than this is not waited out: the page says so and offers to send again. */
  maxRetryAfterSeconds: 30,
} as const;

/**
 * What the vote consumer reports as CloudWatch metrics (embedded metric format: written with its
 * log line, no API calls). Each name is one custom metric; `DeadLettered` is one per verdict, and
 * exists only in hours a letter is sent. The cost model prices them from the template.
 */
export const CONSUMER_METRICS = {
  namespace: 'ServerlessPoll',
  /** Powertools adds it to every metric: the functions' POWERTOOLS_SERVICE_NAME. */
  service: 'poll',
  /** Published by every invocation. */
  always: ['VotesCounted', 'Batches', 'WriteConflicts', 'RecordsFailed'],
  /** Published with a `Verdict` dimension when the consumer dead-letters a record. */
  byVerdict: 'DeadLettered',
} as const;
export type ConsumerMetricName = (typeof CONSUMER_METRICS.always)[number];

/** The consumer's failures alarm: every 1-minute period of this many in a row with a failed invocation. */
export const CONSUMER_FAILURE_ALARM = { periodMinutes: 1, evaluationPeriods: 5 } as const;

/**
 * The vote and poll-read functions keep a poll (fixed at creation) in memory this long, for at most
 * this many polls: a hot poll then costs one read per container per interval, not one per vote.
 * Its close time is checked against the clock on every vote all the same.
 */
export const POLL_CACHE = { maxAgeSeconds: 60, maxEntries: 1000 } as const;

/**
 * How the stack tells the functions the vote path's size (config/vote-path.ts): the create function
 * records it in each new poll (a poll keeps its size for life: lambdas/domain/poll.ts), whose
 * votes are spread over this many message groups and counted in this many counter items (the
 * cost model reads the deployment's size there too). Absent: the default size.
 */
export const VOTE_PATH_ENV = { groupsPerPoll: 'VOTE_GROUPS_PER_POLL', counterShards: 'COUNTER_SHARDS' } as const;

/**
 * API Gateway stage throttling (steady rate, burst): the default size (config/vote-path.ts sizes it
 * for a hot poll).
 */
export const API_THROTTLE = {
  rateLimit: 2000,
  burstLimit: 1000,
} as const;

/**
 * Per source address, per function container (lambdas/domain/rate-limit.ts): generous
 * enough for a class voting behind one NAT, tight enough that one script cannot run
 * up the bill from one address. `-c rateLimits=off` turns them off (e.g. to load-test a deployment).
 */
export const RATE_LIMITS = {
  createPoll: { perMinute: 10, burst: 5 },
  castVote: { perMinute: 60, burst: 30 },
} as const;

/**
 * Optional CAPTCHA on create and vote, as on the VPS platform: off unless the stack is
 * deployed with `-c captcha=<provider> -c captchaSiteKey=<key> -c captchaSecretParameter=<SSM name>`.
 * The secret lives in SSM Parameter Store (SecureString) and is read at run time.
 */
export const CAPTCHA = {
  providers: {
    recaptcha: {
      verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
      scriptUrl: 'https://www.google.com/recaptcha/api.js?render=',
      /** reCAPTCHA v3 scores 0 (bot) to 1 (human). */
      minScore: 0.5,
    },
    turnstile: {
      verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
      minScore: 0,
    },
  },
  /** A provider slower than this answers 503 rather than holding the request. */
  verifyTimeoutMs: 3000,
  /** How long a function keeps the secret before reading SSM again. */
  secretCacheSeconds: 300,
} as const;

export type CaptchaProvider = keyof typeof CAPTCHA.providers;
/** The providers by name: what `--captcha` and `-c captcha=` accept. */
export const CAPTCHA_PROVIDERS = Object.keys(CAPTCHA.providers) as CaptchaProvider[];
export const isCaptchaProvider = (value: unknown): value is CaptchaProvider =>
  typeof value === 'string' && Object.hasOwn(CAPTCHA.providers, value);

/** A CAPTCHA on create and vote: the provider, and the public site key the page shows it with. */
export interface CaptchaSettings {
  provider: CaptchaProvider;
  siteKey: string;
}

/** The same on a server of ours (npm start, npm run vps), which is handed the secret itself. */
export interface ServerCaptchaSettings extends CaptchaSettings {
  secret: string;
  /** Replaces the provider's siteverify (tests answer on 127.0.0.1). */
  verifyUrl?: string;
}

/**
 * What the page needs to know, written into it when it is deployed or served: where the API is
 * ('' = the page's own origin), where results are read if elsewhere, and the CAPTCHA to show.
 */
export interface SiteConfig {
  apiUrl: string;
  /** Where the page reads results (a function URL); absent: from the API. */
  resultsUrl?: string;
  captcha?: CaptchaSettings;
}

/** What the page may know of a CAPTCHA: the provider and site key, never more of the settings. */
export const pageCaptcha = (captcha: CaptchaSettings | undefined): CaptchaSettings | undefined =>
  captcha && { provider: captcha.provider, siteKey: captcha.siteKey };

/**
 * The site's pages: `/` creates a poll, `/poll/{id}` votes and shows results. Every other path
 * on the site's origin is a 404 page, wherever the site is served (CloudFront, npm start, the
 * VPS edition). Both are one HTML page; the page itself tells them apart.
 */
export const SITE_PAGES = { create: /^\/$/, poll: /^\/poll\/([^/]+)\/?$/ } as const;
export const isSitePage = (path: string): boolean => SITE_PAGES.create.test(path) || SITE_PAGES.poll.test(path);

/**
 * The page carries its script, styles and config, so a visit is one request. Browsers
 * revalidate it every time (a 304 when unchanged); CloudFront keeps it until a deploy
 * invalidates it.
 */
export const SITE_CACHE_CONTROL = 'public, max-age=0, s-maxage=31536000, must-revalidate';

/** Results are polled often; let browsers, CloudFront and the results function itself reuse them briefly. */
export const RESULTS_CACHE_SECONDS = 2;

/**
 * A poll (GET /api/poll/{id}, /options) never changes after creation but for closing: browsers and a CDN
 * may keep it this long, never past its close or its expiry (lambdas/handlers/get-poll.ts).
 */
export const POLL_READ_CACHE_SECONDS = 30;

/**
 * How the page reads results, the request that dominates the bill (`-c results=<design>`; the
 * same flag for the stack, `npm start -- --results`, and the cost model's designs):
 *  - `api`: through API Gateway, like every other route.
 *  - `function-url`: from the results function's own Lambda function URL (no API Gateway charge).
 *  - `cloudfront`: through the site's CloudFront distribution, cached for the results max-age.
 * Votes, creates and poll reads go through API Gateway in every design.
 */
export const RESULTS_DELIVERIES = ['api', 'function-url', 'cloudfront'] as const;
export type ResultsDelivery = (typeof RESULTS_DELIVERIES)[number];
export const DEFAULT_RESULTS_DELIVERY: ResultsDelivery = 'api';

/**
 * results=cloudfront: the site's distribution fronts the whole API (so the page calls it on its
 * own origin and needs no CORS), and caches only the results path.
 */
export const RESULTS_PATH_PATTERN = '/api/poll/*/results';
/**
 * results=cloudfront also caches poll reads (GET /api/poll/{id} and its /options) for the max-age their
 * answers carry (POLL_READ_CACHE_SECONDS, never past the poll's close); votes pass through uncached, on
 * a behaviour of their own ahead of the poll's, as CloudFront takes the first pattern that matches.
 */
export const VOTE_PATH_PATTERN = '/api/poll/*/vote';
export const POLL_PATH_PATTERN = '/api/poll/*';

/**
 * Behind CloudFront (results=cloudfront) the distribution is the results cache: the function
 * answers every request it gets fresh, with the whole max-age, which CloudFront keeps. A kept
 * copy's answer would say what is left of its max-age, down to 0, which CloudFront does not cache.
 */
export const RESULTS_KEEP_COUNTS_ENV = 'RESULTS_KEEP_COUNTS';
export const API_PATH_PATTERN = '/api/*';

/**
 * A function URL has no API Gateway throttling in front of it: reserved concurrency caps what a
 * flood can run up (`-c resultsConcurrency=<n>|off`). Lambda serves about 10 requests a second
 * per unit of concurrency, so 200 serves the stack's 2,000 req/s throttle.
 */
export const RESULTS_URL = { reservedConcurrency: 200, requestsPerSecondPerConcurrency: 10 } as const;

/**
 * How the results page refreshes. Every refresh is a billed API request, so it
 * backs off while nothing changes and stops while the tab is hidden or the poll
 * is closed. Never faster than the results cache: a faster poll would only
 * return the same cached answer. The cost model reads these too.
 */
export const RESULTS_REFRESH = {
  minIntervalMs: RESULTS_CACHE_SECONDS * 1000,
  maxIntervalMs: 30_000,
  /** Each refresh that finds nothing new multiplies the interval by this. */
  backoffFactor: 2,
} as const;

/** Where the stack is deployed: `-c target=localstack` builds what LocalStack's free plan runs. */
export type DeployTarget = 'aws' | 'localstack';

/** `-c apiKind=rest` builds a REST API (LocalStack's free plan has no HTTP API). */
export type ApiKind = 'http' | 'rest';
export const DEFAULT_API_KIND: ApiKind = 'http';
