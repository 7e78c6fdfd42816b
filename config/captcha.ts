/**
 * A CAPTCHA as a command line asks for one: `-c captcha=` for the stack (lib/app.ts), `--captcha`
 * for the servers (cli/server-options.ts). Checked once here, in the words of the flags used.
 */
import { CAPTCHA_PROVIDERS, isCaptchaProvider, type CaptchaSettings } from './app-config';
import { UsageError } from './errors';

/** How a command line spells the two settings, e.g. `--captcha` and `--captcha-site-key <key>`. */
export interface CaptchaFlagNames {
  provider: string;
  siteKey: string;
}

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
