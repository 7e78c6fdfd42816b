/**
 * The report's chart (cost/chart.ts): monthly cost against monthly votes, drawn for a screen.
 */
import { describe, expect, it } from 'vitest';
import { renderChart } from '../../cost/chart';
import { DEPLOYABLE_DESIGNS } from '../../cost/designs';
import { VPS_TIERS } from '../../cost/vps';
import { costReport } from '../support/cost';

describe('the chart', () => {
  it('has a title, a drawn legend, no label across the profile line, and a width that follows the screen', () => {
    const svg = renderChart(costReport());
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+" width="100%"[^>]*role="img" aria-labelledby="chart-title"/);
    expect(svg).toMatch(/<text id="chart-title"[^>]*>Monthly cost against monthly votes: profile “seed”/);
    const texts = [...svg.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)].map(([, attrs, text]) => ({
      x: Number(/\bx="([\d.-]+)"/.exec(attrs)![1]),
      y: Number(/\by="([\d.-]+)"/.exec(attrs)![1]),
      anchor: /text-anchor="(\w+)"/.exec(attrs)?.[1] ?? 'start',
      text,
    }));
    // One label per series, each beside a drawn swatch (a line), none drawn in ASCII.
    const legendLabels = texts.filter((t) => /^(AWS|VPS): /.test(t.text));
    expect(legendLabels).toHaveLength(DEPLOYABLE_DESIGNS.length + 1 + VPS_TIERS.length);
    for (const label of legendLabels) expect(svg).toContain(`x2="${label.x - 6}" y1="${label.y - 4}"`);
    expect(texts.filter((t) => /--|==|\.\.\./.test(t.text))).toEqual([]);
    // The dotted "this profile" line runs down the plot: no text in the plot may run across it.
    const [, lineX, top, bottom] = /<line x1="([\d.]+)" x2="\1" y1="([\d.]+)" y2="([\d.]+)" stroke="#999"/
      .exec(svg)!
      .map(Number);
    const across = texts.filter((t) => {
      const width = t.text.length * 7; // 12 px text is narrower than 7 px a character
      const left = t.anchor === 'start' ? t.x : t.anchor === 'end' ? t.x - width : t.x - width / 2;
      return t.y > top && t.y < bottom && left < lineX && left + width > lineX;
    });
    expect(across.map((t) => t.text)).toEqual([]);
  });
});
