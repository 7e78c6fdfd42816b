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
export const API_PATH_PATTERN = '/api/*';

/**
 * A function URL has no API Gateway throttling in front of it: reserved concurrency caps what a
 * flood can run up (`-c resultsConcurrency=<n>|off`). Lambda serves about 10 requests a second
 * per unit of concurrency, so 200 serves the stack's 2,000 req/s throttle.
 */
export const RESULTS_URL = { reservedConcurrency: 200, requestsPerSecondPerConcurrency: 10 } as const;
