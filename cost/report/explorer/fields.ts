/**
 * The explorer's controls, one per profile field, made from PROFILE_FIELDS (unit, range, meaning), and
 * how a profile goes to and from them and the URL. Checking is validateProfile's: the same rules and
 * messages as `npm run cost -- --profile <file>`.
 */
import { escapeHtml } from '../../estimate/format';
import {
  OTHER_PROFILE_FIELDS,
  PROFILE_FIELDS,
  PROFILES,
  ProfileError,
  presetProfile,
  validateProfile,
} from '../../usage/profiles';
import type { OwnBox, TrafficProfile } from '../../usage/traffic-profile';
import { BOX_FORMAT, boxText } from '../../usage/own-box';
import { CURRENCIES } from '../../../pricing/exchange-rates';

type NumberField = keyof typeof PROFILE_FIELDS;
/** What the controls hold: a profile's fields as typed, checked or not. */
export type RawProfile = Record<string, unknown>;

/** Fields with a slider, and the least it goes down to (its scale is logarithmic: ranges span decades). */
const SLIDERS: Partial<Record<NumberField, number>> = {
  pollsPerDay: 0.01,
  votesPerPoll: 1,
  resultsViewersPerPoll: 1,
  votingMinutes: 1,
  watchMinutes: 0.5,
  busiestMinuteFactor: 1,
  busyHourFactor: 1,
};
/**
 * The optional fields, left out when empty: the peak is then derived from the others, the answer is in
 * dollars, and no box of the user's is set beside AWS.
 */
const OPTIONAL = ['peakRequestsPerSecond', 'currency', 'vps'];

const fieldIds = (field: string) => ({ input: `f-${field}`, error: `e-${field}`, hint: `d-${field}` });

/** A field's frame: its label, its control(s), its meaning, and where its error goes. */
function fieldHtml(field: string, unit: string, controls: string, hint: string): string {
  const ids = fieldIds(field);
  return (
    `<div class="field" data-field="${field}"><label for="${ids.input}">${field}` +
    `${unit ? ` <span class="unit">${escapeHtml(unit)}</span>` : ''}</label>${controls}` +
    `<p class="hint" id="${ids.hint}">${escapeHtml(hint)}</p><p class="error" id="${ids.error}"></p></div>`
  );
}

const describedBy = (field: string) => `aria-describedby="${fieldIds(field).error} ${fieldIds(field).hint}"`;

function numberField(field: NumberField): string {
  const { unit, min, max, description } = PROFILE_FIELDS[field];
  const low = SLIDERS[field];
  const slider =
    low === undefined
      ? ''
      : `<input type="range" class="slider" data-for="${field}" aria-label="${field}, on a log scale" ` +
        `min="${Math.log10(Math.max(min, low))}" max="${Math.log10(max)}" step="0.01">`;
  const input =
    `<input type="number" id="${fieldIds(field).input}" name="${field}" min="${min}" max="${max}" step="any" ` +
    `inputmode="decimal" ${field === OPTIONAL[0] ? 'placeholder="derived" ' : ''}${describedBy(field)}>`;
  return fieldHtml(field, unit, `<div class="pair">${input}${slider}</div>`, description);
}

/** Every control: the number fields, then refresh, one vote per voter and the name. */
export function controlsHtml(): string {
  const numbers = (Object.keys(PROFILE_FIELDS) as NumberField[]).map(numberField);
  const refresh = fieldHtml(
    'refresh',
    '',
    `<input id="${fieldIds('refresh').input}" name="refresh" list="refresh-kinds" ${describedBy('refresh')}>` +
      '<datalist id="refresh-kinds"><option value="busy"></option><option value="quiet"></option></datalist>',
    OTHER_PROFILE_FIELDS.refresh,
  );
  const oneVote = fieldHtml(
    'oneVotePerVoter',
    '',
    `<input type="checkbox" id="${fieldIds('oneVotePerVoter').input}" name="oneVotePerVoter" ` +
      `${describedBy('oneVotePerVoter')}>`,
    OTHER_PROFILE_FIELDS.oneVotePerVoter,
  );
  const currency = fieldHtml(
    'currency',
    '',
    `<input id="${fieldIds('currency').input}" name="currency" list="currencies" placeholder="USD" ` +
      `${describedBy('currency')}><datalist id="currencies">` +
      `${CURRENCIES.map((code) => `<option value="${code}"></option>`).join('')}</datalist>`,
    OTHER_PROFILE_FIELDS.currency,
  );
  const vps = fieldHtml(
    'vps',
    '',
    `<input id="${fieldIds('vps').input}" name="vps" placeholder="Hetzner CX23,5.49 EUR,2,shared,Falkenstein" ` +
      `${describedBy('vps')}>`,
    `your box, as --vps takes it: ${BOX_FORMAT}`,
  );
  const name = fieldHtml(
    'name',
    '',
    `<input id="${fieldIds('name').input}" name="name" ${describedBy('name')}>`,
    OTHER_PROFILE_FIELDS.name,
  );
  return [name, ...numbers, refresh, oneVote, vps, currency].join('');
}

/** A field's value as the controls and the URL hold it: the user's box as --vps's text. */
const shownValue = (field: string, value: unknown): string =>
  field === 'vps' && typeof value === 'object' && value !== null ? boxText(value as OwnBox) : String(value);

/** A typed value as a profile file would hold it: a number when it reads as one, else the text as typed. */
function typed(field: string, text: string): unknown {
  if (['name', 'description', 'vps', 'currency'].includes(field)) return text;
  if (field === 'oneVotePerVoter' && (text === 'true' || text === 'false')) return text === 'true';
  const trimmed = text.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text;
}

/** The profile as the controls hold it (an empty optional field is left out). */
export function readControls(form: HTMLFormElement, description: string): RawProfile {
  const raw: RawProfile = { description };
  for (const input of form.querySelectorAll<HTMLInputElement>('input[name]')) {
    if (input.type === 'checkbox') raw[input.name] = input.checked;
    else if (!(OPTIONAL.includes(input.name) && input.value.trim() === ''))
      raw[input.name] = typed(input.name, input.value);
  }
  return raw;
}

/** Puts a profile (checked or not) into the controls and their sliders. */
export function fillControls(form: HTMLFormElement, raw: RawProfile): void {
  for (const input of form.querySelectorAll<HTMLInputElement>('input[name]')) {
    const value = raw[input.name];
    if (input.type === 'checkbox') input.checked = value === true;
    else input.value = value === undefined ? '' : shownValue(input.name, value);
    syncSlider(form, input.name);
  }
}

/** The slider beside a number field follows its value (where the value is a number in range). */
export function syncSlider(form: HTMLFormElement, field: string): void {
  const slider = form.querySelector<HTMLInputElement>(`.slider[data-for="${field}"]`);
  const value = Number(form.querySelector<HTMLInputElement>(`[name="${field}"]`)?.value);
  if (slider && value > 0) slider.value = String(Math.log10(value));
  else if (slider) slider.value = slider.min;
}

/** A slider's position as a value: two significant digits, as a person would type it. */
export const sliderValue = (slider: HTMLInputElement): number => Number((10 ** Number(slider.value)).toPrecision(2));

export interface Checked {
  /** The profile, when every field is valid. */
  profile?: TrafficProfile;
  /** The profile with each bad field put back to `fallback`'s value: an answer to show, dimmed. */
  nearest: TrafficProfile;
  errors: ProfileError[];
}

/**
 * Checks a profile as the CLI does; each bad field is noted and put back to `fallback`'s value and the
 * rest checked again, so every bad field is marked, each with the CLI's own message.
 */
export function checkProfile(raw: RawProfile, fallback: TrafficProfile): Checked {
  const errors: ProfileError[] = [];
  let candidate = { ...raw };
  for (let tries = 0; tries < 20; tries++) {
    try {
      const profile = validateProfile(candidate, PROFILES.seed);
      return { profile: errors.length === 0 ? profile : undefined, nearest: profile, errors };
    } catch (error) {
      if (!(error instanceof ProfileError)) throw error;
      errors.push(error);
      candidate = withFallback(candidate, error.field, fallback);
    }
  }
  return { nearest: fallback, errors };
}

/** The candidate with `field` as `fallback` has it (or without it, when the fallback has none). */
function withFallback(candidate: RawProfile, field: string, fallback: TrafficProfile): RawProfile {
  const { [field]: _bad, ...rest } = candidate;
  const value = (fallback as unknown as RawProfile)[field];
  return value === undefined ? rest : { ...rest, [field]: value };
}

/**
 * The URL's profile: its fields over the seed, as a profile file's are; `newAccount` and `region` are the CLI's
 * options (the region whose book the page prices).
 */
export function fromQuery(search: string): { raw: RawProfile; newAccount?: boolean; region?: string } | undefined {
  const params = new URLSearchParams(search);
  if ([...params.keys()].length === 0) return undefined;
  const raw: RawProfile = {};
  let newAccount: boolean | undefined;
  let region: string | undefined;
  for (const [key, value] of params) {
    if (key === 'newAccount') newAccount = value === 'true';
    else if (key === 'region') region = value;
    else raw[key] = typed(key, value);
  }
  return { raw: { ...PROFILES.seed, description: 'from the URL', ...raw }, newAccount, region };
}

/**
 * The URL's query: the name, then the fields that differ from the seed (a description only when it is
 * not a preset's). The name always: a query with nothing in it would reopen the profile the CLI was given.
 */
export function toQuery(profile: TrafficProfile, newAccount: boolean, region?: string): string {
  const seed = PROFILES.seed as unknown as RawProfile;
  const params = new URLSearchParams({ name: profile.name });
  for (const [key, value] of Object.entries(profile)) {
    if (key === 'name' || key === 'description' || key === 'region' || value === seed[key]) continue;
    params.set(key, shownValue(key, value));
  }
  if (newAccount) params.set('newAccount', 'true');
  if (region) params.set('region', region);
  return params.toString();
}

/**
 * The profile as the page names it: a preset (or the profile the page opened on) with a field changed
 * is no longer that profile, so the heading, the download and the file's own name and description say
 * so ("seed, edited"), and `npm run cost` run on that file prints what it prices. The profile the page
 * opened on is what was asked (a preset with --vps or --currency is not an edit of it), and is what an
 * edit is measured from; a preset's button gives back the preset, which is not an edit either.
 */
export function asShown(profile: TrafficProfile, opened: TrafficProfile): TrafficProfile {
  const asked = profile.name === opened.name ? opened : undefined;
  const bases = [asked, presetProfile(profile.name)].filter((b): b is TrafficProfile => b !== undefined);
  if (bases.length === 0) return profile;
  const changes = bases.map((base) => changedFields(base, profile));
  if (changes.some((changed) => changed.length === 0)) return profile;
  const [base] = bases;
  const edits = changes[0].map(({ key, ours, theirs }) => `${key} ${ours} (was ${theirs})`).join(', ');
  return {
    ...profile,
    name: `${base.name}, edited`,
    description: `${base.name} edited in the cost explorer: ${edits}. ${base.name}: ${base.description}`,
  };
}

/** The fields of `profile` that differ from `base`'s, as the page shows each value. */
function changedFields(base: TrafficProfile, profile: TrafficProfile) {
  const [theirs, ours] = [base, profile] as unknown as RawProfile[];
  const text = (key: string, value: unknown) =>
    value !== undefined ? shownValue(key, value) : key === OPTIONAL[0] ? 'derived' : 'none';
  return [...new Set([...Object.keys(theirs), ...Object.keys(ours)])]
    .filter((k) => k !== 'name' && k !== 'description' && text(k, theirs[k]) !== text(k, ours[k]))
    .map((key) => ({ key, ours: text(key, ours[key]), theirs: text(key, theirs[key]) }));
}

/**
 * The page's heading: the profile's name, and what else was asked of the answer, where it was: the user's
 * box and the currency ("seed, with your Hetzner CX23, in EUR").
 */
export const profileTitle = (profile: TrafficProfile): string =>
  [
    profile.name,
    ...(profile.vps ? [`with your ${profile.vps.name}`] : []),
    ...(profile.currency && profile.currency !== 'USD' ? [`in ${profile.currency}`] : []),
  ].join(', ');
