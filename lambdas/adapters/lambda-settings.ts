/**
 * What the stack tells each function through its environment, read once at cold start. A
 * missing required setting is a deploy bug, so it fails loudly there.
 */
import { getParameter } from '@aws-lambda-powertools/parameters/ssm';
import { CAPTCHA, ROUTES, VOTE_PATH_ENV, type ApiFunctionName, type CaptchaProvider } from '../../config/app-config';
import { noCaptcha } from '../domain/captcha';
import type { PollSize } from '../domain/poll';
import type { CaptchaCheck } from '../domain/ports';
import { parseRateLimit, type RateLimit } from '../domain/rate-limit';
import { captchaVerifier } from './captcha-verifier';
import { logger } from './logger';

/** An environment variable the stack sets; missing, it is a deploy bug: an Error at cold start. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set: the stack (or the local runtime) must set it.`);
  return value;
}

/**
 * The vote path's size (VOTE_GROUPS_PER_POLL, COUNTER_SHARDS) when the stack sizes it for a hot
 * poll; undefined without them (the default size). A value that is not a positive whole number
 * is a deploy bug: an Error at cold start.
 */
export function pollSizeSetting(): PollSize | undefined {
  const [groups, counterShards] = [VOTE_PATH_ENV.groupsPerPoll, VOTE_PATH_ENV.counterShards].map((name) => {
    const value = process.env[name];
    if (value !== undefined && !/^[1-9]\d*$/.test(value))
      throw new Error(`Environment variable ${name} must be a positive whole number (got ${JSON.stringify(value)}).`);
    return value === undefined ? undefined : Number(value);
  });
  if (groups === undefined && counterShards === undefined) return undefined;
  if (groups === undefined || counterShards === undefined)
    throw new Error(
      `${VOTE_PATH_ENV.groupsPerPoll} and ${VOTE_PATH_ENV.counterShards} are set together or not at all.`,
    );
  return { groups, counterShards };
}

/** RATE_LIMIT, as the stack writes it ("60/30" or "off"). */
export const rateLimitSetting = (): RateLimit => parseRateLimit(process.env.RATE_LIMIT);

/**
 * The CaptchaCheck from CAPTCHA_PROVIDER and CAPTCHA_SECRET_PARAMETER (none: no check); the secret is
 * read from SSM at run time (cached by Powertools). The check throws what captchaVerifier's does.
 */
export function captchaSetting(): CaptchaCheck {
  const provider = process.env.CAPTCHA_PROVIDER as CaptchaProvider | undefined;
  if (!provider) return noCaptcha;
  const parameter = requireEnv('CAPTCHA_SECRET_PARAMETER');
  return captchaVerifier({
    provider,
    secret: () => getParameter(parameter, { decrypt: true, maxAge: CAPTCHA.secretCacheSeconds }),
    verifyUrl: process.env.CAPTCHA_VERIFY_URL,
    log: logger,
  });
}

/** The Lambda HTTP adapter's options for one function: the routes it serves and the site's origin for CORS. */
export const httpOptions = (fn: ApiFunctionName) => ({
  logger,
  routes: ROUTES.filter((r) => r.fn === fn),
  siteOrigin: process.env.SITE_ORIGIN,
});
