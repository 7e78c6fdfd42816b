/**
 * Figures as the report prints them: dollars, quantities with M and B, shares, and text made safe
 * for HTML and SVG.
 */
import { fromUsd } from '../../pricing/exchange-rates';

/** Dollars with cents; an amount that rounds to nothing but is not nothing is "<$0.01". */
export function usd(value: number): string {
  if (value > 0 && value < 0.005) return '<$0.01';
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Dollars in `currency` at the ECB's rate (pricing/exchange-rates.json), alone: "€270.12"; in USD, as usd() gives. */
function inCurrency(value: number, currency = 'USD'): string {
  if (currency === 'USD') return usd(value);
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
  const local = fromUsd(value, currency);
  const smallest = 10 ** -(format.resolvedOptions().maximumFractionDigits ?? 2);
  return local > 0 && local < smallest / 2 ? `<${format.format(smallest)}` : format.format(local);
}

/** Dollars shown in `currency`, the dollars beside: "€270.12 ($312.97)"; dollars alone in USD. */
export const money = (value: number, currency = 'USD'): string =>
  currency === 'USD' ? usd(value) : `${inCurrency(value, currency)} (${usd(value)})`;

/** A signed difference in `currency`: "+€1.03", "−$0.40". */
export const signedIn = (value: number, currency = 'USD') =>
  `${value >= 0 ? '+' : '−'}${inCurrency(Math.abs(value), currency)}`;

/** A signed difference in dollars: "+$1.20", "−$0.40". */
export const signedUsd = (value: number) => signedIn(value);

/** Prices per million requests go well below a cent: keep three significant digits. */
export const usdSmall = (value: number) => (value >= 0.1 ? usd(value) : `$${value.toPrecision(2)}`);

/** A count as a person reads it: three significant digits with M or B, whole numbers from 100. */
export function quantity(value: number): string {
  const units: [number, string][] = [
    [1e9, ' B'],
    [1e6, ' M'],
  ];
  for (const [size, suffix] of units) if (value >= size) return `${(value / size).toPrecision(3)}${suffix}`;
  if (value >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toPrecision(3).replace(/\.?0+$/, '');
}

/** A count of votes: "15.0 M votes". */
export const votesLabel = (votes: number) => `${quantity(votes)} votes`;
/** A share as a whole percentage; under one percent as "<1%". */
export const percent = (share: number) => `${share < 0.01 ? '<1' : Math.round(share * 100)}%`;
/** A share too small for whole percentages (a cold-start share): two significant digits, "0%" for none. */
export const percentFine = (share: number) =>
  share > 0
    ? `${Number((share * 100).toPrecision(2)).toLocaleString('en-US', { maximumSignificantDigits: 2 })}%`
    : '0%';

/** Text safe inside HTML and SVG elements and attributes. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
