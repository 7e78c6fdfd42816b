/**
 * The optional CAPTCHA: its providers and the settings that turn it on (`-c captcha=` for the stack: lib/app.ts;
 * `--captcha` for the servers: node/server-options.ts; both checked by domain/captcha.ts).
 */

/**
 * Optional CAPTCHA on create and vote, as on the VPS platform: off unless the stack is
 * deployed with `-c captcha=<provider> -c captchaSiteKey=<key> -c captchaSecretParameter=<SSM name>`.
 * The secret lives in SSM Parameter Store (SecureString) and is read at run time.
 */
export const CAPTCHA = {
  providers: {
    recaptcha: {
      verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
      scriptUrl: 'https://www.google.com/recaptcha/api.js?render=',
      /** reCAPTCHA v3 scores 0 (bot) to 1 (human). */
      minScore: 0.5,
    },
    turnstile: {
      verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
      minScore: 0,
    },
  },
  /** A provider slower than this answers 503 rather than holding the request. */
  verifyTimeoutMs: 3000,
  /** How long a function keeps the secret before reading SSM again. */
  secretCacheSeconds: 300,
} as const;

export type CaptchaProvider = keyof typeof CAPTCHA.providers;
/** The providers by name: what `--captcha` and `-c captcha=` accept. */
export const CAPTCHA_PROVIDERS = Object.keys(CAPTCHA.providers) as CaptchaProvider[];

/** A CAPTCHA on create and vote: the provider, and the public site key the page shows it with. */
export interface CaptchaSettings {
  provider: CaptchaProvider;
  siteKey: string;
}

/** The same on a server of ours (npm start, npm run vps), which is handed the secret itself. */
export interface ServerCaptchaSettings extends CaptchaSettings {
  secret: string;
  /** Replaces the provider's siteverify (tests answer on 127.0.0.1). */
  verifyUrl?: string;
}
