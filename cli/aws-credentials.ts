/**
 * Whether this machine has AWS credentials configured, found the way the AWS SDK's default chain looks for
 * them but without a request: its environment variables, the profile's entries in the shared config and
 * credentials files, a container's or web identity's variables, and an EC2 instance (its DMI vendor file;
 * its role is the SDK's to find). `npm run deploy` asks before it synthesizes, so that a machine with none
 * hears what to run in one line instead of CDK's "Unable to resolve AWS account" after the synth.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What to run to get credentials, and where the rest is. */
export const CREDENTIALS_HELP = 'run aws configure (keys) or aws sso login (SSO), then try again; docs/deploy.md';

/** A profile entry that gives credentials, by itself or through SSO, a role or a process. */
const CREDENTIAL_KEYS = [
  'aws_access_key_id',
  'sso_session',
  'sso_start_url',
  'credential_process',
  'role_arn',
  'web_identity_token_file',
];

/** Where what is looked at lives: the environment, the home folder, a file reader (the tests give their own). */
export interface CredentialPlaces {
  env: NodeJS.ProcessEnv;
  home: string;
  read: (file: string) => string | undefined;
}

const defaultPlaces = (): CredentialPlaces => ({
  env: process.env,
  home: homedir(),
  read: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined),
});

/** The keys of one section of an INI file (`[name]`), or undefined where it has none. */
function section(text: string | undefined, name: string): string[] | undefined {
  if (text === undefined) return undefined;
  let keys: string[] | undefined;
  let inside = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const heading = /^\[\s*(.+?)\s*\]$/.exec(line);
    if (heading) {
      inside = heading[1].replace(/\s+/g, ' ') === name;
      if (inside) keys ??= [];
    } else if (inside && /^[\w.-]+\s*=/.test(line)) keys!.push(line.slice(0, line.indexOf('=')).trim().toLowerCase());
  }
  return keys;
}

/**
 * Where the SDK would find credentials, in words; undefined when nothing is configured. Reads files only:
 * no request is sent anywhere.
 */
export function credentialSource(places: CredentialPlaces = defaultPlaces()): string | undefined {
  const { env, home, read } = places;
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) return 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY';
  if (env.AWS_WEB_IDENTITY_TOKEN_FILE && env.AWS_ROLE_ARN) return 'AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN';
  if (env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI || env.AWS_CONTAINER_CREDENTIALS_FULL_URI)
    return "the container's credentials endpoint";
  const profile = env.AWS_PROFILE || env.AWS_DEFAULT_PROFILE || 'default';
  const configFile = env.AWS_CONFIG_FILE || join(home, '.aws', 'config');
  const credentialsFile = env.AWS_SHARED_CREDENTIALS_FILE || join(home, '.aws', 'credentials');
  const entries = [
    [credentialsFile, section(read(credentialsFile), profile)],
    [configFile, section(read(configFile), profile === 'default' ? 'default' : `profile ${profile}`)],
  ] as const;
  const found = entries.find(([, keys]) => keys?.some((key) => CREDENTIAL_KEYS.includes(key)));
  if (found) return `profile ${profile} in ${found[0]}`;
  // An EC2 instance's role is served by its metadata endpoint: the SDK asks it; this says only where it runs.
  if (read('/sys/devices/virtual/dmi/id/board_vendor')?.trim() === 'Amazon EC2') return "this EC2 instance's role";
  return undefined;
}

/** The one line for a machine with no credentials configured: what is missing, what to run. */
export function noCredentialsMessage(places: CredentialPlaces = defaultPlaces()): string {
  const named = places.env.AWS_PROFILE || places.env.AWS_DEFAULT_PROFILE;
  return named
    ? `No AWS credentials found for profile ${named} (AWS_PROFILE): ${CREDENTIALS_HELP.replace(
        'aws sso login',
        `aws sso login --profile ${named}`,
      )}.`
    : `No AWS credentials found (none in the environment, ~/.aws/config or ~/.aws/credentials): ${CREDENTIALS_HELP}.`;
}
