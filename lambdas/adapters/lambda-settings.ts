/**
 * What the stack tells each function through its environment, read once at cold start. A
 * missing required setting is a deploy bug, so it fails loudly there.
 */
import { getParameter } from '@aws-lambda-powertools/parameters/ssm';
import { CAPTCHA, ROUTES, type ApiFunctionName, type CaptchaProvider } from '../../config/app-config';
import { noCaptcha } from '../domain/captcha';
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
