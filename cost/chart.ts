/**
 * The report's chart: monthly cost against monthly votes, both on log scales, each AWS design as a
 * line and each VPS tier as steps, as one SVG that scales to the width it is given.
 */
import { scaleProfile, vpsCost } from './compare';
import { escapeHtml, quantity, votesLabel } from './format';
import { estimate } from './model';
import type { TrafficProfile } from './profiles';
import type { CostReport } from './report';
import { BASELINE_VPS, VPS_TIERS } from './vps';

/** Cool colours for AWS designs (solid), warm ones for VPS tiers (dashed): the two families never mix. */
const DESIGN_COLORS = ['#1f5fd1', '#0a8f5a', '#0891b2', '#6d28d9', '#475569'];
const VPS_COLORS = ['#c0392b', '#e67e22', '#a0522d', '#b8860b', '#7f1d1d'];
/** Text over the lines: a white halo keeps it readable where it crosses one. */
const HALO = 'stroke="#fff" stroke-width="4" stroke-linejoin="round" paint-order="stroke"';

const WIDTH = 820;
const HEIGHT = 470;
const PAD = { left: 70, right: 250, top: 46, bottom: 50 };
const [X_MIN, X_MAX] = [1e4, 1e10];
const [Y_MIN, Y_MAX] = [1, 1e6];
const PLOT_RIGHT = WIDTH - PAD.right;
/** The volumes each series is priced at: ten a decade across the plot. */
const POINTS = Array.from({ length: 61 }, (_, i) => 10 ** (4 + i / 10));

/** Where monthly votes fall across the plot. */
const x = (votes: number) =>
  PAD.left +
  ((Math.log10(votes) - Math.log10(X_MIN)) / (Math.log10(X_MAX) - Math.log10(X_MIN))) * (PLOT_RIGHT - PAD.left);

/** Where a monthly cost falls up the plot (clamped to it). */
function y(usdValue: number): number {
  const clamped = Math.min(Math.max(usdValue, Y_MIN), Y_MAX);
  return (
    HEIGHT -
    PAD.bottom -
    ((Math.log10(clamped) - Math.log10(Y_MIN)) / (Math.log10(Y_MAX) - Math.log10(Y_MIN))) *
      (HEIGHT - PAD.top - PAD.bottom)
  );
}

/** A series through POINTS: one cost per point. */
const path = (costs: number[]) =>
  costs.map((v, i) => `${i ? 'L' : 'M'}${x(POINTS[i]).toFixed(1)},${y(v).toFixed(1)}`).join(' ');

/** The SVG's opening, its title, the grid with its labels, and the axes' names. */
function frame(profileName: string): string[] {
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" ` +
      `style="max-width:${WIDTH}px;height:auto" role="img" aria-labelledby="chart-title" ` +
      'font-family="system-ui, sans-serif" font-size="12">',
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text id="chart-title" x="${PAD.left}" y="24" font-size="16" font-weight="bold">` +
      `Monthly cost against monthly votes: profile “${escapeHtml(profileName)}”, scaled</text>`,
  ];
  for (let e = 4; e <= 10; e++) {
    parts.push(
      `<line x1="${x(10 ** e)}" x2="${x(10 ** e)}" y1="${PAD.top}" y2="${HEIGHT - PAD.bottom}" stroke="#eee"/>`,
    );
    parts.push(
      `<text x="${x(10 ** e)}" y="${HEIGHT - PAD.bottom + 16}" text-anchor="middle">${quantity(10 ** e)}</text>`,
    );
  }
  for (let e = 0; e <= 6; e++) {
    parts.push(`<line x1="${PAD.left}" x2="${PLOT_RIGHT}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#eee"/>`);
    parts.push(`<text x="${PAD.left - 6}" y="${y(10 ** e) + 4}" text-anchor="end">$${quantity(10 ** e)}</text>`);
  }
  parts.push(`<text x="${(PAD.left + PLOT_RIGHT) / 2}" y="${HEIGHT - 12}" text-anchor="middle">votes per month</text>`);
  parts.push(
    `<text transform="rotate(-90)" x="${-(HEIGHT - PAD.bottom + PAD.top) / 2}" y="16" text-anchor="middle">` +
      'USD per month</text>',
  );
  return parts;
}

/** The dotted line at this profile's volume, where the plot reaches it. */
function profileMarker(votes: number): string[] {
  if (!(votes >= X_MIN && votes <= X_MAX)) return [];
  return [
    `<line x1="${x(votes)}" x2="${x(votes)}" y1="${PAD.top}" y2="${HEIGHT - PAD.bottom}" ` +
      'stroke="#999" stroke-dasharray="2 2"/>',
    // At the foot of the line, clear of the series, which rise to the right.
    `<text x="${x(votes) + 4}" y="${HEIGHT - PAD.bottom - 6}" fill="#555" ${HALO}>this profile</text>`,
  ];
}

/** How a series is drawn: its colour, dash and weight, and its label in the legend. */
interface Stroke {
  color: string;
  dash: string;
  weight: number;
  label: string;
}

/** A legend row: a swatch drawn as its series is, and the label beside it. */
function legendItem(row: number, { color, dash, weight, label }: Stroke): string[] {
  const ly = PAD.top + 8 + row * 20;
  return [
    `<line x1="${PLOT_RIGHT + 14}" x2="${PLOT_RIGHT + 44}" y1="${ly}" y2="${ly}" stroke="${color}" ` +
      `stroke-width="${weight}" stroke-dasharray="${dash}"/>`,
    `<text x="${PLOT_RIGHT + 50}" y="${ly + 4}" fill="${color}">${escapeHtml(label)}</text>`,
  ];
}

/** Every series: each AWS design (dotted where it is an estimate), then each VPS tier, with its stroke. */
function series(report: CostReport, scaled: TrafficProfile[]): Array<{ costs: number[]; stroke: Stroke }> {
  const { units, options } = report;
  const designs = report.designs.map((design, i) => ({
    costs: scaled.map((profile) => estimate(profile, design.stack, units, options).totalUsd),
    stroke: {
      color: DESIGN_COLORS[i % DESIGN_COLORS.length],
      dash: design.deploy ? '' : '2 3',
      weight: design.deploy ? 2.5 : 1.5,
      label: `AWS: ${design.id}${design.deploy ? '' : ' (estimate)'}`,
    },
  }));
  // The VPS carries what this stack's bill counts: priced once per point, for every tier.
  const stackBills = scaled.map((profile) => estimate(profile, report.stack, units, options));
  const tiers = VPS_TIERS.map((tier, i) => ({
    costs: scaled.map((profile, j) => vpsCost(tier, profile, stackBills[j], report.vpsCapacity).totalUsd),
    stroke: { color: VPS_COLORS[i % VPS_COLORS.length], dash: '6 3', weight: 1.5, label: `VPS: ${tier.name}` },
  }));
  return [...designs, ...tiers];
}

/** The break-even with the baseline VPS, circled on the plot and told in the legend column below `row`. */
function breakEvenMark(report: CostReport, row: number): { plot: string[]; legend: string[] } {
  const even = report.breakEven.find((b) => b.tier === BASELINE_VPS);
  if (!even?.votes || even.votes < X_MIN || even.votes > X_MAX) return { plot: [], legend: [] };
  const circle = 'r="6" fill="none" stroke="#c0392b" stroke-width="2"/>';
  // Its words go in the legend column, where no line or label of the plot runs through them.
  const ly = PAD.top + 8 + (row + 1) * 20;
  const words = ['break-even of this stack', `with ${BASELINE_VPS.name}:`, `${votesLabel(even.votes)} a month`];
  return {
    plot: [`<circle cx="${x(even.votes)}" cy="${y(even.usd!)}" ${circle}`],
    legend: [
      `<circle cx="${PLOT_RIGHT + 29}" cy="${ly}" ${circle}`,
      ...words.map(
        (line, n) => `<text x="${PLOT_RIGHT + 50}" y="${ly + 4 + n * 15}" fill="#c0392b">${escapeHtml(line)}</text>`,
      ),
    ],
  };
}

/**
 * Monthly cost against monthly votes, both on log scales: each AWS design as a line, each VPS
 * tier as steps. It scales to the width it is given (a phone included).
 */
export function renderChart(report: CostReport): string {
  const baseVotes = report.bill.votes;
  const scaled = POINTS.map((votes) => scaleProfile(report.profile, baseVotes > 0 ? votes / baseVotes : 0));
  const lines = series(report, scaled);
  const even = breakEvenMark(report, lines.length);
  return [
    ...frame(report.profile.name),
    ...profileMarker(baseVotes),
    ...lines.map(
      ({ costs, stroke }) =>
        `<path d="${path(costs)}" fill="none" stroke="${stroke.color}" stroke-width="${stroke.weight}" ` +
        `stroke-dasharray="${stroke.dash}"/>`,
    ),
    ...even.plot,
    ...lines.flatMap(({ stroke }, row) => legendItem(row, stroke)),
    ...even.legend,
    '</svg>',
  ].join('\n');
}
