/**
 * A path given to a command through `npm run`, from a folder under the project: read from that folder
 * (node/folders.ts callerPath), as a person typed it, though npm starts the script in the project's root.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('npm run, from a folder under the project', () => {
  it('reads a path given there from there (the report named by the profile file found there)', {
    timeout: 120_000,
  }, () => {
    const out = mkdtempSync(join(tmpdir(), 'called-from-'));
    const run = spawnSync('npm', ['run', '--silent', 'cost', '--', '--profile', 'small-site.json', '--out', out], {
      cwd: 'test/fixtures/profiles',
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^small-site, /m);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).profile.name).toBe('small-site');
  });
});
