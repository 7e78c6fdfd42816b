/**
 * Making the folder a command writes to, failing fast and in one line. Node 20's
 * `mkdirSync(path, { recursive: true })` spins forever where a plain mkdir answers ENOENT at
 * once (under /proc), so the missing levels are made one at a time.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommandFailure } from '../domain/errors';

/** The repository's root: where the commands' default folders (.local-data/, .vps-data/) live. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A path given on a command line, from the folder it was given in: `npm run` starts a script in the
 * project's root and names the caller's folder in INIT_CWD (`cd docs && npm run cost -- --profile p.json`).
 * Only for the script npm ran: a process started under it (a test's server) inherits INIT_CWD, not its meaning.
 */
export const callerPath = (path: string): string => resolve(callerFolder(), path);

/** A path as a command prints it: from the caller's folder where it is under it, else whole. */
export function shownPath(path: string): string {
  const fromCaller = relative(callerFolder(), path);
  return fromCaller.startsWith('..') || isAbsolute(fromCaller) ? path : fromCaller;
}

/** The folder a command was called from (see callerPath): where a path it prints is written from too. */
export function callerFolder(): string {
  const { INIT_CWD, npm_lifecycle_script: script } = process.env;
  const entry = process.argv[1] && relative(process.cwd(), process.argv[1]).split(sep).join('/');
  return INIT_CWD && entry && script?.split(/\s+/).includes(entry) ? INIT_CWD : process.cwd();
}

/** Makes `path` and any missing parents; throws CommandFailure saying why when it cannot. */
export function makeFolder(path: string): string {
  const folder = resolve(path);
  try {
    makeLevels(folder);
  } catch (error) {
    throw new CommandFailure(`Cannot use ${path} as a folder: ${(error as Error).message}`, { cause: error });
  }
  return folder;
}

function makeLevels(folder: string): void {
  if (existsSync(folder)) {
    if (!statSync(folder).isDirectory()) throw new Error(`${folder} is a file`);
    return;
  }
  const parent = dirname(folder);
  if (parent !== folder) makeLevels(parent);
  mkdirSync(folder);
}
