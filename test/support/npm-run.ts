/** What `npm run` tells the command it starts, stubbed (vi.unstubAllEnvs() undoes it). */
import { relative } from 'node:path';
import { vi } from 'vitest';

/** As `npm run` starts this process from `folder`: its script runs this entry point, in the project's root. */
export function calledFrom(folder: string | undefined): void {
  vi.stubEnv('INIT_CWD', folder);
  vi.stubEnv('npm_lifecycle_script', `tsx ${relative(process.cwd(), process.argv[1])}`);
}
