/**
 * How long what the app answers may be kept, and by whom: the page, results and poll reads (browsers,
 * CloudFront), and a poll in a function's memory.
 */

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
 * The vote and poll-read functions keep a poll (fixed at creation) in memory this long, for at most
 * this many polls: a hot poll then costs one read per container per interval, not one per vote.
 * Its close time is checked against the clock on every vote all the same.
 */
export const POLL_CACHE = { maxAgeSeconds: 60, maxEntries: 1000 } as const;
