/**
 * Each function's bundle as the stack builds it (lib/functions.ts BUNDLING, the entry in its
 * metadata): small, and as large as the README says (a cold start loads all of it).
 */
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { FUNCTION_METADATA } from '../../config/app-config';
import { BUNDLING } from '../../lib/functions';
import { templateFor } from '../support/synth';

async function bundleSizes(): Promise<Record<string, number>> {
  const functions = templateFor('http').findResources('AWS::Lambda::Function');
  const entries = Object.values(functions)
    .map((fn) => ({ name: fn.Metadata?.[FUNCTION_METADATA.name] as string, entry: fn.Metadata?.[FUNCTION_METADATA.entry] as string }))
    .filter((fn) => fn.entry);
  const sizes: Record<string, number> = {};
  for (const { name, entry } of entries) {
    const result = await build({ entryPoints: [entry], bundle: true, write: false, platform: 'node', format: BUNDLING.format, target: BUNDLING.target, minify: BUNDLING.minify, external: [...BUNDLING.externalModules], logLevel: 'error' });
    sizes[name] = result.outputFiles[0].contents.length / 1024;
  }
  return sizes;
}

describe('the function bundles', () => {
  it('are each under 64 KB, within the range the README states', async () => {
    const sizes = await bundleSizes();
    console.log(`bundles (KB): ${Object.entries(sizes).map(([name, kb]) => `${name} ${kb.toFixed(1)}`).join(', ')}`);
    expect(Object.keys(sizes).length).toBeGreaterThanOrEqual(5);
    const stated = /Minified bundles are (\d+)–(\d+) KB/.exec(readFileSync('README.md', 'utf8'));
    expect(stated, 'README: "Minified bundles are <min>–<max> KB"').not.toBeNull();
    const [low, high] = [Number(stated![1]), Number(stated![2])];
    // Rounded to the KB, with 2 KB of slack so that a small change does not have to touch the README.
    expect(Math.min(...Object.values(sizes))).toBeGreaterThanOrEqual(low - 2);
    expect(Math.max(...Object.values(sizes))).toBeLessThanOrEqual(high + 2);
    for (const kb of Object.values(sizes)) expect(kb).toBeLessThan(64);
  });
});
