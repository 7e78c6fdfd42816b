/** The page: which paths are its, what it is told when it is served, and how it retries a vote. */
import type { CaptchaSettings } from './captcha';

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

/**
 * The site's pages: `/` creates a poll, `/poll/{id}` votes and shows results. Every other path
 * on the site's origin is a 404 page, wherever the site is served (CloudFront, npm start, the
 * VPS edition). Both are one HTML page; the page itself tells them apart.
 */
export const SITE_PAGES = { create: /^\/$/, poll: /^\/poll\/([^/]+)\/?$/ } as const;

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
