/**
 * What the stack tells each function through its environment (config/function-env.ts), read once at cold
 * start. A missing required setting is a deploy bug, so it fails loudly there.
 */
import { getParameter } from '@aws-lambda-powertools/parameters/ssm';
import { CAPTCHA, type CaptchaProvider } from '../../config/captcha';
import { ROUTES, type ApiFunctionName } from '../../config/api-contract';
import { FUNCTION_ENV, type FunctionEnvKey } from '../../config/function-env';
import { noCaptcha } from '../../domain/captcha';
import type { PollSize } from '../../domain/poll';
import type { CaptchaCheck } from '../../domain/ports';
import { parseRateLimit, type RateLimit } from '../../domain/rate-limit';
import { captchaVerifier } from './captcha-verifier';
import { logger } from './logger';

/** A setting of the function's environment, if it is set. */
export const envSetting = (key: FunctionEnvKey): string | undefined => process.env[FUNCTION_ENV[key].name];

/** A setting the stack always sets; missing, it is a deploy bug: an Error at cold start. */
export function requireEnv(key: FunctionEnvKey): string {
  const value = envSetting(key);
  if (!value) {
    const { name } = FUNCTION_ENV[key];
    throw new Error(`Environment variable ${name} is not set: the stack (or the local runtime) must set it.`);
  }
  return value;
}

/**
 * The vote path's size (groupsPerPoll, counterShards) when the stack sizes it for a hot poll;
 * undefined without them (the default size). A value that is not a positive whole number
 * is a deploy bug: an Error at cold start.
 */
export function pollSizeSetting(): PollSize | undefined {
  const keys = ['groupsPerPoll', 'counterShards'] as const;
  const [groups, counterShards] = keys.map((key) => {
    const value = envSetting(key);
    if (value !== undefined && !/^[1-9]\d*$/.test(value)) {
      const { name } = FUNCTION_ENV[key];
      throw new Error(`Environment variable ${name} must be a positive whole number (got ${JSON.stringify(value)}).`);
    }
    return value === undefined ? undefined : Number(value);
  });
  if (groups === undefined && counterShards === undefined) return undefined;
  if (groups === undefined || counterShards === undefined)
    throw new Error(`${keys.map((key) => FUNCTION_ENV[key].name).join(' and ')} are set together or not at all.`);
  return { groups, counterShards };
}

/** The rate limit, as the stack writes it ("60/30" or "off"). */
export const rateLimitSetting = (): RateLimit => parseRateLimit(envSetting('rateLimit'));

/**
 * The CaptchaCheck from the provider and the secret's SSM parameter (none: no check); the secret is
 * read from SSM at run time (cached by Powertools). The check throws what captchaVerifier's does.
 */
export function captchaSetting(): CaptchaCheck {
  const provider = envSetting('captchaProvider') as CaptchaProvider | undefined;
  if (!provider) return noCaptcha;
  const parameter = requireEnv('captchaSecretParameter');
  return captchaVerifier({
    provider,
    secret: () => getParameter(parameter, { decrypt: true, maxAge: CAPTCHA.secretCacheSeconds }),
    verifyUrl: envSetting('captchaVerifyUrl'),
    log: logger,
  });
}

/** The Lambda HTTP adapter's options for one function: the routes it serves and the site's origin for CORS. */
export const httpOptions = (fn: ApiFunctionName) => ({
  logger,
  routes: ROUTES.filter((r) => r.fn === fn),
  siteOrigin: envSetting('siteOrigin'),
});
