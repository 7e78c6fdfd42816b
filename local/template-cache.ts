/**
 * The stack's template, kept on disk between starts of the local runtime: a synth costs seconds of
 * CPU (aws-cdk-lib, and the page it bundles), and the runtime starts often (every `npm start`, dozens
 * of times in the tests). Kept by the synth's context and by every file the template is made from
 * (lib/ and every folder it imports, lambdas/ that it bundles, cdk.json, the lockfile), so an edit to any of
 * them synthesizes it again.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The CDK app's folders (test/unit/local/template-cache.test.ts checks that lib/ imports no other of ours). */
export const SOURCE_FOLDERS = ['lib', 'config', 'sizing', 'pricing', 'frontend', 'lambdas', 'domain'];
const SOURCE_FILES = ['cdk.json', 'package-lock.json'];
/** Templates kept, the newest: about twenty designs the tests start, a few edits' worth (46 KB each). */
export const KEPT_TEMPLATES = 64;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && !entry.name.startsWith('.'))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)]))
    .sort();
}

/** Where the template for `context` is kept: named by the context and the sources' contents. */
export function templateCachePath(projectRoot: string, context: Record<string, unknown>): string {
  const hash = createHash('sha256').update(JSON.stringify(context));
  // The only setting a synth reads from the environment (config/emulated-aws.ts).
  hash.update(process.env.LOCALSTACK_ENDPOINT ?? '');
  const files = [
    ...SOURCE_FOLDERS.flatMap((folder) => filesUnder(join(projectRoot, folder))),
    ...SOURCE_FILES.map((file) => join(projectRoot, file)).filter((file) => existsSync(file)),
  ];
  for (const file of files) hash.update(`\0${file.slice(projectRoot.length)}\0`).update(readFileSync(file));
  return join(projectRoot, 'node_modules', '.cache', 'poll-local', 'templates', `${hash.digest('hex')}.json`);
}

/** The template `synth` makes for `context`: the kept one when its sources are unchanged. */
export async function cachedTemplate<T>(
  projectRoot: string,
  context: Record<string, unknown>,
  synth: () => Promise<T>,
): Promise<T> {
  const path = templateCachePath(projectRoot, context);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    // Not kept yet (or pruned a moment ago by another runtime): made below.
  }
  const template = await synth();
  mkdirSync(dirname(path), { recursive: true });
  // Written whole, then renamed: runtimes starting side by side never read half a file.
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(template));
  renameSync(partial, path);
  pruneOldest(dirname(path));
  return template;
}

/** Each edit of a source makes new templates: only the newest KEPT_TEMPLATES stay. */
function pruneOldest(folder: string): void {
  const kept = readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ path: join(folder, name), at: statSync(join(folder, name), { throwIfNoEntry: false })?.mtimeMs }))
    .filter((file): file is { path: string; at: number } => file.at !== undefined)
    .sort((a, b) => b.at - a.at);
  for (const { path } of kept.slice(KEPT_TEMPLATES)) rmSync(path, { force: true });
}
