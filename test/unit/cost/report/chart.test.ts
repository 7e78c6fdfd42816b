/**
 * The report's chart (cost/report/chart.ts): monthly cost against monthly votes, drawn for a screen of any width.
 */
import { describe, expect, it } from 'vitest';
import { carriesInTime } from '../../../../cost/estimate/capacity';
import { reportInput } from '../../../../cost/report-files';
import { chartData, drawChart, renderChart } from '../../../../cost/report/chart';
import { scaleProfile } from '../../../../cost/estimate/compare';
import { DEPLOYABLE_DESIGNS, designCapacity } from '../../../../cost/estimate/designs';
import { derivePeak } from '../../../../cost/usage/peaks';
import { PROFILES, validateProfile } from '../../../../cost/usage/profiles';
import { buildReport } from '../../../../cost/estimate/build-report';
import { costReport, httpTemplateFile } from '../../../support/cost';
import { US_EAST_1 } from '../../../support/prices';

interface Text {
  x: number;
  y: number;
  anchor: string;
  size: number;
  text: string;
}

const textsOf = (svg: string): Text[] =>
  [...svg.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)].map(([, attrs, text]) => ({
    x: Number(/\bx="([\d.-]+)"/.exec(attrs)![1]),
    y: Number(/\by="([\d.-]+)"/.exec(attrs)![1]),
    anchor: /text-anchor="(\w+)"/.exec(attrs)?.[1] ?? 'start',
    size: Number(/font-size="(\d+)"/.exec(attrs)?.[1] ?? 12),
    text,
  }));

describe('the chart', () => {
  const report = costReport();
  const data = chartData(report);

  it('has a title, a description in words, a drawn legend, and no label across the profile line', () => {
    const svg = renderChart(report);
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 820 470" width="100%"[^>]*aria-labelledby="chart-title"/);
    expect(svg).toMatch(/<text id="chart-title"[^>]*><tspan[^>]*>Monthly cost against monthly votes: /);
    expect(svg).toContain('profile “seed”, scaled');
    expect(svg).toMatch(/<desc id="chart-desc">This profile: 15\.0 M votes a month; recommended: /);
    // What shows on hover or focus aside, the texts drawn.
    const texts = textsOf(svg.replace(/<g class="on-focus">.*?<\/g>/gs, ''));
    // One label per series (tiers that would overlap share one), each beside a drawn swatch.
    const legendLabels = texts.filter((t) => /^(AWS|VPS): /.test(t.text));
    const vpsSeries = data.series.filter((s) => s.kind === 'vps');
    expect(legendLabels).toHaveLength(DEPLOYABLE_DESIGNS.length + 1 + vpsSeries.length);
    // Every tier weighed (the Region's market's) in one series, named in its id.
    const weighed = report.offers.tiers.map((t) => t.name).sort();
    expect(vpsSeries.flatMap((s) => s.id.split(' · ')).sort()).toEqual(weighed);
    for (const label of legendLabels) expect(svg).toContain(`x2="${label.x - 6}" y1="${label.y - 4}"`);
    const [, lineX, top, bottom] = /<line x1="([\d.]+)" x2="\1" y1="([\d.]+)" y2="([\d.]+)" stroke="#555"/
      .exec(svg)!
      .map(Number);
    const across = texts.filter((t) => {
      const width = t.text.length * 7;
      const left = t.anchor === 'start' ? t.x : t.anchor === 'end' ? t.x - width : t.x - width / 2;
      return t.y > top && t.y < bottom && left < lineX && left + width > lineX;
    });
    expect(across.map((t) => t.text)).toEqual([]);
  });

  it('reflows for a phone: 358 px wide, legend below the plot, no text under 12 px', () => {
    const svg = drawChart(data, 358);
    const [, width, height] = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)!.map(Number);
    expect(width).toBe(358);
    expect(height).toBeGreaterThan(500);
    const texts = textsOf(svg);
    expect(Math.min(...texts.map((t) => t.size))).toBeGreaterThanOrEqual(12);
    const plotBottom = Number(/<clipPath id="plot-clip"><rect [^>]*y="([\d.]+)"[^>]*height="([\d.]+)"/.exec(svg)![1]);
    for (const label of texts.filter((t) => /^(AWS|VPS): /.test(t.text))) expect(label.y).toBeGreaterThan(plotBottom);
  });

  it('ends lines at the frame and VPS lines where one box stops carrying; marks the recommended break-even', () => {
    const svg = renderChart(report);
    expect(svg).toContain('clip-path="url(#plot-clip)"');
    for (const vps of data.series.filter((s) => s.kind === 'vps')) {
      const drawn = vps.costs.map((c, i) => (c === null ? -1 : i)).filter((i) => i >= 0);
      expect(drawn.every((i) => vps.carries[i])).toBe(true);
      expect(vps.carriesUpTo).toBeDefined();
    }
    const recommended = data.series.find((s) => s.recommended)!;
    expect(recommended.id).toBe(report.recommended.id);
    // The report's one break-even: the recommended design's, with the box the verdict names; no other is drawn.
    expect(recommended.breakEven).toMatchObject({
      votes: report.answer.breakEven.votes,
      with: report.answer.vps.name,
    });
    const circles = [...svg.matchAll(/<circle class="([^"]*)"[^>]*stroke="#D55E00"/g)].map((m) => m[1]);
    expect(circles).toEqual(['']);
    // Each series takes focus, names itself and, past what it carries, its bottleneck.
    const groups = [
      ...svg.matchAll(/<g class="series" tabindex="0" role="img" data-series="([^"]+)" aria-label="([^"]+)"/g),
    ];
    expect(groups).toHaveLength(data.series.length);
    const fnUrl = groups.find(([, id]) => id === 'function-url')!;
    expect(fnUrl[2]).toMatch(/stops carrying above ~[\d.]+ [MB] votes: /);
  });

  it('finds where a design stops carrying as its verdict at every volume of the plot finds it', () => {
    const input = reportInput({ profile: 'seed', template: httpTemplateFile(), 'new-account': false });
    // Each preset, and two with their peak pinned (peakRequestsPerSecond): there routes shift as volume grows.
    const pinned = (name: string) => {
      const peak = 10 * derivePeak(PROFILES[name]).requestsPerSecond;
      return validateProfile({ ...PROFILES[name], name: `${name}, pinned`, peakRequestsPerSecond: peak });
    };
    const profiles = [...Object.values(PROFILES), pinned('tv-show'), pinned('seed')];
    let stops = 0;
    for (const profile of profiles)
      for (const newAccount of [false, true]) {
        const r = buildReport({ ...input, profile, options: { newAccount, book: US_EAST_1 } });
        const chart = chartData(r);
        for (const series of chart.series.filter((s) => s.kind === 'design')) {
          const design = r.designs.find((d) => d.id === series.id)!;
          const everyVolume = chart.points.map((votes) => {
            const scaled = scaleProfile(r.profile, votes / r.bill.votes);
            const verdict = designCapacity(design, r.designStacks[design.id], derivePeak(scaled), r.units, {
              account: r.account,
              profile: scaled,
            });
            return !design.deploy || carriesInTime(verdict);
          });
          expect(series.carries, `${profile.name}${newAccount ? ' --new-account' : ''}: ${design.id}`).toEqual(
            everyVolume,
          );
          if (series.carriesUpTo) stops++;
        }
      }
    // Not only designs that carry the whole plot.
    expect(stops).toBeGreaterThan(5);
  });
  it('says a line that carries no volume of the plot does not carry, in its words and in the facts', () => {
    const tv = costReport({ profile: 'tv-show' });
    const chart = chartData(tv);
    const api = chart.series.find((s) => s.id === 'api')!;
    expect(api.carries.every((c) => !c)).toBe(true);
    expect(chart.facts).toContainEqual(
      expect.stringMatching(/^AWS: api: .*; carries no volume of the plot: API stage/),
    );
    expect(renderChart(tv)).toContain('api: carries no volume of the plot: API stage throttle');
    // The chart's VPS fact agrees with the model: the tiers that carry the peak alone, or none.
    const alone = tv.vps.filter((v) => !v.cdn && v.carries).map((v) => v.tier.name.replace(/ \(.*\)$/, ''));
    expect(chart.facts.at(-1)).toMatch(
      alone.length === 0
        ? /^No VPS tier carries the peak at any volume of the plot/
        : /^VPS tiers stop carrying where one box no longer does/,
    );
    for (const name of alone) expect(chart.facts.at(-1)).toContain(`${name} above`);
    expect(chart.facts.join(' ')).not.toContain('carries the whole plot');
  });
});
