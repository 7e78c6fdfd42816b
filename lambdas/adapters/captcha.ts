/**
 * Server-side CAPTCHA verification: the secret from SSM Parameter Store (cached by
 * Powertools), the provider's siteverify with a short timeout. Off when the stack
 * configures no provider.
 */
import { getParameter } from '@aws-lambda-powertools/parameters/ssm';
import { CAPTCHA, type CaptchaProvider } from '../../config/app-config';
import { checkVerdict, requireToken, takeCaptchaToken, type CaptchaAction, type SiteVerifyAnswer } from '../domain/captcha';
import { ApiError } from '../domain/errors';
import { logger } from './logger';

const unavailable = () => new ApiError(503, 'captcha_unavailable', 'The CAPTCHA service could not be reached; please try again.');

export function captchaCheck(env: NodeJS.ProcessEnv = process.env): (body: unknown, sourceIp: string, action: CaptchaAction) => Promise<unknown> {
  const provider = env.CAPTCHA_PROVIDER as CaptchaProvider | undefined;
  if (!provider) return async (body) => takeCaptchaToken(body).rest;
  if (!CAPTCHA.providers[provider]) throw new Error(`CAPTCHA_PROVIDER must be one of ${Object.keys(CAPTCHA.providers).join(', ')}`);
  const parameter = env.CAPTCHA_SECRET_PARAMETER;
  if (!parameter) throw new Error('CAPTCHA_SECRET_PARAMETER is not set');
  // Tests point this at a stub on 127.0.0.1; deployed functions use the provider's.
  const verifyUrl = env.CAPTCHA_VERIFY_URL ?? CAPTCHA.providers[provider].verifyUrl;

  return async (body, sourceIp, action) => {
    const { token, rest } = takeCaptchaToken(body);
    const response = requireToken(token);
    let answer: SiteVerifyAnswer;
    try {
      const secret = await getParameter(parameter, { decrypt: true, maxAge: CAPTCHA.secretCacheSeconds });
      if (!secret) throw new Error(`SSM parameter ${parameter} is empty`);
      const verified = await fetch(verifyUrl, {
        method: 'POST',
        body: new URLSearchParams({ secret, response, remoteip: sourceIp }),
        signal: AbortSignal.timeout(CAPTCHA.verifyTimeoutMs),
      });
      if (!verified.ok) throw new Error(`siteverify answered ${verified.status}`);
      answer = (await verified.json()) as SiteVerifyAnswer;
    } catch (error) {
      logger.error('CAPTCHA verification unavailable', error as Error);
      throw unavailable();
    }
    checkVerdict(provider, answer, action);
    return rest;
  };
}
