/**
 * The cost explorer and npm run cost share one model: the explorer's script is the CLI's own modules,
 * bundled, and its own code (cost/explorer/) only reads fields and draws what buildReport returns.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explorerBundle } from '../../cost/explorer';

const EXPLORER_SOURCES = join(__dirname, '..', '..', 'cost', 'explorer');

describe('the cost explorer', () => {
  it('bundles the model npm run cost uses, and its own files price nothing', () => {
    const inputs = Object.keys(explorerBundle().metafile.inputs);
    for (const model of ['model', 'report', 'designs', 'capacity', 'compare', 'peaks', 'profiles', 'chart', 'prices'])
      expect(inputs).toContain(`cost/${model}.ts`);
    // Every module of ours in it is the CLI's (or the config it reads), or the page's own code.
    expect(inputs.filter((path) => !/^(cost|config)\//.test(path))).toEqual([]);
    const own = readdirSync(EXPLORER_SOURCES).filter((name) => name.endsWith('.ts'));
    expect(own.sort()).toEqual(['app.ts', 'fields.ts']);
    for (const name of own) {
      const source = readFileSync(join(EXPLORER_SOURCES, name), 'utf8');
      // No prices, usage or bills computed here: buildReport (and the chart) give every figure.
      expect(source, name).not.toMatch(/\b(PRICES|tieredCost|estimate|priceUsage|monthlyUsage|derivePeak)\b/);
      expect(source, name).not.toMatch(/(totalUsd|usd|Usd)\s*[-+*/]/);
    }
    expect(readFileSync(join(EXPLORER_SOURCES, 'app.ts'), 'utf8')).toContain('buildReport({ ...input, profile');
  });
});
