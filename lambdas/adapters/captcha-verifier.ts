/**
 * Server-side CAPTCHA verification, for both editions: the provider's siteverify, with a short
 * timeout. Where the secret comes from is the caller's: SSM Parameter Store on AWS
 * (lambdas/adapters/lambda-settings.ts), an environment variable on a VPS. It needs no AWS
 * (only fetch), so the VPS edition uses it too.
 */
import { CAPTCHA, CAPTCHA_PROVIDERS, type CaptchaProvider } from '../../config/captcha';
import {
  checkVerdict,
  requireToken,
  takeCaptchaToken,
  type SiteVerifyAnswer,
  isCaptchaProvider,
} from '../../domain/captcha';
import { PollError } from '../../domain/errors';
import type { CaptchaCheck, Log } from '../../domain/ports';

export interface CaptchaVerifierOptions {
  provider: CaptchaProvider;
  secret: () => Promise<string | undefined>;
  /** Tests point this at a stub on 127.0.0.1; deployments use the provider's. */
  verifyUrl?: string;
  log: Log;
}

/**
 * The CaptchaCheck port over the provider's siteverify. Throws (an Error, at start) when the
 * provider is not one of ours; the check it returns throws PollError `captcha_required`,
 * `captcha_failed` or `captcha_unavailable` (the provider or the secret could not be reached).
 */
export function captchaVerifier({ provider, secret, verifyUrl, log }: CaptchaVerifierOptions): CaptchaCheck {
  // Checked before its settings are read: a misspelt provider is named, not a TypeError.
  if (!isCaptchaProvider(provider))
    throw new Error(`The CAPTCHA provider must be one of ${CAPTCHA_PROVIDERS.join(', ')} (got ${provider})`);
  const url = verifyUrl ?? CAPTCHA.providers[provider].verifyUrl;
  return async (body, sourceIp, action) => {
    const { token, rest } = takeCaptchaToken(body);
    const response = requireToken(token);
    let answer: SiteVerifyAnswer;
    try {
      const key = await secret();
      if (!key) throw new Error('the CAPTCHA secret is empty');
      const verified = await fetch(url, {
        method: 'POST',
        body: new URLSearchParams({ secret: key, response, remoteip: sourceIp }),
        signal: AbortSignal.timeout(CAPTCHA.verifyTimeoutMs),
      });
      if (!verified.ok) throw new Error(`siteverify answered ${verified.status}`);
      answer = (await verified.json()) as SiteVerifyAnswer;
    } catch (error) {
      log.error('CAPTCHA verification unavailable', error as Error);
      throw new PollError('captcha_unavailable', 'The CAPTCHA service could not be reached; please try again.', {
        cause: error,
      });
    }
    checkVerdict(provider, answer, action);
    return rest;
  };
}
