/**
 * Exchange rates, as data with a source and a day (pricing/exchange-rates.json): the ECB's euro reference rates,
 * which convert a box's price in euros (Hetzner's, or the user's own) to dollars, and show an answer in the
 * user's currency beside AWS's dollars. A file of another shape is refused when read, naming what is wrong.
 * Imported, not read from disk: the explorer runs the same model in a browser.
 */
import file from './exchange-rates.json';
import { CommandFailure, UsageError } from '../domain/errors';

export interface ExchangeRates {
  what: string;
  /** The currency the rates are quoted against: one euro buys `rates[code]` of each. */
  base: 'EUR';
  /** The day the rates were published (YYYY-MM-DD). */
  date: string;
  source: string;
  /** When the file was last checked against its source. */
  checked: string;
  rates: Record<string, number>;
}

/** The rates file is not one this code knows how to read. */
export class BadExchangeRates extends CommandFailure {
  override readonly name = 'BadExchangeRates';
}

/** A currency the rates file has no rate for: a usage mistake. */
export class UnknownCurrency extends UsageError {
  override readonly name = 'UnknownCurrency';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const FIELDS = ['what', 'base', 'date', 'source', 'checked', 'rates'];

/** The rates file checked field by field; BadExchangeRates naming the first field it does not know or like. */
export function parseExchangeRates(raw: unknown, where = 'pricing/exchange-rates.json'): ExchangeRates {
  const fault = (what: string): never => {
    throw new BadExchangeRates(`${where}: ${what}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fault('not an object of rates');
  const json = raw as Record<string, unknown>;
  const unknown = Object.keys(json).find((key) => !FIELDS.includes(key));
  if (unknown) fault(`unknown field "${unknown}" (known: ${FIELDS.join(', ')})`);
  if (json.base !== 'EUR') fault(`base must be "EUR", the ECB's (got ${JSON.stringify(json.base)})`);
  for (const field of ['date', 'checked'])
    if (typeof json[field] !== 'string' || !DAY.test(json[field] as string)) fault(`${field} must be a YYYY-MM-DD day`);
  for (const field of ['what', 'source'])
    if (typeof json[field] !== 'string' || !json[field]) fault(`${field} must be text`);
  const rates = json.rates as Record<string, unknown>;
  if (typeof rates !== 'object' || rates === null || Array.isArray(rates)) return fault('rates must be an object');
  for (const [code, rate] of Object.entries(rates)) {
    if (!/^[A-Z]{3}$/.test(code) || code === 'EUR') fault(`rates.${code}: not an ISO 4217 code other than EUR`);
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) fault(`rates.${code} must be above 0`);
  }
  if (!Object.hasOwn(rates, 'USD')) fault('rates.USD is missing: AWS prices in dollars');
  return json as unknown as ExchangeRates;
}

export const EXCHANGE_RATES = parseExchangeRates(file);

/** Every currency a price or an answer may be in: the euro and those the file has a rate for. */
export const CURRENCIES = ['EUR', ...Object.keys(EXCHANGE_RATES.rates)].sort();

/** Units of `currency` for one euro. */
const perEuro = (currency: string) => (currency === 'EUR' ? 1 : EXCHANGE_RATES.rates[currency]);

/** The code, upper-cased, if the file has a rate for it; else an UnknownCurrency naming `what` and the known ones. */
export function currencyCode(code: string, what: string): string {
  const upper = code.trim().toUpperCase();
  if (!CURRENCIES.includes(upper))
    throw new UnknownCurrency(
      `${what}: unknown currency "${code}"; use one of ${CURRENCIES.join(', ')} (the ECB's rates of ` +
        `${EXCHANGE_RATES.date}, pricing/exchange-rates.json)`,
    );
  return upper;
}

/** An amount in `currency` in dollars, at the file's rates. */
export const toUsd = (amount: number, currency: string) => (amount / perEuro(currency)) * perEuro('USD');

/** Dollars in `currency`, at the file's rates. */
export const fromUsd = (usd: number, currency: string) => (usd / perEuro('USD')) * perEuro(currency);

/** Dollars for one unit of `currency` at the file's rates: "EUR 1 = USD 1.1607". */
export const rateText = (currency: string) => `${currency} 1 = USD ${Number(toUsd(1, currency).toPrecision(5))}`;

/** Past this many days at answer time, an answer in another currency says its rates are old. */
const STALE_RATES_AFTER_DAYS = 365;

/**
 * Where the rates are older than a year: how old, and how to update them; undefined while they are not. `now` is
 * the answer's time, as the price book's age is counted (pricing/book-words.ts).
 */
export function staleRatesText(now = Date.now()): string | undefined {
  const days = Math.floor((now - Date.parse(EXCHANGE_RATES.date)) / 86_400_000);
  if (days <= STALE_RATES_AFTER_DAYS) return undefined;
  return (
    `the rates are ${days} days old: put a newer day's in pricing/exchange-rates.json (the ECB's ` +
    'eurofxref-daily.xml: units of each currency for one euro; docs/sources.md says how)'
  );
}

/** How figures in `currency` were converted, as report.json and the comparison's JSON give it beside them. */
export const conversion = (currency: string) => ({
  currency,
  /** Units of `currency` for one dollar. */
  perUsd: fromUsd(1, currency),
  rates: { date: EXCHANGE_RATES.date, source: EXCHANGE_RATES.source },
});
