/**
 * Figures as the report prints them (cost/estimate/format.ts).
 */
import { describe, expect, it } from 'vitest';
import { escapeHtml, percent, quantity, usd, usdSmall, votesLabel } from '../../../../cost/estimate/format';

describe('figures in the report', () => {
  it('prints dollars with cents, and an amount too small for a cent as under one', () => {
    expect(usd(1234.5)).toBe('$1,234.50');
    expect(usd(0)).toBe('$0.00');
    expect(usd(0.004)).toBe('<$0.01');
    expect(usd(0.005)).toBe('$0.01');
    // Prices per million requests keep two significant digits below ten cents.
    expect(usdSmall(0.000588)).toBe('$0.00059');
    expect(usdSmall(0.2)).toBe('$0.20');
  });

  it('prints counts with three significant digits and M or B, whole numbers from 100', () => {
    expect(quantity(960.009e6)).toBe('960 M');
    expect(quantity(15e6)).toBe('15.0 M');
    expect(quantity(1.5e9)).toBe('1.50 B');
    expect(quantity(1234.4)).toBe('1,234');
    expect(quantity(2)).toBe('2');
    expect(quantity(0.125)).toBe('0.125');
    expect(votesLabel(2e6)).toBe('2.00 M votes');
  });

  it('prints a share as a whole percentage, and under one percent as <1%', () => {
    expect(percent(0.104)).toBe('10%');
    expect(percent(0.005)).toBe('<1%');
  });

  it('escapes what HTML and SVG would read as markup', () => {
    expect(escapeHtml('<b a="1">&</b>')).toBe('&lt;b a=&quot;1&quot;&gt;&amp;&lt;/b&gt;');
  });
});
