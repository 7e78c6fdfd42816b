/** The function bundles as the stack bundles them: their size and what they leave out. */
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { FUNCTION_METADATA } from '../../config/functions';
import { ESBUILD_OPTIONS } from '../../local/functions';
import { resources } from '../support/template-resources';

describe('the function bundles', () => {
  /** Each function bundled as the stack bundles it (config/functions.ts BUNDLING, the entry in its metadata), in KB. */
  async function bundleSizes(): Promise<Record<string, number>> {
    const entries = Object.fromEntries(
      resources('AWS::Lambda::Function')
        .filter(([, fn]) => fn.Metadata?.[FUNCTION_METADATA.entry])
        .map(([, fn]) => [
          fn.Metadata![FUNCTION_METADATA.name] as string,
          fn.Metadata![FUNCTION_METADATA.entry] as string,
        ]),
    );
    const result = await build({
      entryPoints: entries,
      outdir: 'out',
      write: false,
      ...ESBUILD_OPTIONS,
    });
    return Object.fromEntries(
      result.outputFiles.map((file) => [file.path.replace(/^.*\/(\w+)\.js$/, '$1'), file.contents.length / 1024]),
    );
  }

  // A cold start loads all of it: small, and as large as docs/architecture.md says.
  it('are each under 64 KB, within the range docs/architecture.md states', async () => {
    const sizes = await bundleSizes();
    console.log(
      `bundles (KB): ${Object.entries(sizes)
        .map(([name, kb]) => `${name} ${kb.toFixed(1)}`)
        .join(', ')}`,
    );
    expect(Object.keys(sizes).length).toBeGreaterThanOrEqual(5);
    const stated = /Minified bundles are (\d+)–(\d+) KB/.exec(readFileSync('docs/architecture.md', 'utf8'));
    expect(stated, 'docs/architecture.md: "Minified bundles are <min>–<max> KB"').not.toBeNull();
    const [low, high] = [Number(stated![1]), Number(stated![2])];
    // Rounded to the KB, with 2 KB of slack so that a small change does not have to touch the docs.
    expect(Math.min(...Object.values(sizes))).toBeGreaterThanOrEqual(low - 2);
    expect(Math.max(...Object.values(sizes))).toBeLessThanOrEqual(high + 2);
    for (const kb of Object.values(sizes)) expect(kb).toBeLessThan(64);
  });
});
