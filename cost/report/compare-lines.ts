/**
 * The cost of a change as a person reads it (npm run cost -- --compare-to): at the terminal as `cdk diff` prints
 * a stack's changes ([+] [-] [~], replacements, IAM first), as a pull request's comment in markdown (a hidden
 * marker first, the verdict above the fold, the detail collapsed, under GitHub's 64 KB), and as JSON.
 */
import { pricesLine } from '../../pricing/book-words';
import type { LineChange, PricedSide, StackComparison } from '../estimate/compare-stacks';
import { functionGbSecondsMoved, ratioText } from '../estimate/compare-stacks';
import { money, quantity, signedIn, signedUsd, usd } from '../estimate/format';
import { conversion, fromUsd } from '../../pricing/exchange-rates';
import { rateLines } from './answer';
import type { ResourceChange } from '../estimate/stack-diff';
import { QUOTAS } from '../../config/aws-quotas';
import { bottleneckName } from '../estimate/capacity';
import { raiseText } from './answer';

/** The hidden first line a workflow finds its own comment by, to update it rather than add another. */
export const COMMENT_MARKER = '<!-- serverless-poll-cost -->';
/** GitHub refuses a comment longer than 65,536 characters: the markdown stays under this, with room to spare. */
export const MAX_COMMENT_CHARS = 60_000;

/**
 * The change in the profile's currency and as a share of the base, the dollars beside where it is another:
 * "+$1.20 (+3.1%)", "+€1.03 (+3.1%, +$1.20)".
 */
function change(old: number, now: number, currency = 'USD'): string {
  const delta = now - old;
  const share = old > 0 ? `${delta >= 0 ? '+' : '−'}${Math.abs((delta / old) * 100).toFixed(1)}%` : '';
  const beside = [share, currency === 'USD' ? '' : signedUsd(delta)].filter(Boolean);
  return `${signedIn(delta, currency)}${beside.length > 0 ? ` (${beside.join(', ')})` : ''}`;
}

/** Where a comparison's rates come from: it has no --detail to give their source. */
const RATES_SOURCE = 'their source in pricing/exchange-rates.json';

const perMillion = (value?: number) => (value === undefined ? 'n/a' : usd(value));

/** Whether it carries the busiest second, what binds first, and what it would take. */
export function verdictText(side: PricedSide): string {
  const { capacity } = side;
  const t = capacity.tightest;
  const tightest = `${t.name} at ${quantity(t.load)} of ${quantity(t.limit)} ${t.unit}`;
  if (capacity.carries) return `carries it (tightest: ${tightest})`;
  const how = capacity.carriesWith;
  const binds = bottleneckName(capacity) ?? t.name;
  if (!how) return `does not carry it (binds: ${binds}; no flag or quota raise makes it)`;
  const flags = Object.entries(how.flags).map(([k, v]) => `-c ${k}=${v}`);
  const raises = how.quotaRaises.map(raiseText);
  return (
    `does not carry it as deployed (binds: ${binds}); carries with ` +
    [...flags, ...(raises.length > 0 ? [`quota raises: ${raises.join(', ')}`] : [])].join('; ')
  );
}

/** The quota raises it needs to carry the busiest second, or "none". */
const raisesText = (side: PricedSide) =>
  side.capacity.carries
    ? 'none'
    : side.capacity.carriesWith?.quotaRaises.map((r) => `${QUOTAS[r.quota].name} → ${quantity(r.to)}`).join(', ') ||
      'none';

function breakEvenText(side: PricedSide): string {
  const { votes, notCarried } = side.breakEven;
  if (votes !== undefined) return `${quantity(votes)} votes a month`;
  return notCarried ? 'none: the box does not carry the month where they would cross' : 'none between 1,000 and 100 B';
}

const BOX = (c: StackComparison) => c.base.breakEven.tier.name;

/** Longer than this, a value is said to have changed, not printed (an encoded blob, a policy's text). */
const MAX_VALUE_CHARS = 60;

/** A property's old or new value as a short scalar; undefined where it is a structure or too long to print. */
const value = (v: unknown) => {
  if (v === undefined) return '(none)';
  const text = typeof v === 'object' ? undefined : JSON.stringify(v).replace(/^"|"$/g, '');
  return text !== undefined && text.length <= MAX_VALUE_CHARS ? text : undefined;
};

/** Lines under the one above, as cdk diff draws them: ├─ each, └─ the last. */
const tree = (items: string[]) => items.map((item, i) => ` ${i === items.length - 1 ? '└─' : '├─'} ${item}`);

/** A resource as cdk diff prints it, with its properties under it. */
function resourceLines(r: ResourceChange): string[] {
  const impact = r.replacedBy
    ? ` destroy (replaced by ${r.replacedBy}: its logical id changed, requires replacement)`
    : r.impact === 'replace'
      ? ' replace'
      : r.impact === 'destroy'
        ? ' destroy'
        : '';
  const stateful = r.stateful && r.impact ? ' [stateful: its data does not carry over]' : '';
  return [
    `[${r.symbol}] ${r.type} ${r.logicalId}${impact}${stateful}`,
    ...tree(
      r.properties.map((p) => {
        const replacement = p.requiresReplacement ? ' (requires replacement)' : '';
        const [from, to] = [value(p.from), value(p.to)];
        return `[~] ${p.name}${replacement}${from !== undefined && to !== undefined ? `: ${from} → ${to}` : ''}`;
      }),
    ),
  ];
}

/** Resources whose replacement or removal loses data: what a reviewer must see before the dollars. */
const risky = (c: StackComparison) => c.resources.filter((r) => r.stateful && r.impact);

const moved = (c: StackComparison) => c.lines.filter((l) => l.moved);
const unchanged = (c: StackComparison) => c.lines.filter((l) => !l.moved);
const movesNoDollar = (c: StackComparison) => moved(c).every((l) => Math.abs(l.deltaUsd) < 0.005);

/** Nothing to say: no line moved and no resource changed. */
export const nothingChanged = (c: StackComparison) => moved(c).length === 0 && c.resources.length === 0;

/** A moved line's figures by function, where it is Lambda's GB-seconds. */
function functionLines(c: StackComparison, line: LineChange): string[] {
  if (!line.priceId.endsWith('GbSeconds')) return [];
  return functionGbSecondsMoved(c).map(
    (f) => `${f.logicalId} ${quantity(f.old)} → ${quantity(f.new)} GB-s ${ratioText(f.old, f.new)}`,
  );
}

const lineName = (l: LineChange) => `${l.service} ${l.item}`;
const linesCount = (lines: LineChange[]) => `${lines.length} line${lines.length === 1 ? '' : 's'}`;

/** The headline: the month before and after, its change, per million votes. */
function headline(c: StackComparison): string {
  const { total, perMillionVotes } = c;
  const cur = c.profile.currency;
  return (
    `${money(total.old, cur)} → ${money(total.new, cur)} a month, ${change(total.old, total.new, cur)}; ` +
    `per million votes ${perMillion(perMillionVotes.old)} → ${perMillion(perMillionVotes.new)}`
  );
}

const noDollarText = (c: StackComparison) =>
  `This change moves no dollar: ${money(c.total.new, c.profile.currency)} a month either way for the ` +
  `${c.profile.name} profile.`;

/** The terminal's view: cdk diff's shape, with the dollars. */
export function renderCompareText(c: StackComparison): string {
  const out: string[] = [
    `The cost of the change for the ${c.profile.name} profile (${quantity(c.head.bill.votes)} votes a month)`,
    `  ${pricesLine(c.head.book)}`,
    ...rateLines(c, { pointer: RATES_SOURCE }).map((line) => `  ${line}`),
    `  base ${c.base.source}${c.base.design ? ` (${c.base.design})` : ''}`,
    `  head ${c.head.source}${c.head.design ? ` (${c.head.design})` : ''}`,
    '',
    movesNoDollar(c) ? noDollarText(c) : `Monthly bill: ${headline(c)}`,
  ];
  if (c.iam.length > 0) {
    out.push('', 'IAM Statement Changes (broadened)');
    for (const g of c.iam) out.push(`[+] ${g.type} ${g.logicalId}: ${g.grant}${g.wildcard ? ' (wildcard)' : ''}`);
  }
  if (risky(c).length > 0) {
    out.push('', 'Stateful resources replaced or destroyed');
    for (const r of risky(c)) out.push(...resourceLines(r));
  }
  if (c.notPricedAdded.length > 0) {
    out.push('', 'Not priced (added; the total leaves them out)');
    for (const n of c.notPricedAdded) out.push(`[+] not priced: ${n.type} ${n.logicalId}: ${n.why}`);
  }
  out.push('', 'Bill lines');
  for (const l of moved(c)) {
    out.push(`[~] ${lineName(l)}: ${usd(l.old.usd)} → ${usd(l.new.usd)} ${signedUsd(l.deltaUsd)}`);
    out.push(...tree([...l.reasons, ...functionLines(c, l)]));
  }
  const same = unchanged(c);
  out.push(`    ${linesCount(same)} unchanged (${usd(same.reduce((sum, l) => sum + l.new.usd, 0))})`);
  out.push('', `Busiest second (${quantity(c.peak.requestsPerSecond)} requests/s)`);
  out.push(`  before: ${verdictText(c.base)}`, `  after:  ${verdictText(c.head)}`);
  out.push('', `Break-even with the ${BOX(c)}: ${breakEvenText(c.base)} → ${breakEvenText(c.head)}`);
  if (c.resources.length > 0) {
    out.push('', 'Resources');
    for (const r of c.resources) out.push(...resourceLines(r));
  }
  for (const side of [c.base, c.head])
    for (const m of side.reading.missing)
      out.push('', `${side === c.base ? 'base' : 'head'} has ${m.part}: priced as ${m.pricedAs}`);
  return out.join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The pull request's comment: the verdict above the fold, the rest collapsed; under MAX_COMMENT_CHARS. */
export function renderCompareMarkdown(c: StackComparison): string {
  const cur = c.profile.currency;
  const title = `### Cost of this change, ${c.profile.name} profile: ${
    movesNoDollar(c) ? 'no dollar moves' : `${change(c.total.old, c.total.new, cur)} a month`
  }`;
  const above: string[] = [
    COMMENT_MARKER,
    title,
    '',
    `_${pricesLine(c.head.book)}_`,
    ...rateLines(c, { pointer: RATES_SOURCE }).flatMap((line) => ['', `_${line}_`]),
    '',
    movesNoDollar(c)
      ? noDollarText(c)
      : `**${money(c.total.old, cur)} → ${money(c.total.new, cur)}** a month for the **${c.profile.name}** profile ` +
        `(${quantity(c.head.bill.votes)} votes a month); per million votes ` +
        `${perMillion(c.perMillionVotes.old)} → ${perMillion(c.perMillionVotes.new)}.`,
    '',
    '| | before | after |',
    '|---|---|---|',
    `| Busiest second (${quantity(c.peak.requestsPerSecond)} requests/s) | ${cell(verdictText(c.base))} | ` +
      `${cell(verdictText(c.head))} |`,
    `| Quota raises it needs | ${cell(raisesText(c.base))} | ${cell(raisesText(c.head))} |`,
    `| Break-even with the ${BOX(c)} | ${breakEvenText(c.base)} | ${breakEvenText(c.head)} |`,
  ];
  if (c.notPricedAdded.length > 0)
    above.push(
      '',
      `**Not priced** (the total leaves them out): ${c.notPricedAdded
        .map((n) => `\`${n.type} ${n.logicalId}\``)
        .join(', ')}.`,
    );
  if (risky(c).length > 0)
    above.push(
      '',
      `**Stateful resources replaced or destroyed** (their data does not carry over): ${risky(c)
        .map((r) => `\`${r.type} ${r.logicalId}\``)
        .join(', ')}.`,
    );
  if (c.iam.length > 0)
    above.push('', `**IAM broadened:** ${c.iam.map((g) => `\`${g.logicalId}\`: ${cell(g.grant)}`).join('; ')}.`);
  for (const side of [c.base, c.head])
    for (const m of side.reading.missing)
      above.push('', `The ${side === c.base ? 'base' : 'head'} has ${m.part}: priced as ${m.pricedAs}.`);

  const same = unchanged(c);
  const table = [
    '| Line | Before | After | Change | Why |',
    '|---|---:|---:|---:|---|',
    ...moved(c).map(
      (l) =>
        `| ${lineName(l)} | ${usd(l.old.usd)} | ${usd(l.new.usd)} | ${signedUsd(l.deltaUsd)} | ` +
        `${cell([...l.reasons, ...functionLines(c, l)].join('; '))} |`,
    ),
  ];
  const lines = [
    ...(moved(c).length > 0 ? table : ['No line moved.']),
    '',
    `${linesCount(same)} unchanged: ${same.map((l) => `${lineName(l)} ${usd(l.new.usd)}`).join(', ')}.`,
  ];
  const details = (summary: string, body: string[]) => [
    '',
    '<details>',
    `<summary>${summary}</summary>`,
    '',
    ...body,
    '',
    '</details>',
  ];
  const counts = (symbol: string) => c.resources.filter((r) => r.symbol === symbol).length;
  const resources = ['```diff', ...c.resources.flatMap(resourceLines).map(diffLine), '```'];
  const sources = [`Base: \`${c.base.source}\``, '', `Head: \`${c.head.source}\``];
  const body = [
    ...above,
    ...details(`Bill lines: ${moved(c).length} moved, ${same.length} unchanged`, lines),
    ...(c.resources.length > 0
      ? details(`Resources: ${counts('+')} added, ${counts('-')} removed, ${counts('~')} changed`, resources)
      : []),
    ...details('Templates compared', sources),
    '',
  ].join('\n');
  return body.length <= MAX_COMMENT_CHARS
    ? body
    : `${body.slice(0, MAX_COMMENT_CHARS - 200)}\n\n</details>\n\n(cut at ${MAX_COMMENT_CHARS} characters: ` +
        'the job summary has it all)\n';
}

/** A cdk diff line as a ```diff block colours it: added green, removed red. */
const diffLine = (line: string) =>
  line.startsWith('[+]') ? `+ ${line}` : line.startsWith('[-]') ? `- ${line}` : `  ${line}`;

/** For machines: each line old, new and delta, the total, the verdicts, what changed. */
export function compareJson(c: StackComparison) {
  const side = (s: PricedSide) => ({
    source: s.source,
    design: s.design ?? null,
    totalUsd: s.bill.totalUsd,
    usdPerMillionVotes: s.bill.usdPerMillionVotes ?? null,
    carries: s.capacity.carries,
    bottleneck: s.capacity.bottleneck,
    tightest: s.capacity.tightest.name,
    quotaRaises: s.capacity.carriesWith?.quotaRaises ?? [],
    breakEvenVotes: s.breakEven.votes ?? null,
    notPriced: s.reading.notPriced,
    missing: s.reading.missing,
  });
  const { region, currency, published } = c.head.book;
  const shown = c.profile.currency;
  const local = (usdAmount: number) => fromUsd(usdAmount, shown!);
  return {
    profile: c.profile.name,
    prices: { region, currency, published },
    base: side(c.base),
    head: side(c.head),
    total: { old: c.total.old, new: c.total.new, delta: c.total.deltaUsd },
    // The totals in the profile's currency too, with the rate they were converted at; the rest stays in dollars.
    ...(shown &&
      shown !== 'USD' && {
        inCurrency: {
          ...conversion(shown),
          total: { old: local(c.total.old), new: local(c.total.new), delta: local(c.total.deltaUsd) },
        },
      }),
    lines: c.lines.map((l) => ({
      priceId: l.priceId,
      line: lineName(l),
      unit: l.unit,
      old: l.old.usd,
      new: l.new.usd,
      delta: l.deltaUsd,
      oldUsage: l.old.usage,
      newUsage: l.new.usage,
      reasons: l.reasons,
    })),
    notPricedAdded: c.notPricedAdded,
    resources: c.resources.map(({ symbol, type, logicalId, impact, stateful, replacedBy, properties }) => ({
      symbol,
      type,
      logicalId,
      impact: impact ?? null,
      stateful,
      replacedBy: replacedBy ?? null,
      properties: properties.map((p) => ({ name: p.name, requiresReplacement: p.requiresReplacement })),
    })),
    iamBroadened: c.iam,
    settings: c.settings.map((s) => s.text),
  };
}
