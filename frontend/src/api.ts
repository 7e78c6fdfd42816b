/** The poll API as the page sees it: every failure becomes one of a few kinds the page can explain. */
import type { PublicPoll } from '../../domain/poll';
import type { PublicResults } from '../../domain/results';
import { IDEMPOTENCY } from '../../config/api-contract';
import type { SiteConfig } from '../../config/site';

export type { PublicPoll, PublicResults };

/** `retryAfterSeconds`: what the answer's Retry-After said, if anything; `field`: the field a refusal names. */
export type Failure =
  | { kind: 'network'; message: string }
  | { kind: 'server'; status: number; message: string; retryAfterSeconds?: number }
  | { kind: 'client'; status: number; code: string; message: string; retryAfterSeconds?: number; field?: string };

/** The API's answer to an accepted vote. */
export interface VoteAccepted {
  voteId: string;
  option: number;
  /** When the API took it (its clock): the results include it once they are as new. */
  castAt: string;
}

export type Outcome<T> = { ok: true; status: number; data: T } | ({ ok: false } & Failure);

export type AppConfig = SiteConfig;

/** The config the page was served with (frontend/build.ts puts it in); the API on this origin without one. */
export function loadConfig(): AppConfig {
  try {
    const config = JSON.parse(document.getElementById('site-config')?.textContent ?? 'null') as
      | Partial<AppConfig>
      | string
      | null;
    if (config && typeof config === 'object') return { apiUrl: '', ...config };
  } catch {
    // Not served through a build that wrote it: same origin.
  }
  return { apiUrl: '' };
}

/** Asks the page's CAPTCHA for a token for an action; absent when the site has none. */
export type TokenSource = (action: 'create' | 'vote') => Promise<string>;

export function createApi(config: AppConfig, captchaToken?: TokenSource) {
  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    base = config.apiUrl,
    headers: Record<string, string> = {},
  ): Promise<Outcome<T>> {
    let response: Response;
    try {
      response = await fetch(base.replace(/\/$/, '') + path, {
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      return {
        ok: false,
        kind: 'network',
        message: 'The server could not be reached. Check your connection and try again.',
      };
    }
    const json = (await response.json().catch(() => undefined)) as
      | { error?: { code?: string; message?: string; field?: unknown } }
      | undefined;
    if (response.ok) return { ok: true, status: response.status, data: json as T };
    const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
    const retryAfterSeconds = Number.isFinite(retryAfter) ? retryAfter : undefined;
    if (response.status === 429 && !json?.error) {
      // Not our rate limit (that has our error shape): the results function URL at its concurrency cap.
      return {
        ok: false,
        kind: 'server',
        status: 429,
        message: 'Many people are watching: results will catch up in a moment.',
        retryAfterSeconds,
      };
    }
    if (response.status >= 500 || !json?.error) {
      return {
        ok: false,
        kind: 'server',
        status: response.status,
        message: `The server had a problem (${response.status}). Try again in a moment.`,
        retryAfterSeconds,
      };
    }
    return {
      ok: false,
      kind: 'client',
      status: response.status,
      code: json.error.code ?? 'error',
      message: json.error.message ?? 'Request refused.',
      retryAfterSeconds,
      field: typeof json.error.field === 'string' ? json.error.field : undefined,
    };
  }

  /** The body with a CAPTCHA token when the site has one; undefined when the CAPTCHA could not run. */
  async function withToken<T extends object>(action: 'create' | 'vote', body: T): Promise<T | undefined> {
    if (!captchaToken) return body;
    try {
      return { ...body, captchaToken: await captchaToken(action) };
    } catch {
      return undefined;
    }
  }
  const captchaFailure = {
    ok: false,
    kind: 'network',
    message: 'The CAPTCHA could not run. Check your connection (or blockers) and try again.',
  } as const;

  return {
    createPoll: async (input: {
      title: string;
      options: string[];
      lifetimeMinutes: number;
      oneVotePerVoter: boolean;
    }) => {
      const body = await withToken('create', input);
      return body ? call<PublicPoll>('POST', '/api/poll', body) : captchaFailure;
    },
    getPoll: (id: string) => call<PublicPoll>('GET', `/api/poll/${encodeURIComponent(id)}`),
    /** One try of a ballot; `key` makes a retry of it the same vote (frontend/src/ballot.ts retries). */
    vote: async (id: string, option: number, key: string) => {
      // A token per try: a CAPTCHA token is good for one verification.
      const body = await withToken('vote', { option });
      if (!body) return captchaFailure;
      const path = `/api/poll/${encodeURIComponent(id)}/vote`;
      return call<VoteAccepted>('POST', path, body, config.apiUrl, { [IDEMPOTENCY.header]: key });
    },
    // From a function URL when the site has one (results=function-url), else from the API.
    results: (id: string) =>
      call<PublicResults>('GET', `/api/poll/${encodeURIComponent(id)}/results`, undefined, config.resultsUrl),
  };
}

export type Api = ReturnType<typeof createApi>;
