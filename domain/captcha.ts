/**
 * The CAPTCHA's rules: the settings asked for (`-c captcha=`, `--captcha`), checked once in the words of the flags
 * used; what the page may know of them; what a provider's siteverify answer means for a request. Pure.
 */
import { CAPTCHA, CAPTCHA_PROVIDERS, type CaptchaProvider, type CaptchaSettings } from '../config/captcha';
import { invalid, PollError, UsageError } from './errors';
import type { CaptchaCheck } from './ports';

/** The fields both providers' siteverify answers share (reCAPTCHA v3 adds score and action). */
export interface SiteVerifyAnswer {
  success?: boolean;
  score?: number;
  action?: string;
  'error-codes'?: string[];
}

/** How a command line spells the two settings, e.g. `--captcha` and `--captcha-site-key <key>`. */
export interface CaptchaFlagNames {
  provider: string;
  siteKey: string;
}

/** Whether a value names a provider of ours (config/captcha.ts CAPTCHA.providers). */
export const isCaptchaProvider = (value: unknown): value is CaptchaProvider =>
  typeof value === 'string' && Object.hasOwn(CAPTCHA.providers, value);

/** The provider and site key as given; undefined for none (absent or `off`); a UsageError names what is wrong. */
export function captchaSettingsFrom(
  provider: unknown,
  siteKey: unknown,
  names: CaptchaFlagNames,
): CaptchaSettings | undefined {
  if (provider === undefined || provider === 'off') return undefined;
  if (!isCaptchaProvider(provider))
    throw new UsageError(
      `${names.provider} must be one of ${CAPTCHA_PROVIDERS.join(', ')} or off (got ${String(provider)}).`,
    );
  // It is written into the page.
  if (typeof siteKey !== 'string' || !/^[\w-]{1,200}$/.test(siteKey))
    throw new UsageError(
      `${names.provider} needs ${names.siteKey}: the public site key the page uses (letters, digits, - and _).`,
    );
  return { provider, siteKey };
}

/** What the page may know of a CAPTCHA: the provider and site key, never more of the settings. */
export const pageCaptcha = (captcha: CaptchaSettings | undefined): CaptchaSettings | undefined =>
  captcha && { provider: captcha.provider, siteKey: captcha.siteKey };

export type CaptchaAction = 'create' | 'vote';

/** Splits the token off a request body; the rest goes to the domain's own validation. */
export function takeCaptchaToken(body: unknown): { token: unknown; rest: unknown } {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('captchaToken' in body))
    return { token: undefined, rest: body };
  const { captchaToken, ...rest } = body as Record<string, unknown>;
  return { token: captchaToken, rest };
}

/** The token, when it looks like one; else PollError `captcha_required`. */
export function requireToken(token: unknown): string {
  if (typeof token !== 'string' || token.length === 0 || token.length > 4096) {
    throw invalid('captcha_required', 'This site asks for a CAPTCHA: send captchaToken with the request.');
  }
  return token;
}

/** Throws PollError `captcha_failed` (403) unless the provider says the token is good for this action. */
export function checkVerdict(provider: CaptchaProvider, answer: SiteVerifyAnswer, action: CaptchaAction): void {
  const failed = () => new PollError('captcha_failed', 'The CAPTCHA check failed; please try again.');
  if (answer.success !== true) throw failed();
  if (provider === 'recaptcha') {
    if (typeof answer.score !== 'number' || answer.score < CAPTCHA.providers.recaptcha.minScore) throw failed();
    if (answer.action !== undefined && answer.action !== action) throw failed();
  }
}

/** No CAPTCHA configured: a stray token is dropped, the rest is validated as usual. */
export const noCaptcha: CaptchaCheck = async (body) => takeCaptchaToken(body).rest;
