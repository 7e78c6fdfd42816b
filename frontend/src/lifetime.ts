/**
 * A poll's lifetime as the create form writes it: an amount in minutes, hours or days, which the API
 * takes in whole minutes (POLL_LIMITS). Plain arithmetic, no DOM.
 */
import { POLL_LIMITS } from '../../config/api-contract';

/** The form's units, largest last, by the minutes in one. */
export const UNITS = [
  { name: 'minute', minutes: 1 },
  { name: 'hour', minutes: 60 },
  { name: 'day', minutes: 24 * 60 },
] as const;

/** The lifetimes one click away: the common ones, and the longest the API takes. */
export const PRESETS = [5, 30, 60, 24 * 60, POLL_LIMITS.maxLifetimeMinutes] as const;

/**
 * Minutes in `amount` (as typed) of a unit of `unitMinutes`: NaN when it is no number. A product that is
 * a whole number but for the float's rounding is that number (1.1 hours is 66 minutes, not 66.00000000000001);
 * anything else stays as it is, for the API's rules to refuse (1.5 minutes).
 */
export function toMinutes(amount: string, unitMinutes: number): number {
  const minutes = amount.trim() === '' ? Number.NaN : Number(amount) * unitMinutes;
  const whole = Math.round(minutes);
  return Math.abs(minutes - whole) < 1e-9 ? whole : minutes;
}

/** Whole minutes in the largest unit that holds them whole: 60 is 1 hour, 90 is 90 minutes. */
export function inUnits(minutes: number): { amount: number; unit: (typeof UNITS)[number] } {
  const unit = [...UNITS].reverse().find((u) => minutes % u.minutes === 0) ?? UNITS[0];
  return { amount: minutes / unit.minutes, unit };
}

/** Whole minutes in words: "5 minutes", "1 hour", "7 days". */
export function duration(minutes: number): string {
  const { amount, unit } = inUnits(minutes);
  return `${amount} ${unit.name}${amount === 1 ? '' : 's'}`;
}

/** What the API takes, in the form's words: a refusal of the lifetime says this. */
export const LIFETIME_RULE =
  `from ${duration(POLL_LIMITS.minLifetimeMinutes)} to ${duration(POLL_LIMITS.maxLifetimeMinutes)}, ` +
  'in whole minutes';
