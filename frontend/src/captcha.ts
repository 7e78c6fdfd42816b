/**
 * The CAPTCHA widget, loaded only when config.json names one: reCAPTCHA v3 (invisible,
 * scored) or Cloudflare Turnstile (usually invisible). Each create or vote asks it for a
 * fresh token, which the API verifies with the provider.
 */
import { CAPTCHA } from '../../config/captcha';
import type { SiteConfig } from '../../config/site';
import type { TokenSource } from './api';

interface ReCaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}
interface Turnstile {
  render(container: HTMLElement, options: Record<string, unknown>): string;
  remove(widgetId: string): void;
}

export function captchaTokens(captcha: SiteConfig['captcha']): TokenSource | undefined {
  if (!captcha) return undefined;
  const { provider, siteKey } = captcha;
  let loaded: Promise<void> | undefined;
  const load = () =>
    (loaded ??= new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src =
        CAPTCHA.providers[provider].scriptUrl + (provider === 'recaptcha' ? encodeURIComponent(siteKey) : '');
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        loaded = undefined; // let a later attempt try again
        reject(new Error('The CAPTCHA script did not load'));
      };
      document.head.append(script);
    }));
  void load().catch(() => undefined); // start early; errors surface when a token is needed

  return async (action) => {
    await load();
    if (provider === 'recaptcha') {
      const grecaptcha = (window as unknown as { grecaptcha: ReCaptcha }).grecaptcha;
      await new Promise<void>((resolve) => grecaptcha.ready(resolve));
      return grecaptcha.execute(siteKey, { action });
    }
    const turnstile = (window as unknown as { turnstile: Turnstile }).turnstile;
    const box = Object.assign(document.createElement('div'), { className: 'captcha' });
    document.querySelector('main')?.append(box);
    return new Promise<string>((resolve, reject) => {
      const id = turnstile.render(box, {
        sitekey: siteKey,
        action,
        callback: (token: string) => {
          turnstile.remove(id);
          box.remove();
          resolve(token);
        },
        'error-callback': () => {
          turnstile.remove(id);
          box.remove();
          reject(new Error('The CAPTCHA failed'));
        },
      });
    });
  };
}
