/**
 * The user's own box, as --vps gives it ("Hetzner CX23,5.49 EUR,2,shared,Falkenstein") or a profile's `vps`
 * field (the same parts as an object): checked part by part, so that a mistake names the part.
 */
import { NamedError, UsageError } from '../../domain/errors';
import { CURRENCIES, currencyCode } from '../../pricing/exchange-rates';
import type { OwnBox, TrafficProfile } from './traffic-profile';

/** A box's part that is missing or wrong: `part` names it as the profile's object does. */
export class BadBox extends NamedError {
  override readonly name = 'BadBox';
  constructor(
    readonly part: keyof OwnBox,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The parts of --vps, in order. */
export const BOX_FORMAT = '"<name>,<price> <currency>,<vCPUs>,<shared|dedicated>[,<location>]"';
const CPU_KINDS = ['shared', 'dedicated'] as const;
/** vCPUs at most: the largest box a provider sells is well under this. */
const MAX_VCPUS = 1024;

/** A box's fields checked; BadBox naming the first part at fault. */
export function checkBox(raw: unknown): OwnBox {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new BadBox('name', 'must be an object: {name, price, currency, vcpus, cpu, location?}');
  const box = raw as Record<string, unknown>;
  const known = ['name', 'price', 'currency', 'vcpus', 'cpu', 'location'];
  const unknown = Object.keys(box).find((key) => !known.includes(key));
  if (unknown) throw new BadBox(unknown as keyof OwnBox, `unknown part "${unknown}" (known: ${known.join(', ')})`);
  const { name, price, currency, vcpus, cpu, location } = box;
  if (typeof name !== 'string' || !name.trim()) throw new BadBox('name', 'the name is missing');
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0)
    throw new BadBox('price', `the price must be a number at least 0 (got ${JSON.stringify(price)})`);
  if (typeof currency !== 'string' || !CURRENCIES.includes(currency))
    throw new BadBox(
      'currency',
      `unknown currency ${JSON.stringify(currency)}: use one of ${CURRENCIES.join(', ')} (pricing/exchange-rates.json)`,
    );
  if (typeof vcpus !== 'number' || !Number.isInteger(vcpus) || vcpus < 1 || vcpus > MAX_VCPUS)
    throw new BadBox('vcpus', `vCPUs must be a whole number from 1 to ${MAX_VCPUS} (got ${JSON.stringify(vcpus)})`);
  if (!CPU_KINDS.includes(cpu as OwnBox['cpu']))
    throw new BadBox('cpu', `the CPU must be shared or dedicated (got ${JSON.stringify(cpu)})`);
  if (location !== undefined && (typeof location !== 'string' || !location.trim()))
    throw new BadBox('location', 'the location must be text');
  return {
    name: name.trim(),
    price,
    currency,
    vcpus,
    cpu: cpu as OwnBox['cpu'],
    ...(location === undefined ? {} : { location: (location as string).trim() }),
  };
}

/** A box as --vps's text: what parseBox reads back. */
export const boxText = (box: OwnBox): string =>
  [box.name, `${box.price} ${box.currency}`, box.vcpus, box.cpu, ...(box.location ? [box.location] : [])].join(',');

/** --vps's text as a box: its parts by commas, the price as an amount and a currency code. */
export function parseBox(text: string): OwnBox {
  const parts = text.split(',').map((part) => part.trim());
  const names = ['name', 'price', 'vCPUs', 'shared or dedicated'];
  const missing = names.findIndex((_, i) => !parts[i]);
  if (missing >= 0)
    throw new BadBox(
      ['name', 'price', 'vcpus', 'cpu'][missing] as keyof OwnBox,
      `the ${names[missing]} part is missing`,
    );
  if (parts.length > 5) throw new BadBox('location', `${parts.length} parts, at most 5`);
  const [name, price, vcpus, cpu, location] = parts;
  const priced = /^(\S+)\s+(\S+)$/.exec(price);
  if (!priced) throw new BadBox('currency', `the price "${price}" needs its currency after it, as in "5.49 EUR"`);
  if (!/^-?\d*\.?\d+$/.test(priced[1]) || Number(priced[1]) < 0)
    throw new BadBox('price', `the price must be a number at least 0 (got "${priced[1]}")`);
  return checkBox({
    name,
    price: Number(priced[1]),
    currency: priced[2].toUpperCase(),
    vcpus: /^\d+$/.test(vcpus) ? Number(vcpus) : vcpus,
    cpu,
    ...(location ? { location } : {}),
  });
}

/**
 * --currency and --vps as the profile fields they stand for, checked before anything is read: a mistake is a
 * UsageError naming the option and the part.
 */
export function boxOptions(values: { currency?: string; vps?: string }): Pick<TrafficProfile, 'currency' | 'vps'> {
  const currency = values.currency === undefined ? undefined : currencyCode(values.currency, '--currency');
  try {
    const vps = values.vps === undefined ? undefined : parseBox(values.vps);
    return { ...(currency && { currency }), ...(vps && { vps }) };
  } catch (error) {
    if (!(error instanceof BadBox)) throw error;
    throw new UsageError(`--vps "${values.vps}": ${error.message}; give ${BOX_FORMAT}`, { cause: error });
  }
}
