/**
 * What a new book changes against the one it replaces, line by line, as `cdk diff` shows a stack's:
 * `[~] httpApiRequests  $1.00 → $1.16 per 1M requests (tier 1)`, `[+]` a line or tier that is new, `[-]` one that
 * is gone, `[=]` a line kept as it was (and why), or one whose price is the same but now read from the Price List
 * rather than copied from a pricing page; lines with nothing to say are counted.
 */
import type { BookFile, BookLine, Tier } from './price-book';
import { PRICE_IDS, PRICE_LINES, type PriceId } from './price-lines';
import type { KeptLines } from './book-update';

/** A price as the diff shows it: at least cents, and every digit the book has. */
export function dollars(price: number): string {
  const [whole, fraction = ''] = price.toFixed(10).replace(/0+$/, '').split('.');
  return `$${whole}.${fraction.padEnd(2, '0')}`;
}

/** A tier's end in raw units; the last tier has none. */
const end = (units: number | undefined) => (units === undefined ? 'none' : units.toLocaleString('en-US'));

/** Tiers in one phrase: `$1.00 per 1M requests up to 300,000,000, then $0.90`. */
export function tiersText(id: PriceId, tiers: Tier[]): string {
  const [first, ...rest] = tiers;
  const upTo = (tier: Tier) => (tier.upTo === undefined ? '' : ` up to ${end(tier.upTo)}`);
  return [
    `${dollars(first.price)} per ${PRICE_LINES[id].unit}${upTo(first)}`,
    ...rest.map((tier) => `${dollars(tier.price)}${upTo(tier)}`),
  ].join(', then ');
}

/** The tier by tier changes of one line. */
function tierChanges(id: PriceId, before: Tier[], after: Tier[]): string[] {
  const tiered = before.length > 1 || after.length > 1;
  const label = (i: number) => (tiered ? ` (tier ${i + 1})` : '');
  const unit = PRICE_LINES[id].unit;
  const changes: string[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const [was, is] = [before[i], after[i]];
    if (!is) changes.push(`[-] ${id}  ${dollars(was.price)} per ${unit}${label(i)}: gone`);
    else if (!was) changes.push(`[+] ${id}  ${tiersText(id, [is])}${label(i)}`);
    else {
      if (was.price !== is.price)
        changes.push(`[~] ${id}  ${dollars(was.price)} → ${dollars(is.price)} per ${unit}${label(i)}`);
      if (was.upTo !== is.upTo) changes.push(`[~] ${id}  up to ${end(was.upTo)} → ${end(is.upTo)}${label(i)}`);
    }
  }
  return changes;
}

const sameTiers = (a: Tier[], b: Tier[]) => JSON.stringify(a) === JSON.stringify(b);
const fromPage = (line: BookLine) => typeof line.source === 'string';

/** Each line's change, the kept lines with why, then what had nothing to say, counted. */
export function bookChanges(previous: BookFile | undefined, next: BookFile, kept: KeptLines): string[] {
  const out: string[] = [];
  let unchanged = 0;
  for (const id of PRICE_IDS) {
    const [was, is] = [previous?.lines[id], next.lines[id]];
    const keptLine = kept[id];
    if (keptLine)
      out.push(
        keptLine.global
          ? `[+] ${id}  ${tiersText(id, is.tiers)}, us-east-1's (the same everywhere): ${keptLine.why}`
          : `[=] ${id}  ${tiersText(id, is.tiers)}, kept: ${keptLine.why}`,
      );
    else if (!was) out.push(`[+] ${id}  ${tiersText(id, is.tiers)}`);
    else if (!sameTiers(was.tiers, is.tiers)) out.push(...tierChanges(id, was.tiers, is.tiers));
    else if (fromPage(was) && !fromPage(is))
      out.push(`[=] ${id}  same price, now from the Price List (was a pricing page)`);
    else unchanged++;
  }
  if (unchanged) out.push(`[=] ${unchanged} more line${unchanged === 1 ? '' : 's'} unchanged`);
  return out;
}
