/**
 * AWS that is not AWS: the embedded runtime's emulators (local/) and LocalStack. Both answer
 * for one region and one account; each accepts any credentials, and these are the ones we send.
 */
export const EMULATED_REGION = 'us-east-1';
export const EMULATED_ACCOUNT = '000000000000';

/** What the embedded runtime's emulators are sent. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * LocalStack: its edge port on loopback (no DNS needed; LOCALSTACK_ENDPOINT for another one),
 * and its documented default credentials.
 */
export const LOCALSTACK = {
  endpoint: (process.env.LOCALSTACK_ENDPOINT || 'http://127.0.0.1:4566').replace(/\/+$/, ''),
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
} as const;
