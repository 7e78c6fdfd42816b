/** The poll API as the page sees it: every failure becomes one of a few kinds the page can explain. */
import type { PublicPoll } from '../../lambdas/domain/poll';
import type { PublicResults } from '../../lambdas/domain/results';

export type { PublicPoll, PublicResults };

export type Failure =
  | { kind: 'network'; message: string }
  | { kind: 'server'; status: number; message: string }
  | { kind: 'client'; status: number; code: string; message: string };

export type Outcome<T> = { ok: true; status: number; data: T } | ({ ok: false } & Failure);

export interface AppConfig {
  /** Where the API is: '' for the page's own origin (local runtime), the API's URL when deployed. */
  apiUrl: string;
}

export async function loadConfig(): Promise<AppConfig> {
  try {
    const response = await fetch('/config.json', { cache: 'no-cache' });
    if (response.ok) return { apiUrl: '', ...((await response.json()) as Partial<AppConfig>) };
  } catch {
    // No config: same origin.
  }
  return { apiUrl: '' };
}

export function createApi(config: AppConfig) {
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Outcome<T>> {
    let response: Response;
    try {
      response = await fetch(config.apiUrl + path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      return { ok: false, kind: 'network', message: 'The server could not be reached. Check your connection and try again.' };
    }
    const json = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
    if (response.ok) return { ok: true, status: response.status, data: json as T };
    if (response.status >= 500 || !json?.error) {
      return { ok: false, kind: 'server', status: response.status, message: `The server had a problem (${response.status}). Try again in a moment.` };
    }
    return { ok: false, kind: 'client', status: response.status, code: json.error.code ?? 'error', message: json.error.message ?? 'Request refused.' };
  }

  return {
    createPoll: (input: { title: string; options: string[]; lifetimeMinutes: number; oneVotePerVoter: boolean }) =>
      call<PublicPoll>('POST', '/api/poll', input),
    getPoll: (id: string) => call<PublicPoll>('GET', `/api/poll/${encodeURIComponent(id)}`),
    vote: (id: string, option: number) => call<{ voteId: string }>('POST', `/api/poll/${encodeURIComponent(id)}/vote`, { option }),
    results: (id: string) => call<PublicResults>('GET', `/api/poll/${encodeURIComponent(id)}/results`),
  };
}

export type Api = ReturnType<typeof createApi>;
