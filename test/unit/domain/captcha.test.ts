import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverCaptchaFrom } from '../../../node/server-options';
import { checkVerdict, requireToken, takeCaptchaToken, captchaSettingsFrom } from '../../../domain/captcha';
import type { CaptchaProvider } from '../../../config/captcha';
import { UsageError } from '../../../domain/errors';
import { captchaVerifier } from '../../../lambdas/adapters/captcha-verifier';

const refusedWith = (code: string) => expect.objectContaining({ name: 'PollError', code });

describe('CAPTCHA verdicts', () => {
  it('takes the token off the body and leaves the rest to validation', () => {
    expect(takeCaptchaToken({ option: 1, captchaToken: 't' })).toEqual({ token: 't', rest: { option: 1 } });
    expect(takeCaptchaToken({ option: 1 })).toEqual({ token: undefined, rest: { option: 1 } });
    expect(takeCaptchaToken('x')).toEqual({ token: undefined, rest: 'x' });
  });

  it('asks for a token when there is none', () => {
    expect(() => requireToken(undefined)).toThrow(refusedWith('captcha_required'));
    expect(() => requireToken('')).toThrow(refusedWith('captcha_required'));
    expect(() => requireToken(5)).toThrow(refusedWith('captcha_required'));
    expect(() => requireToken('x'.repeat(5000))).toThrow(refusedWith('captcha_required'));
    expect(requireToken('tok')).toBe('tok');
  });

  it('accepts Turnstile on success alone', () => {
    expect(() => checkVerdict('turnstile', { success: true }, 'vote')).not.toThrow();
    expect(() =>
      checkVerdict('turnstile', { success: false, 'error-codes': ['invalid-input-response'] }, 'vote'),
    ).toThrow(refusedWith('captcha_failed'));
  });

  it('accepts reCAPTCHA v3 only with a human score and the right action', () => {
    expect(() => checkVerdict('recaptcha', { success: true, score: 0.9, action: 'vote' }, 'vote')).not.toThrow();
    expect(() => checkVerdict('recaptcha', { success: true, score: 0.1, action: 'vote' }, 'vote')).toThrow(
      refusedWith('captcha_failed'),
    );
    expect(() => checkVerdict('recaptcha', { success: true, score: 0.9, action: 'create' }, 'vote')).toThrow(
      refusedWith('captcha_failed'),
    );
    expect(() => checkVerdict('recaptcha', { success: true }, 'vote')).toThrow(refusedWith('captcha_failed'));
  });
});

describe('the CAPTCHA verifier', () => {
  it('names the valid providers when its setting is misspelt, instead of failing on it', () => {
    const settings = {
      provider: 'recaptch' as CaptchaProvider,
      secret: async () => 'secret',
      log: { error: () => undefined, warn: () => undefined },
    };
    expect(() => captchaVerifier(settings)).toThrow(
      /^The CAPTCHA provider must be one of recaptcha, turnstile \(got recaptch\)$/,
    );
    expect(() => captchaVerifier({ ...settings, provider: 'turnstile' })).not.toThrow();
  });
});

describe('a CAPTCHA asked for on a command line', () => {
  const flags = { provider: '--captcha', siteKey: '--captcha-site-key <key>' };
  afterEach(() => vi.unstubAllEnvs());

  it('is off when absent or off, and the provider and site key when given', () => {
    expect(captchaSettingsFrom(undefined, undefined, flags)).toBeUndefined();
    expect(captchaSettingsFrom('off', 'key', flags)).toBeUndefined();
    expect(captchaSettingsFrom('turnstile', 'site-key_1', flags)).toEqual({
      provider: 'turnstile',
      siteKey: 'site-key_1',
    });
  });

  it('names the providers, and the setting missing, in the words of the flags used', () => {
    expect(() => captchaSettingsFrom('hcaptcha', 'key', flags)).toThrow(
      new UsageError('--captcha must be one of recaptcha, turnstile or off (got hcaptcha).'),
    );
    expect(() => captchaSettingsFrom('recaptcha', undefined, { ...flags, provider: 'captcha' })).toThrow(
      /^captcha needs --captcha-site-key <key>: the public site key/,
    );
    // The key is written into the page.
    expect(() => captchaSettingsFrom('recaptcha', '"></script>', flags)).toThrow(UsageError);
  });

  it('takes a server’s secret from CAPTCHA_SECRET, never from a flag', () => {
    vi.stubEnv('CAPTCHA_SECRET', '');
    expect(() => serverCaptchaFrom({ captcha: 'turnstile', 'captcha-site-key': 'key' })).toThrow(/CAPTCHA_SECRET/);
    vi.stubEnv('CAPTCHA_SECRET', 'shh');
    expect(serverCaptchaFrom({ captcha: 'turnstile', 'captcha-site-key': 'key' })).toEqual({
      provider: 'turnstile',
      siteKey: 'key',
      secret: 'shh',
    });
  });
});
