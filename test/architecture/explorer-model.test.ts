/**
 * The cost explorer and npm run cost share one model: the explorer's script is the CLI's own modules,
 * bundled, and its own code (cost/report/explorer/) only reads fields and draws what buildReport returns.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explorerBundle } from '../../cost/report/explorer';

const EXPLORER_SOURCES = join(__dirname, '..', '..', 'cost', 'report', 'explorer');

describe('the cost explorer', () => {
  it('bundles the model npm run cost uses, and its own files price nothing', () => {
    const inputs = Object.keys(explorerBundle().metafile.inputs);
    for (const model of [
      'usage/peaks',
      'usage/profiles',
      'estimate/model',
      'estimate/designs',
      'estimate/capacity',
      'estimate/compare',
      'estimate/build-report',
      'report/working',
      'report/render-html',
      'report/chart',
    ])
      expect(inputs).toContain(`cost/${model}.ts`);
    // The price sheet, where the estimator and the stack's cost dashboard both read it.
    expect(inputs).toContain('pricing/price-lines.ts');
    // Every module of ours in it is the CLI's (or the config it reads, the sizing rules and errors it shares with the
    // stack, the refresh schedule it counts, or the text wrap the chart shares with the terminal's report), or the
    // page's own code.
    const shared = ['node/wrap.ts', 'domain/errors.ts', 'domain/results-refresh.ts'];
    expect(inputs.filter((path) => !/^(cost|config|pricing|sizing)\//.test(path) && !shared.includes(path))).toEqual(
      [],
    );
    const own = readdirSync(EXPLORER_SOURCES).filter((name) => name.endsWith('.ts'));
    expect(own.sort()).toEqual(['app.ts', 'fields.ts']);
    for (const name of own) {
      // Its imports' paths aside (the model's room is cost/estimate/): those name a folder, not a computation.
      const source = readFileSync(join(EXPLORER_SOURCES, name), 'utf8').replace(/\bfrom '[^']*'/g, "from ''");
      // No prices, usage or bills computed here: buildReport (and the chart) give every figure.
      expect(source, name).not.toMatch(/\b(PRICES|tieredCost|estimate|priceUsage|monthlyUsage|derivePeak)\b/);
      expect(source, name).not.toMatch(/(totalUsd|usd|Usd)\s*[-+*/]/);
    }
    expect(readFileSync(join(EXPLORER_SOURCES, 'app.ts'), 'utf8')).toContain('buildReport({ ...input, profile');
  });
});
