/**
 * Whether this machine has AWS credentials configured, found the way the AWS SDK's default chain looks for
 * them but without a request: its environment variables, the profile's entries in the shared config and
 * credentials files, a container's or web identity's variables, and an EC2 instance (its DMI vendor file;
 * its role is the SDK's to find). `npm run deploy` and `npm run destroy` ask before they synthesize, so that
 * a machine with none hears what to run in one line instead of CDK's "Unable to resolve AWS account" after the
 * synth; and the region, found in the same places, is what `npm run destroy` names before it deletes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CommandFailure } from '../domain/errors';

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

export const defaultPlaces = (): CredentialPlaces => ({
  env: process.env,
  home: homedir(),
  read: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined),
});

/** The entries (lower-case key → value) of one section of an INI file (`[name]`), or undefined where it has none. */
function section(text: string | undefined, name: string): Record<string, string> | undefined {
  if (text === undefined) return undefined;
  let entries: Record<string, string> | undefined;
  let inside = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const heading = /^\[\s*(.+?)\s*\]$/.exec(line);
    if (heading) {
      inside = heading[1].replace(/\s+/g, ' ') === name;
      if (inside) entries ??= {};
    } else if (inside && /^[\w.-]+\s*=/.test(line)) {
      const at = line.indexOf('=');
      entries![line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
  }
  return entries;
}

/** A profile's section in the shared credentials and config files, each with its file, in the SDK's order. */
function profileSections({ env, home, read }: CredentialPlaces, profile: string) {
  const configFile = env.AWS_CONFIG_FILE || join(home, '.aws', 'config');
  const credentialsFile = env.AWS_SHARED_CREDENTIALS_FILE || join(home, '.aws', 'credentials');
  return [
    [credentialsFile, section(read(credentialsFile), profile)],
    [configFile, section(read(configFile), profile === 'default' ? 'default' : `profile ${profile}`)],
  ] as const;
}

const profileOf = (env: NodeJS.ProcessEnv) => env.AWS_PROFILE || env.AWS_DEFAULT_PROFILE || 'default';

const onEc2 = (read: CredentialPlaces['read']) =>
  read('/sys/devices/virtual/dmi/id/board_vendor')?.trim() === 'Amazon EC2';

/**
 * Where the SDK would find credentials, in words; undefined when nothing is configured. Reads files only:
 * no request is sent anywhere.
 */
export function credentialSource(places: CredentialPlaces = defaultPlaces()): string | undefined {
  const { env, read } = places;
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) return 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY';
  if (env.AWS_WEB_IDENTITY_TOKEN_FILE && env.AWS_ROLE_ARN) return 'AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN';
  if (env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI || env.AWS_CONTAINER_CREDENTIALS_FULL_URI)
    return "the container's credentials endpoint";
  const profile = profileOf(env);
  const found = profileSections(places, profile).find(
    ([, entries]) => entries && Object.keys(entries).some((key) => CREDENTIAL_KEYS.includes(key)),
  );
  if (found) return `profile ${profile} in ${found[0]}`;
  // An EC2 instance's role is served by its metadata endpoint: the SDK asks it; this says only where it runs.
  if (onEc2(read)) return "this EC2 instance's role";
  return undefined;
}

/** Where the credentials are, in words, or a CommandFailure with the one line that says what to run. */
export function requireCredentials(places: CredentialPlaces = defaultPlaces()): string {
  const source = credentialSource(places);
  if (source === undefined) throw new CommandFailure(noCredentialsMessage(places));
  return source;
}

/**
 * The region cdk deploys to and deletes from, in words (`eu-west-1 (AWS_REGION)`), found as the CDK CLI finds it
 * and without a request: its four environment variables, the profile's `region`, the default profile's, this EC2
 * instance's (which only its metadata endpoint knows), else us-east-1.
 */
export function regionInWords(places: CredentialPlaces = defaultPlaces()): string {
  const { env, read } = places;
  const variable = ['AWS_REGION', 'AMAZON_REGION', 'AWS_DEFAULT_REGION', 'AMAZON_DEFAULT_REGION'].find(
    (name) => env[name],
  );
  if (variable) return `${env[variable]} (${variable})`;
  const profile = profileOf(env);
  for (const name of new Set([profile, 'default']))
    for (const [file, entries] of profileSections(places, name))
      if (entries?.region) return `${entries.region} (profile ${name} in ${file})`;
  if (onEc2(read) && !env.AWS_EC2_METADATA_DISABLED) return "this EC2 instance's region";
  return "us-east-1 (cdk's default: no region is configured)";
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
