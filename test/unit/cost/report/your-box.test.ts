/**
 * The user's own box and currency in the answer (issue 49): --vps and --currency (or the profile's vps and
 * currency) put their box beside AWS's design in the verdict and the break-even, in their currency with the
 * dollars beside, at a dated, sourced ECB rate; a mistake in either is one line naming the part.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../domain/errors';
import { pricesLine } from '../../../../pricing/book-words';
import {
  BadExchangeRates,
  EXCHANGE_RATES,
  fromUsd,
  parseExchangeRates,
  toUsd,
  UnknownCurrency,
} from '../../../../pricing/exchange-rates';
import { boxCapacity } from '../../../../cost/estimate/vps';
import { usd } from '../../../../cost/estimate/format';
import { BASELINE_VPS, VPS_TIERS } from '../../../../cost/estimate/vps-tiers';
import { buildReport } from '../../../../cost/estimate/build-report';
import { renderMarkdown } from '../../../../cost/report/render-markdown';
import { answerLines, rateLines } from '../../../../cost/report/answer';
import { asShown, checkProfile, fromQuery, profileTitle, toQuery } from '../../../../cost/report/explorer/fields';
import { explorerHtml } from '../../../../cost/report/explorer';
import { reportInput } from '../../../../cost/report-files';
import { renderDetail } from '../../../../cost/report/render-text';
import { BadBox, boxOptions, boxText, parseBox } from '../../../../cost/usage/own-box';
import { PROFILES, ProfileError, validateProfile } from '../../../../cost/usage/profiles';
import { costReport, httpTemplateFile, unwrapped } from '../../../support/cost';

const CX23 = 'Hetzner CX23,5.49 EUR,2,shared,Falkenstein';
const cents = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
const euros = (usdAmount: number) => `€${(usdAmount / EXCHANGE_RATES.rates.USD).toLocaleString('en-US', cents)}`;
const shown = (usdAmount: number) => `${euros(usdAmount)} (${usd(usdAmount)})`;
const DAY = 86_400_000;

describe('your box, in your currency', () => {
  const report = costReport({ vps: CX23, currency: 'EUR' });
  const lines = answerLines(report, []).map((line) => line.replace(/\s+/g, ' '));
  const { answer, recommended } = report;

  it('npm run cost -- --profile seed --vps "Hetzner CX23,5.49 EUR,2,shared,Falkenstein" --currency EUR', () => {
    expect(lines[0]).toBe(pricesLine(report.options.book));
    expect(answer.vps.tier.yours).toBe(true);
    expect(answer.vps.tier.monthlyUsd).toBeCloseTo(5.49 * EXCHANGE_RATES.rates.USD, 9);
    expect(lines[1]).toBe(`seed, 15.0 M votes a month: your box is cheaper, by ${shown(answer.savingUsd!)} a month.`);
    expect(lines[2]).toContain(`AWS ${shown(recommended.bill.totalUsd)} a month`);
    expect(lines[4]).toBe(
      ` VPS €5.49 (${usd(answer.vps.totalUsd)}) a month: your Hetzner CX23 (2 shared vCPUs, Falkenstein); it ` +
        `carries the busiest second, ${Math.round(answer.vps.utilisation * 100)}% loaded (up to 80%)`,
    );
    expect(answer.breakEven.tier).toBe(answer.vps.tier);
    expect(lines[5]).toMatch(/^ AWS is the cheaper one only below [\d,.]+ (M )?votes a month, against your box\.$/);
    // DO's $6 box costs less than €5.49 and carries it too: it stays, as a second line.
    expect(answer.listed?.tier.name).toBe('DO $6 (1 vCPU, 1 GB)');
    expect(lines[6]).toBe(` Cheaper on the list: DO $6 (1 vCPU, 1 GB), ${shown(6)} a month, 6% loaded at the peak.`);
  });

  it("sizes your box with the listed boxes' model: a CX23 of yours carries what the listed CX23 does", () => {
    const listed = VPS_TIERS.find((t) => t.name.startsWith('Hetzner CX23'))!;
    const mix = answer.vps.origin;
    expect(answer.vps.box.requestsPerSecond).toBe(boxCapacity(listed, report.vpsCapacity, mix).requestsPerSecond);
  });

  it("says the rate's day in the answer, and its source in the working", () => {
    const fresh = Date.parse(EXCHANGE_RATES.date) + 365 * DAY;
    expect(rateLines(report, { now: fresh })).toEqual([
      `Converted at the ECB's reference rate of ${EXCHANGE_RATES.date}: EUR 1 = USD ${EXCHANGE_RATES.rates.USD} ` +
        '(--detail gives the source).',
    ]);
    expect(lines.join('\n')).toContain(rateLines(report)[0].replace(/\s+/g, ' '));
    const detail = unwrapped(renderDetail(report));
    expect(detail).toContain(
      `Currencies converted at EUR 1 = USD ${EXCHANGE_RATES.rates.USD}: ${EXCHANGE_RATES.source}`,
    );
  });

  it('says the rates are old past a year at answer time, and how to put newer ones in', () => {
    const yearAndADay = Date.parse(EXCHANGE_RATES.date) + 366 * DAY;
    expect(rateLines(report, { now: yearAndADay })[0]).toMatch(
      /\(--detail gives the source\); the rates are 366 days old: put a newer day's in pricing\/exchange-rates\.json /,
    );
    expect(rateLines(report, { full: true, now: yearAndADay })[0]).toContain('the rates are 366 days old');
    // In dollars there is no rate to state, old or not.
    expect(rateLines(costReport(), { now: yearAndADay })).toEqual([]);
  });

  it('says a box of yours that does not carry the peak, by how much, and the listed one that does', () => {
    const night = costReport({ profile: 'record-night', vps: 'Tiny,4 USD,1,shared' });
    const text = answerLines(night, []).join(' ').replace(/\s+/g, ' ');
    expect(night.answer.vpsCarries).toBe(false);
    expect(text).toContain(
      `VPS $4.00 a month: your Tiny (1 shared vCPU); it does not carry the busiest second: ${night.answer.vps.why} `,
    );
    expect(night.answer.vps.why).toMatch(/^needs \d+\.\dx the box's 1 shared vCPU$/);
    expect(text).toContain('No break-even: your box does not carry this peak.');
    expect(night.answer.listed?.carries).toBe(true);
    expect(text).toContain(`Cheaper on the list: ${night.answer.listed!.name}`);
  });

  it('leaves the listed line out where your box is the cheapest that carries', () => {
    const cheap = costReport({ vps: 'Mine,1 USD,2,dedicated' });
    expect(cheap.answer.listed).toBeUndefined();
    expect(answerLines(cheap, []).join('\n')).not.toContain('Cheaper on the list');
    // In dollars, no rate to state.
    expect(answerLines(cheap, []).join('\n')).not.toContain('Converted at');
  });

  it('takes the same box as a profile field, and a currency', () => {
    const profile = validateProfile({ currency: 'GBP', vps: parseBox(CX23) });
    expect(profile.vps).toEqual({
      name: 'Hetzner CX23',
      price: 5.49,
      currency: 'EUR',
      vcpus: 2,
      cpu: 'shared',
      location: 'Falkenstein',
    });
    expect(profile.currency).toBe('GBP');
    // As --vps's text too (the explorer's and a URL's), read back from boxText.
    expect(validateProfile({ vps: boxText(profile.vps!) }).vps).toEqual(profile.vps);
  });
});

describe('your box, in euros, priced for Frankfurt: the offers of Europe weighed', () => {
  // A book for eu-central-1 (us-east-1's figures: which offers are weighed follows the Region, not its prices).
  const books = mkdtempSync(join(tmpdir(), 'books-'));
  const book = JSON.parse(readFileSync('pricing/books/us-east-1.json', 'utf8'));
  writeFileSync(join(books, 'eu-central-1.json'), JSON.stringify({ ...book, region: 'eu-central-1' }));
  const report = buildReport(
    reportInput({
      profile: 'seed',
      template: httpTemplateFile(),
      'new-account': false,
      vps: CX23,
      currency: 'EUR',
      region: 'eu-central-1',
      books,
    }),
  );
  const lines = answerLines(report, []).map((line) => line.replace(/\s+/g, ' '));
  const { answer, recommended, offers } = report;

  it(`npm run cost -- --profile seed --vps "${CX23}" --currency EUR --region eu-central-1`, () => {
    expect(lines[0]).toMatch(/^Priced for eu-central-1 in USD, at AWS's list prices of /);
    expect(lines[1]).toBe(`seed, 15.0 M votes a month: your box is cheaper, by ${shown(answer.savingUsd!)} a month.`);
    expect(lines[2]).toContain(`AWS ${shown(recommended.bill.totalUsd)} a month`);
    expect(lines[4]).toMatch(
      /^ VPS €5\.49 \(\$6\.37\) a month: your Hetzner CX23 \(2 shared vCPUs, Falkenstein\); it carries/,
    );
    // The cheaper box on the list is one sold in Europe.
    expect(answer.listed!.tier.markets).toContain('Europe');
    expect(lines).toContain(
      ` Cheaper on the list: ${answer.listed!.name}, ${shown(answer.listed!.totalUsd)} a month, 6% loaded at the peak.`,
    );
    expect(lines.some((line) => line.startsWith("Converted at the ECB's reference rate of "))).toBe(true);
  });

  it("weighs the boxes sold in Europe and the seed's $15 box, and names those left out", () => {
    expect(offers.market).toBe('Europe');
    const names = offers.tiers.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['Hetzner CX23 (2 vCPU)', 'Hetzner AX52 (16 threads)', BASELINE_VPS.name]),
    );
    expect(names.filter((name) => / US \(/.test(name))).toEqual([]);
    expect(offers.elsewhere.map((t) => t.name)).toEqual([
      'Hetzner CCX33 US (8 dedicated)',
      'Hetzner CCX43 US (16 dedicated)',
    ]);
    expect(report.vps.filter((v) => !v.tier.yours).every((v) => offers.tiers.includes(v.tier))).toBe(true);
    const detail = unwrapped(renderDetail(report));
    expect(detail).toContain(
      "The boxes weighed are those sold in eu-central-1's market, Europe, at their prices and allowances",
    );
    expect(detail).toContain(
      'Sold only elsewhere, left out: Hetzner CCX33 US (8 dedicated), Hetzner CCX43 US (16 dedicated).',
    );
    // The rate's day and source in the working.
    expect(detail).toContain(
      `Currencies converted at EUR 1 = USD ${EXCHANGE_RATES.rates.USD}: ${EXCHANGE_RATES.source}`,
    );
  });

  it('shows each design and each box a month in euros with the dollars beside, in the working and report.md', () => {
    const markdown = renderMarkdown(report, 'chart.svg');
    for (const d of report.designs) expect(markdown).toContain(`| ${shown(d.bill.totalUsd)} |`);
    for (const v of report.vps) expect(markdown).toContain(`| ${shown(v.totalUsd)} |`);
    expect(markdown).toContain(`| €5.49 (${usd(answer.vps.totalUsd)}) |`);
    expect(unwrapped(renderDetail(report))).toContain(
      `On a VPS: €5.49 (${usd(answer.vps.totalUsd)}) a month on your Hetzner CX23`,
    );
  });

  it('keeps the dollars in report.json and adds the answer in euros, with the rate', () => {
    const json = JSON.parse(JSON.stringify(report));
    expect(json.answer.vps.totalUsd).toBeCloseTo(5.49 * EXCHANGE_RATES.rates.USD, 9);
    expect(json.inCurrency).toMatchObject({ currency: 'EUR', rates: { date: EXCHANGE_RATES.date } });
    expect(json.inCurrency.answer.vpsMonthly).toBeCloseTo(5.49, 9);
    expect(json.inCurrency.answer.awsMonthly).toBeCloseTo(fromUsd(recommended.bill.totalUsd, 'EUR'), 9);
    expect(costReport().inCurrency).toBeUndefined();
  });
});

describe("the explorer's box and currency", () => {
  const opened = validateProfile({ name: 'mine', currency: 'EUR', vps: CX23 });

  it('keeps them through the URL, as --vps text, and a profile opened with them is not "edited"', () => {
    const query = toQuery(opened, false);
    expect(new URLSearchParams(query).get('vps')).toBe(CX23);
    expect(checkProfile(fromQuery(`?${query}`)!.raw, opened).profile).toMatchObject({
      currency: 'EUR',
      vps: opened.vps,
    });
    expect(asShown({ ...opened, vps: { ...opened.vps! } }, opened).name).toBe('mine');
    const edited = asShown({ ...opened, vps: { ...opened.vps!, price: 4 } }, opened);
    expect(edited.description).toContain(`vps ${CX23.replace('5.49', '4')} (was ${CX23})`);
  });

  it('says what was asked of a preset opened with a box and a currency, not "edited"', () => {
    const asked = { ...PROFILES.seed, ...boxOptions({ vps: CX23, currency: 'EUR' }) };
    expect(asShown({ ...asked }, asked)).toEqual(asked);
    expect(profileTitle(asShown({ ...asked }, asked))).toBe('seed, with your Hetzner CX23, in EUR');
    // The preset's own button gives the preset back: not an edit either.
    expect(asShown(PROFILES.seed, asked).name).toBe('seed');
    // An edit is measured from what was asked.
    const edited = asShown({ ...asked, refresh: 10 }, asked);
    expect(edited.name).toBe('seed, edited');
    expect(edited.description).toMatch(/^seed edited in the cost explorer: refresh 10 \(was busy\)\./);
    // The page as npm run cost writes it: the heading before its script runs.
    const html = explorerHtml(reportInput({ profile: 'seed', 'new-account': false, vps: CX23, currency: 'EUR' }));
    expect(html).toContain('<span id="profile-name">seed, with your Hetzner CX23, in EUR</span>');
  });

  it('marks a box typed wrong on its field, naming the part, and answers with the last good one', () => {
    const checked = checkProfile({ ...opened, vps: 'Hetzner CX23,5.49 EUR,0,shared' }, opened);
    expect(checked.profile).toBeUndefined();
    expect(checked.errors.map((e) => [e.field, e.message.split(':')[0]])).toEqual([['vps', 'vps.vcpus']]);
    expect(checked.nearest.vps).toEqual(opened.vps);
  });
});

describe('a box or a currency given wrong', () => {
  it('names the part of --vps at fault', () => {
    const part = (text: string) => {
      try {
        parseBox(text);
      } catch (error) {
        return error instanceof BadBox ? error.part : 'not a BadBox';
      }
      return 'accepted';
    };
    expect(part('Hetzner CX23,5.49 EUR,2')).toBe('cpu');
    expect(part(',5.49 EUR,2,shared')).toBe('name');
    expect(part('A,-5 EUR,2,shared')).toBe('price');
    expect(part('A,five EUR,2,shared')).toBe('price');
    expect(part('A,5.49,2,shared')).toBe('currency');
    expect(part('A,5.49 XYZ,2,shared')).toBe('currency');
    expect(part('A,5.49 EUR,0,shared')).toBe('vcpus');
    expect(part('A,5.49 EUR,two,shared')).toBe('vcpus');
    expect(part('A,5.49 EUR,2,fast')).toBe('cpu');
    expect(part('A,0 EUR,2,dedicated')).toBe('accepted');
  });

  it('is one usage line for --vps and --currency, and a profile error naming the field', () => {
    expect(() => boxOptions({ vps: 'A,-5 EUR,2,shared' })).toThrow(UsageError);
    expect(() => boxOptions({ vps: 'A,-5 EUR,2,shared' })).toThrow(/^--vps "A,-5 EUR,2,shared": the price must be/);
    expect(() => boxOptions({ currency: 'XYZ' })).toThrow(UnknownCurrency);
    expect(() => boxOptions({ currency: 'XYZ' })).toThrow(/^--currency: unknown currency "XYZ"/);
    expect(boxOptions({ currency: 'eur' })).toEqual({ currency: 'EUR' });
    const field = (raw: unknown) => {
      try {
        validateProfile(raw);
      } catch (error) {
        return error instanceof ProfileError ? error.field : 'not a ProfileError';
      }
      return 'accepted';
    };
    const box = parseBox(CX23);
    const message = (raw: unknown) => {
      try {
        validateProfile(raw);
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(field({ vps: { ...box, price: -1 } })).toBe('vps');
    expect(message({ vps: { ...box, price: -1 } })).toMatch(/^vps\.price: the price must be a number at least 0/);
    expect(message({ vps: { ...box, vcpus: 0 } })).toMatch(/^vps\.vcpus: /);
    expect(message({ vps: { ...box, currency: 'XYZ' } })).toMatch(/^vps\.currency: unknown currency "XYZ"/);
    expect(message({ vps: { ...box, name: undefined } })).toMatch(/^vps\.name: /);
    expect(message({ vps: 'A,5.49 EUR,2' })).toMatch(/^vps\.cpu: the shared or dedicated part is missing/);
    expect(field({ currency: 'XYZ' })).toBe('currency');
  });
});

describe('the exchange rates', () => {
  const committed = JSON.parse(readFileSync('pricing/exchange-rates.json', 'utf8'));

  it("are the ECB's euro reference rates of a stated day, with their source", () => {
    expect(parseExchangeRates(committed)).toEqual(committed);
    expect(committed.base).toBe('EUR');
    expect(committed.date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(committed.source).toMatch(/European Central Bank/);
    expect(toUsd(1, 'EUR')).toBe(committed.rates.USD);
    expect(toUsd(fromUsd(312.97, 'JPY'), 'JPY')).toBeCloseTo(312.97, 9);
    expect(toUsd(committed.rates.GBP, 'GBP')).toBeCloseTo(committed.rates.USD, 12);
  });

  it('refuse a file of a shape they do not know, naming what is wrong', () => {
    const bad = (change: Record<string, unknown>) => () => parseExchangeRates({ ...committed, ...change });
    expect(bad({ extra: 1 })).toThrow(BadExchangeRates);
    expect(bad({ extra: 1 })).toThrow(/unknown field "extra"/);
    expect(bad({ base: 'USD' })).toThrow(/base must be "EUR"/);
    expect(bad({ date: 'yesterday' })).toThrow(/date must be a YYYY-MM-DD day/);
    expect(bad({ rates: { GBP: 0.87 } })).toThrow(/rates.USD is missing/);
    expect(bad({ rates: { USD: 1.16, GBP: 0 } })).toThrow(/rates.GBP must be above 0/);
    expect(bad({ rates: { USD: 1.16, pounds: 1 } })).toThrow(/rates.pounds: not an ISO 4217 code/);
    expect(() => parseExchangeRates([])).toThrow(BadExchangeRates);
  });
});
