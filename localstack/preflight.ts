/**
 * Before touching LocalStack: what is missing, one line each, instead of a stack trace.
 * The probes run commands and requests; the verdict is a pure function of their results.
 */
import { spawnSync } from 'node:child_process';
import { LOCALSTACK } from '../config/emulated-aws';

/** The last LocalStack image that starts without an auth token (frozen); later images need one. */
export const TOKEN_FREE_IMAGE = 'localstack/localstack:4.14.0';
export const DEFAULT_IMAGE = TOKEN_FREE_IMAGE;

export interface Probe {
  dockerCli: boolean;
  dockerDaemon: boolean;
  /** The health endpoint's answer, or undefined when nothing answered on the port. */
  health?: { services?: Record<string, string>; edition?: string; version?: string };
  image: string;
  token?: string;
}

export type Step = 'up' | 'deploy';

/** The services the stack needs LocalStack to run. */
const NEEDED_SERVICES = ['cloudformation', 'lambda', 'apigateway', 'dynamodb', 'sqs', 's3', 'iam', 'logs'];

/**
 * What stops a step, one line each. A LocalStack that already answers healthy on the port is
 * enough to deploy, however it was started (Docker Desktop, another compose file, a host
 * install): Docker is only needed to start one.
 */
export function problems(probe: Probe, step: Step): string[] {
  if (step === 'up') {
    if (probe.health) return [];
    if (!probe.dockerCli)
      return ['Docker is not installed: LocalStack runs in Docker (https://docs.docker.com/get-docker/).'];
    const out: string[] = [];
    if (!probe.dockerDaemon)
      out.push('Docker is not running (docker info failed): start Docker Desktop or the docker service, then retry.');
    if (probe.image !== TOKEN_FREE_IMAGE && !probe.token) {
      out.push(
        `${probe.image} needs LOCALSTACK_AUTH_TOKEN (images after 2026-03-23 do): ` +
          `put it in .env or the environment, or use ${TOKEN_FREE_IMAGE} (the default).`,
      );
    }
    return out;
  }
  if (!probe.health) {
    const start = probe.dockerCli
      ? 'start it with npm run localstack:up (docker compose up -d)'
      : 'start one (npm run localstack:up needs Docker, which is not installed)';
    return [`LocalStack is not answering on ${LOCALSTACK.endpoint}: ${start}.`];
  }
  const services = probe.health.services ?? {};
  const out: string[] = [];
  const missing = NEEDED_SERVICES.filter((s) => !services[s]);
  const down = NEEDED_SERVICES.filter((s) => services[s] && !['available', 'running'].includes(services[s]));
  if (missing.length)
    out.push(`LocalStack does not offer ${missing.join(', ')}: check the SERVICES setting in docker-compose.yml.`);
  if (down.length) {
    const states = down.map((s) => `${s}: ${services[s]}`).join(', ');
    out.push(`LocalStack is not healthy yet (${states}): wait a few seconds and retry.`);
  }
  return out;
}

/** Reads KEY=value lines from .env (no expansion), for the token. */
export function readDotEnv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match && !line.trimStart().startsWith('#')) values[match[1]] = match[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return values;
}

export async function probe(env: Record<string, string | undefined>): Promise<Probe> {
  const docker = (args: string[]) => spawnSync('docker', args, { stdio: 'ignore', timeout: 10_000 });
  const cli = docker(['--version']);
  const dockerCli = !cli.error;
  const dockerDaemon = dockerCli && docker(['info']).status === 0;
  let health: Probe['health'];
  try {
    const response = await fetch(`${LOCALSTACK.endpoint}/_localstack/health`, { signal: AbortSignal.timeout(2000) });
    if (response.ok) health = (await response.json()) as Probe['health'];
  } catch {
    health = undefined;
  }
  return {
    dockerCli,
    dockerDaemon,
    health,
    image: env.LOCALSTACK_IMAGE ?? DEFAULT_IMAGE,
    token: env.LOCALSTACK_AUTH_TOKEN || undefined,
  };
}
