/** The project's TypeScript files under a folder, as project paths: what the architecture tests read. */
import { readdirSync } from 'node:fs';
import { join, posix } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** Every `.ts` (`.mts`, `.cts`) file under `dir`, e.g. `lib/poll-stack.ts`; installed and built files left out. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.(ts|mts|cts)$/.test(entry.name) ? [path] : [];
  });
}
