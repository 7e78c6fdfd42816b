/**
 * The options both servers take alike (`npm start` and `npm run vps`): a port, rate limits on or
 * off, and a CAPTCHA whose secret comes from the environment, never from the command line; and any of the
 * stack's flags given as an option (fromOption: `npm start -- --api-kind rest`).
 */
import { CAPTCHA_PROVIDERS, type ServerCaptchaSettings } from '../config/captcha';
import { type Flag, FLAGS, INVALID } from '../config/flags';
import { UsageError, type OptionSpec } from './command-line';
import { captchaSettingsFrom } from '../domain/captcha';

/** `--option value` for one of the stack's flags (config/flags.ts): the value read, or a UsageError naming it. */
export function fromOption<T>(flag: Flag<T>, value: string | undefined): T {
  const read = flag.parse(value);
  if (read !== INVALID) return read;
  throw new UsageError(`--${flag.option} ${flag.mustBe} (got ${JSON.stringify(value)}).`);
}

export function portFrom(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got ${value}).`);
  return port;
}

export const RATE_LIMITS_OPTIONS = {
  'rate-limits': {
    type: 'string',
    default: 'on',
    value: 'on|off',
    description: 'per-address limits on create and vote, as on AWS; off to try things out or to load-test',
  },
} as const satisfies Record<string, OptionSpec>;

/** --rate-limits on|off: whether the per-address limits apply (config/flags.ts, as -c rateLimits). */
export const rateLimitsFrom = (value: string): boolean => fromOption(FLAGS.rateLimits, value);

/** How a server says its rate limits at its start, with the way to turn them off while trying it out. */
export const rateLimitsText = (on: boolean): string =>
  `rate limits ${on ? 'on (--rate-limits off to try things out)' : 'OFF'}`;

export const CAPTCHA_OPTIONS = {
  captcha: {
    type: 'string',
    value: CAPTCHA_PROVIDERS.join('|'),
    description: 'ask for a CAPTCHA (the secret in CAPTCHA_SECRET, never on the command line)',
  },
  'captcha-site-key': {
    type: 'string',
    value: '<key>',
    description: 'the public site key the page uses with --captcha',
  },
} as const satisfies Record<string, OptionSpec>;

/** --captcha <provider> --captcha-site-key <key>, with the secret in CAPTCHA_SECRET; undefined without --captcha. */
export function serverCaptchaFrom(values: {
  captcha?: string;
  'captcha-site-key'?: string;
}): ServerCaptchaSettings | undefined {
  const settings = captchaSettingsFrom(values.captcha, values['captcha-site-key'], {
    provider: '--captcha',
    siteKey: '--captcha-site-key <key>',
  });
  if (!settings) return undefined;
  const secret = process.env.CAPTCHA_SECRET;
  if (!secret) throw new UsageError('--captcha needs the secret in the CAPTCHA_SECRET environment variable.');
  return { ...settings, secret };
}
