/** The one error shape every route answers with: `{"error": {"code", "message"}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export const badRequest = (code: string, message: string) => new ApiError(400, code, message);
export const pollNotFound = () => new ApiError(404, 'poll_not_found', 'No poll with this id (it may have expired).');

export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', 'Too many requests from your address; try again shortly.', { 'retry-after': String(retryAfterSeconds) });
