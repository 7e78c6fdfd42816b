import { describe, expect, it } from 'vitest';
import { checkVerdict, requireToken, takeCaptchaToken } from '../../lambdas/domain/captcha';
import { ApiError } from '../../lambdas/domain/errors';

const status = (fn: () => void) => {
  try {
    fn();
    return 200;
  } catch (error) {
    return (error as ApiError).status;
  }
};

describe('CAPTCHA verdicts', () => {
  it('takes the token off the body and leaves the rest to validation', () => {
    expect(takeCaptchaToken({ option: 1, captchaToken: 't' })).toEqual({ token: 't', rest: { option: 1 } });
    expect(takeCaptchaToken({ option: 1 })).toEqual({ token: undefined, rest: { option: 1 } });
    expect(takeCaptchaToken('x')).toEqual({ token: undefined, rest: 'x' });
  });

  it('asks for a token when there is none', () => {
    expect(status(() => requireToken(undefined))).toBe(400);
    expect(status(() => requireToken(''))).toBe(400);
    expect(status(() => requireToken(5))).toBe(400);
    expect(status(() => requireToken('x'.repeat(5000)))).toBe(400);
    expect(requireToken('tok')).toBe('tok');
  });

  it('accepts Turnstile on success alone', () => {
    expect(status(() => checkVerdict('turnstile', { success: true }, 'vote'))).toBe(200);
    expect(status(() => checkVerdict('turnstile', { success: false, 'error-codes': ['invalid-input-response'] }, 'vote'))).toBe(403);
  });

  it('accepts reCAPTCHA v3 only with a human score and the right action', () => {
    expect(status(() => checkVerdict('recaptcha', { success: true, score: 0.9, action: 'vote' }, 'vote'))).toBe(200);
    expect(status(() => checkVerdict('recaptcha', { success: true, score: 0.1, action: 'vote' }, 'vote'))).toBe(403);
    expect(status(() => checkVerdict('recaptcha', { success: true, score: 0.9, action: 'create' }, 'vote'))).toBe(403);
    expect(status(() => checkVerdict('recaptcha', { success: true }, 'vote'))).toBe(403);
  });
});
