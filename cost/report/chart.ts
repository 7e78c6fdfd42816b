/**
 * The report's chart: monthly cost against monthly votes, both on log scales, each AWS design as a
 * line (grey and dashed where it stops carrying the peak) and each VPS tier as a line that ends where
 * one box stops carrying it, as one SVG drawn for the width it is given: the legend to the right
 * on a wide screen, below on a phone, its text never under 12 px. Each series takes focus (Tab), and
 * shows its bottleneck and its own break-even on hover or focus; the key facts are also in words.
 */
import { wrapLines } from '../../node/wrap';
import { scaleProfile, volumeScale, vpsCost } from '../estimate/compare';
import { bottleneckName, carriesInTime } from '../estimate/capacity';
import { designCapacity } from '../estimate/designs';
import { escapeHtml, usd, votesLabel } from '../estimate/format';
import { estimate } from '../estimate/model';
import type { Bill } from '../estimate/bill';
import { derivePeak } from '../usage/peaks';
import type { TrafficProfile } from '../usage/traffic-profile';
import type { CostReport } from '../estimate/build-report';
import type { StackConfig } from '../estimate/stack-config';
import type { VpsTier } from '../estimate/vps-tiers';

/** Okabe–Ito colours (safe for colour-blind readers), each family with its own dashes as well. */
const DESIGN_STYLES: Record<string, { color: string; dash: string }> = {
  'function-url': { color: '#0072B2', dash: '' },
  cloudfront: { color: '#009E73', dash: '' },
  api: { color: '#56B4E9', dash: '' },
  'api-rest': { color: '#000000', dash: '' },
  websocket: { color: '#666666', dash: '1 3' },
};
const VPS_STYLES = [
  { color: '#D55E00', dash: '9 4' },
  { color: '#E69F00', dash: '3 3' },
  { color: '#CC79A7', dash: '12 3 3 3' },
  { color: '#8C510A', dash: '6 2 1 2' },
  { color: '#7F7F7F', dash: '2 6' },
];
/** Where a design stops carrying the peak: its own colour, dashed and faded. */
const NOT_CARRYING = { dash: '5 4', opacity: 0.45 };
const EVEN_COLOR = '#D55E00';
/** Text over the lines: a white halo keeps it readable where it crosses one. */
const HALO = 'stroke="#fff" stroke-width="4" stroke-linejoin="round" paint-order="stroke"';
/** Hidden until its series is hovered or focused. */
const STYLE =
  '.on-focus{visibility:hidden}.series:hover .on-focus,.series:focus .on-focus{visibility:visible}' +
  '.series:focus{outline:none}.series:focus .line,.series:hover .line{stroke-width:4}';

const X_MAX = 1e10;
const [Y_MIN, Y_MAX] = [1, 1e6];
/**
 * The volumes each series is priced at: ten a decade, from 10,000 votes a month (or the decade of a
 * smaller profile, so its marker is on the plot) to X_MAX.
 */
function pointsFor(votes: number): number[] {
  const from = votes > 0 && votes < 1e4 ? Math.max(1, Math.floor(Math.log10(votes))) : 4;
  return Array.from({ length: (10 - from) * 10 + 1 }, (_, i) => 10 ** (from + i / 10));
}
/** Tiers whose months stay within this ratio of each other would overlap on the plot: one series. */
const COINCIDE = 1.4;

/** How a series is drawn, and what it says of itself. */
export interface ChartSeries {
  kind: 'design' | 'vps';
  /** The design's id, or the tiers' names joined. */
  id: string;
  label: string;
  color: string;
  dash: string;
  /** Monthly cost at each of the chart's points; null where it is not drawn (a VPS past what one box carries). */
  costs: Array<number | null>;
  /** The other tiers of a group, drawn as the first is. */
  alike?: Array<Array<number | null>>;
  /** Whether it carries the peak at each point (designs: as deployed; an estimate: always drawn as one). */
  carries: boolean[];
  /** Why it stops carrying, at the first point it does not. */
  bottleneck?: string;
  /** The last volume it carries, when it stops within the plot. */
  carriesUpTo?: number;
  /** The recommended design's one break-even, with the verdict's VPS box (`with`), when within the plot. */
  breakEven?: { votes: number; usd: number; with: string };
  recommended?: boolean;
  /** Its month at the profile's own volume. */
  atProfile?: number;
}

/** What the chart shows for a report, computed once: drawn again at any width without the model. */
export interface ChartData {
  profileName: string;
  votes: number;
  /** The volumes the series are priced at, least first: the plot's range. */
  points: number[];
  series: ChartSeries[];
  facts: string[];
}

const inPlot = (votes: number | undefined, points: number[]) =>
  votes !== undefined && votes >= points[0] && votes <= X_MAX;

/** The chart's volumes, each as a profile, and a stack's bills at them: made once a stack (the VPS reuses one). */
interface Volumes {
  points: number[];
  scaled: TrafficProfile[];
  billsOf: (stack: StackConfig) => Bill[];
}

/**
 * Whether a design carries the peak at each of `count` volumes. Each route of a derived peak grows with
 * volume, and so does every stage's load: a design that stops carrying does not carry again, and halving
 * finds where it stops in about log2(count) verdicts (test/unit/cost/report/chart.test.ts checks it at every
 * volume). A peak pinned by peakRequestsPerSecond shifts between routes as volume grows: each is asked.
 */
function carriesAlong(carriesAt: (i: number) => boolean, count: number, pinned: boolean): boolean[] {
  if (pinned) return Array.from({ length: count }, (_, i) => carriesAt(i));
  let [low, high] = [0, count];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (carriesAt(mid)) low = mid + 1;
    else high = mid;
  }
  return Array.from({ length: count }, (_, i) => i < low);
}

/** Each design at every volume: its month, and its verdict on that volume's peak, as the report gives it. */
function designSeries(report: CostReport, volumes: Volumes): ChartSeries[] {
  const { units, account } = report;
  const { scaled, points } = volumes;
  return report.designs.map((design) => {
    const costs = volumes.billsOf(design.stack).map((bill) => bill.totalUsd);
    const verdict = (i: number) =>
      designCapacity(design, report.designStacks[design.id], derivePeak(scaled[i]), units, {
        account,
        profile: scaled[i],
      });
    // As the recommendation counts it: with the flags and quota raises that make it carry, in time.
    const pinned = report.profile.peakRequestsPerSecond !== undefined;
    const carriesAt = (i: number) => carriesInTime(verdict(i));
    const carries = design.deploy ? carriesAlong(carriesAt, points.length, pinned) : points.map(() => true);
    const firstOver = carries.indexOf(false);
    // The report's one break-even: the recommended design's, with the box its verdict names.
    const even: { votes?: number; usd?: number } = design.id === report.recommended.id ? report.answer.breakEven : {};
    return {
      kind: 'design' as const,
      id: design.id,
      label: `AWS: ${design.id}${design.deploy ? '' : ' (estimate)'}`,
      ...(DESIGN_STYLES[design.id] ?? DESIGN_STYLES.websocket),
      costs,
      carries,
      bottleneck: firstOver >= 0 ? bottleneckName(verdict(firstOver)) : undefined,
      carriesUpTo: firstOver > 0 ? points[firstOver - 1] : undefined,
      breakEven:
        even.votes && inPlot(even.votes, points)
          ? { votes: even.votes, usd: even.usd!, with: report.answer.vps.name }
          : undefined,
      recommended: design.id === report.recommended.id,
      atProfile: design.bill.totalUsd,
    };
  });
}

/** Each VPS tier weighed (the market's) while one box carries the peak; tiers that would overlap are one series. */
function vpsSeries(report: CostReport, volumes: Volumes): ChartSeries[] {
  const { scaled, points } = volumes;
  const bills = volumes.billsOf(report.stack);
  const priced = report.offers.tiers.map((tier) => {
    const rows = scaled.map((profile, i) => vpsCost(tier, profile, bills[i], report.vpsCapacity));
    return { tier, costs: rows.map((r) => (r.carries ? r.totalUsd : null)), carries: rows.map((r) => r.carries) };
  });
  const groups: Array<typeof priced> = [];
  for (const row of priced) {
    const near = groups.find((g) =>
      row.costs.every((c, i) => c === null || Math.max(c, g[0].costs[i]!) / Math.min(c, g[0].costs[i]!) < COINCIDE),
    );
    if (near) near.push(row);
    else groups.push([row]);
  }
  return groups.map((group, i) => {
    const firstOver = group[0].carries.indexOf(false);
    return {
      kind: 'vps' as const,
      id: group.map((g) => g.tier.name).join(' · '),
      label: group[0].costs.every((c) => c === null)
        ? 'VPS: no tier carries this peak at any volume (one box; polls are not sharded across boxes)'
        : `VPS: ${group.map((g) => shortTier(g.tier)).join(' · ')}`,
      ...VPS_STYLES[i % VPS_STYLES.length],
      costs: group[0].costs,
      alike: group.slice(1).map((g) => g.costs),
      carries: group[0].carries,
      bottleneck: firstOver >= 0 ? 'one box of the VPS edition (polls are not sharded across boxes)' : undefined,
      carriesUpTo: firstOver > 0 ? points[firstOver - 1] : undefined,
    };
  });
}

/** A tier's name without the box's details: "DO $12", "Seed’s $15 VPS". */
const shortTier = (tier: VpsTier) => tier.name.replace(/ \(.*\)$/, '');

/** Where a series carries the peak, in words: the whole plot, up to a volume, or none of it. */
function carryingText(s: ChartSeries): string {
  if (s.carriesUpTo) return `stops carrying above ~${votesLabel(s.carriesUpTo)}: ${s.bottleneck}`;
  return s.bottleneck ? `carries no volume of the plot: ${s.bottleneck}` : 'carries the whole plot';
}

/** What the VPS lines say together: where each stops carrying, as one box serves every poll. */
function vpsFact(series: ChartSeries[]): string {
  const vps = series.filter((s) => s.kind === 'vps');
  const stops = vps
    .filter((s) => s.carriesUpTo)
    .map((s) => `${s.label.replace(/^VPS: /, '')} above ~${votesLabel(s.carriesUpTo!)}`);
  if (stops.length > 0)
    return `VPS tiers stop carrying where one box no longer does (polls are not sharded): ${stops.join('; ')} a month.`;
  return vps.some((s) => s.bottleneck)
    ? 'No VPS tier carries the peak at any volume of the plot: one box serves every poll, and polls are not sharded.'
    : 'Every VPS tier carries the whole plot on one box.';
}

/** The chart's key facts in words: its text alternative. */
function factsOf(report: CostReport, series: ChartSeries[]): string[] {
  const designs = series.filter((s) => s.kind === 'design');
  const recommended = designs.find((s) => s.recommended);
  return [
    `This profile: ${votesLabel(report.bill.votes)} a month; recommended: ${report.recommended.name}, ` +
      `${usd(report.recommended.bill.totalUsd)} a month.`,
    ...designs.map(
      (s) =>
        [
          `${s.label}: ${usd(s.atProfile!)} at this profile`,
          ...(s.breakEven ? [`break-even with ${s.breakEven.with} at ${votesLabel(s.breakEven.votes)} a month`] : []),
          ...(s.bottleneck ? [carryingText(s)] : []),
        ].join('; ') +
        (s === recommended ? ' (recommended)' : '') +
        '.',
    ),
    vpsFact(series),
  ];
}

/** The chart's series and facts for a report: the model's work, done once. */
export function chartData(report: CostReport): ChartData {
  const votes = report.bill.votes;
  const points = pointsFor(votes);
  const scaled = points.map((v) => scaleProfile(report.profile, volumeScale(v, votes)));
  const bills = new Map<StackConfig, Bill[]>();
  const billsOf = (stack: StackConfig) => {
    if (!bills.has(stack))
      bills.set(
        stack,
        scaled.map((p) => estimate(p, stack, report.units, report.options)),
      );
    return bills.get(stack)!;
  };
  const volumes = { points, scaled, billsOf };
  const series = [...designSeries(report, volumes), ...vpsSeries(report, volumes)];
  return { profileName: report.profile.name, votes, points, series, facts: factsOf(report, series) };
}

/** Where things go at a width: the legend to the right when wide, below when not. */
function layoutFor(width: number, legendRows: number, xMin: number) {
  const wide = width >= 640;
  const pad = wide ? { left: 56, right: 250, top: 50, bottom: 50 } : { left: 46, right: 16, top: 60, bottom: 46 };
  const plotBottom = wide ? 470 - pad.bottom : pad.top + Math.round(Math.min(width * 0.9, 340));
  const height = wide ? 470 : plotBottom + pad.bottom + legendRows * 18 + 10;
  const plotRight = width - pad.right;
  const x = (votes: number) =>
    pad.left +
    ((Math.log10(votes) - Math.log10(xMin)) / (Math.log10(X_MAX) - Math.log10(xMin))) * (plotRight - pad.left);
  // Not clamped to the frame: the plot's clip ends a line there rather than drawing it flat along it. A month
  // past any number (a tiny profile scaled a trillion-fold) is drawn far above it, so clipped too.
  const y = (usdValue: number) =>
    plotBottom -
    ((Math.log10(Number.isFinite(usdValue) ? Math.max(usdValue, 1e-3) : Y_MAX * 1e3) - Math.log10(Y_MIN)) /
      (Math.log10(Y_MAX) - Math.log10(Y_MIN))) *
      (plotBottom - pad.top);
  const legend = wide
    ? { x: plotRight + 14, y: pad.top + 8, chars: 30 }
    : { x: 10, y: plotBottom + pad.bottom + 6, chars: Math.floor((width - pad.left) / 7) };
  return { wide, width, height, pad, plotRight, plotBottom, x, y, legend, xMin };
}
type Layout = ReturnType<typeof layoutFor>;

const f = (n: number) => n.toFixed(1);
/** An axis label short enough for a phone: 10k, 1M, 10B. */
const compact = (n: number) =>
  n >= 1e9 ? `${n / 1e9}B` : n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n);

/** The SVG's opening, its title and description, the grid with its labels, and the axes' names. */
function frame(l: Layout, data: ChartData): string[] {
  const title = `Monthly cost against monthly votes: profile “${escapeHtml(data.profileName)}”, scaled`;
  const titleLines = l.wide
    ? [title]
    : ['Monthly cost against monthly votes:', `profile “${escapeHtml(data.profileName)}”, scaled`];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${l.width} ${l.height}" width="100%" ` +
      `style="max-width:${l.width}px;height:auto" role="group" aria-labelledby="chart-title" ` +
      'aria-describedby="chart-desc" font-family="system-ui, sans-serif" font-size="12">',
    `<desc id="chart-desc">${data.facts.map(escapeHtml).join(' ')}</desc>`,
    `<style>${STYLE}</style>`,
    `<clipPath id="plot-clip"><rect x="${l.pad.left}" y="${l.pad.top}" width="${l.plotRight - l.pad.left}" ` +
      `height="${l.plotBottom - l.pad.top}"/></clipPath>`,
    `<rect width="${l.width}" height="${l.height}" fill="#fff"/>`,
    `<text id="chart-title" x="${l.wide ? l.pad.left : 8}" y="22" font-size="${l.wide ? 16 : 14}" font-weight="bold">` +
      titleLines.map((line, i) => `<tspan x="${l.wide ? l.pad.left : 8}" dy="${i ? 17 : 0}">${line}</tspan>`).join('') +
      '</text>',
  ];
  // On a phone every other decade is labelled: the labels would touch.
  for (let e = Math.log10(l.xMin); e <= 10; e++) {
    const gx = f(l.x(10 ** e));
    parts.push(`<line x1="${gx}" x2="${gx}" y1="${l.pad.top}" y2="${l.plotBottom}" stroke="#eee"/>`);
    if (l.wide || e % 2 === 0)
      parts.push(`<text x="${gx}" y="${l.plotBottom + 16}" text-anchor="middle">${compact(10 ** e)}</text>`);
  }
  for (let e = 0; e <= 6; e++) {
    const gy = f(l.y(10 ** e));
    parts.push(`<line x1="${l.pad.left}" x2="${l.plotRight}" y1="${gy}" y2="${gy}" stroke="#eee"/>`);
    parts.push(`<text x="${l.pad.left - 5}" y="${f(l.y(10 ** e) + 4)}" text-anchor="end">$${compact(10 ** e)}</text>`);
  }
  parts.push(
    `<rect x="${l.pad.left}" y="${l.pad.top}" width="${l.plotRight - l.pad.left}" ` +
      `height="${l.plotBottom - l.pad.top}" fill="none" stroke="#ccc"/>`,
    `<text x="${(l.pad.left + l.plotRight) / 2}" y="${l.plotBottom + 34}" text-anchor="middle">votes per month</text>`,
    // On a phone the axis's name goes above it: turned, it would run into the dollar labels.
    l.wide
      ? `<text transform="rotate(-90)" x="${-(l.plotBottom + l.pad.top) / 2}" y="14" text-anchor="middle">` +
          'USD per month</text>'
      : `<text x="8" y="${l.pad.top - 8}">USD per month</text>`,
  );
  return parts;
}

/** A path through the points where `keep` holds, broken where it does not. */
function pathOf(l: Layout, points: number[], costs: Array<number | null>, keep: (i: number) => boolean): string {
  let d = '';
  let open = false;
  costs.forEach((cost, i) => {
    if (cost === null || !keep(i)) {
      open = false;
      return;
    }
    d += `${open ? 'L' : 'M'}${f(l.x(points[i]))},${f(l.y(cost))} `;
    open = true;
  });
  return d.trim();
}

/** What a series says on hover or focus: drawn at the top of the plot, hidden until then. */
function detailOf(s: ChartSeries): string {
  const parts = [
    carryingText(s),
    ...(s.breakEven ? [`break-even with ${s.breakEven.with}: ${votesLabel(s.breakEven.votes)}`] : []),
  ];
  return `${s.label.replace(/^(AWS|VPS): /, '')}: ${parts.join('; ')}`;
}

/** One series as a focusable group: its lines, its break-even and its words on hover or focus. */
function seriesGroup(l: Layout, s: ChartSeries, points: number[]): string {
  const detail = detailOf(s);
  const weight = s.kind === 'design' ? 2.5 : 2;
  const line = (d: string, dash: string, opacity = 1) =>
    d
      ? `<path class="line" d="${d}" fill="none" stroke="${s.color}" stroke-width="${weight}" ` +
        `stroke-dasharray="${dash}" opacity="${opacity}"/>`
      : '';
  const even = s.breakEven
    ? `<circle class="${s.recommended ? '' : 'on-focus'}" cx="${f(l.x(s.breakEven.votes))}" ` +
      `cy="${f(l.y(s.breakEven.usd))}" r="6" fill="none" stroke="${EVEN_COLOR}" stroke-width="2"/>`
    : '';
  const lines = wrapLines(detail, Math.floor((l.plotRight - l.pad.left - 12) / 6.6), '');
  const boxHeight = lines.length * 15 + 8;
  return [
    `<g class="series" tabindex="0" role="img" data-series="${escapeHtml(s.id)}" aria-label="${escapeHtml(detail)}">`,
    `<title>${escapeHtml(detail)}</title>`,
    '<g clip-path="url(#plot-clip)">',
    ...[s.costs, ...(s.alike ?? [])].map((costs) =>
      line(
        pathOf(l, points, costs, (i) => s.carries[i]),
        s.dash,
      ),
    ),
    line(
      pathOf(l, points, s.costs, (i) => !s.carries[i] || s.carries[i + 1] === false),
      NOT_CARRYING.dash,
      NOT_CARRYING.opacity,
    ),
    even,
    '</g>',
    `<g class="on-focus"><rect x="${l.pad.left + 4}" y="${l.pad.top + 4}" width="${l.plotRight - l.pad.left - 8}" ` +
      `height="${boxHeight}" fill="#fff" stroke="${s.color}" opacity="0.95"/>`,
    ...lines.map((t, n) => `<text x="${l.pad.left + 10}" y="${l.pad.top + 19 + n * 15}">${escapeHtml(t)}</text>`),
    '</g>',
    '</g>',
  ].join('');
}

/** The profile's volume: a dotted line down the plot, and a dot on each design's line at its month. */
function profileMarker(l: Layout, data: ChartData): string[] {
  if (!inPlot(data.votes, data.points)) return [];
  const mx = f(l.x(data.votes));
  const dots = data.series
    .filter((s) => s.atProfile !== undefined)
    .map((s) => `<circle cx="${mx}" cy="${f(l.y(s.atProfile!))}" r="3.5" fill="${s.color}" stroke="#fff"/>`);
  // Right of the line when there is room, else left of it: never across it.
  const right = l.x(data.votes) < l.plotRight - 110;
  return [
    `<g id="profile-marker" data-votes="${data.votes}" clip-path="url(#plot-clip)">`,
    `<line x1="${mx}" x2="${mx}" y1="${l.pad.top}" y2="${l.plotBottom}" stroke="#555" stroke-dasharray="2 2"/>`,
    ...dots,
    `<text x="${f(l.x(data.votes) + (right ? 5 : -5))}" y="${l.plotBottom - 6}" ` +
      `text-anchor="${right ? 'start' : 'end'}" ` +
      `fill="#333" ${HALO}>this profile</text>`,
    '</g>',
  ];
}

/** A legend entry: its swatch's colour and dash ('circle': the break-even's ring), and its words. */
type LegendEntry = [color: string, dash: string, text: string];

/** A legend row: a swatch drawn as its series is, and its label (wrapped); returns the rows it takes. */
function legendItem(l: Layout, row: number, [color, dash, text]: LegendEntry): { svg: string; rows: number } {
  const ly = l.legend.y + row * 18;
  const lines = wrapLines(text, l.legend.chars - 6, '');
  const swatch =
    dash === 'circle'
      ? `<circle cx="${l.legend.x + 15}" cy="${ly}" r="6" fill="none" stroke="${color}" stroke-width="2"/>`
      : `<line x1="${l.legend.x}" x2="${l.legend.x + 30}" y1="${ly}" y2="${ly}" stroke="${color}" ` +
        `stroke-width="2.5" stroke-dasharray="${dash}"/>`;
  return {
    svg:
      swatch +
      lines.map((t, n) => `<text x="${l.legend.x + 36}" y="${ly + 4 + n * 15}">${escapeHtml(t)}</text>`).join(''),
    rows: lines.length,
  };
}

/** The legend's entries: every series, the grey of a design past its capacity, the break-even marked. */
function legendEntries(data: ChartData): LegendEntry[] {
  const recommended = data.series.find((s) => s.recommended && s.breakEven);
  const even: LegendEntry[] = recommended
    ? [
        [
          EVEN_COLOR,
          'circle',
          `break-even of ${recommended.id} (recommended) with ${recommended.breakEven!.with}: ` +
            votesLabel(recommended.breakEven!.votes),
        ],
      ]
    : [];
  return [
    ...data.series.map((s): LegendEntry => [s.color, s.dash, s.label]),
    ['#666', NOT_CARRYING.dash, 'faded: past what it can carry, even with flags and quota raises (hover or Tab: why)'],
    ...even,
  ];
}

function legend(l: Layout, data: ChartData): string[] {
  let row = 0;
  return legendEntries(data).map((entry) => {
    const item = legendItem(l, row, entry);
    row += item.rows;
    return item.svg;
  });
}

/** Rows the legend takes at a width (a narrow legend wraps more). */
const legendRows = (data: ChartData, chars: number) =>
  legendEntries(data).reduce((rows, [, , text]) => rows + wrapLines(text, chars - 6, '').length, 0);

/** The chart of `data` at `width` px (the static report's: 820). */
export function drawChart(data: ChartData, width = 820): string {
  const w = Math.max(300, Math.round(width));
  const rows = legendRows(data, Math.floor((w - 50) / 7));
  const l = layoutFor(w, rows, data.points[0]);
  const recommended = data.series.find((s) => s.recommended && s.breakEven);
  const evenLabel = recommended
    ? [
        `<text x="${f(l.x(recommended.breakEven!.votes) + 9)}" y="${f(l.y(recommended.breakEven!.usd) + 18)}" ` +
          `fill="${EVEN_COLOR}" ${HALO}>break-even</text>`,
      ]
    : [];
  return [
    ...frame(l, data),
    ...profileMarker(l, data),
    ...data.series.map((s) => seriesGroup(l, s, data.points)),
    ...evenLabel,
    ...legend(l, data),
    '</svg>',
  ].join('\n');
}

/** Monthly cost against monthly votes for a report, drawn `width` px wide. */
export const renderChart = (report: CostReport, width?: number): string => drawChart(chartData(report), width);
