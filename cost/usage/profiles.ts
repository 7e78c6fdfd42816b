/**
 * Traffic profiles: how a month of use looks, in the terms a poll owner knows: how much happens,
 * and when (the window a poll's votes arrive in, the busiest hour, the busiest minute), from which
 * cost/usage/peaks.ts derives the busiest second. Every field is defined once (PROFILE_FIELDS): the
 * validator, `npm run cost -- --help` and docs/cost.md's table read it.
 */
import { POLL_LIMITS } from '../../config/api-contract';
import { RESULTS_REFRESH } from '../../config/results-refresh';
import { derivePeak } from './peaks';
import { DAYS_PER_MONTH, type TrafficProfile } from './traffic-profile';
import { NamedError } from '../../domain/errors';
import { EDGE_LOCATIONS, isEdgeLocation, isRegion } from '../../pricing/regions';
import { CURRENCIES } from '../../pricing/exchange-rates';
import { BadBox, checkBox, parseBox } from './own-box';

/** A number field of a profile: its unit, its range, what it means. */
export interface ProfileField {
  unit: string;
  min: number;
  max: number;
  description: string;
}

/** The fastest a results page refreshes (config RESULTS_REFRESH): a profile may not ask faster. */
export const MIN_REFRESH_SECONDS = RESULTS_REFRESH.minIntervalMs / 1000;

/**
 * Every number field, its unit and the range the model is meant for: beyond these a profile
 * describes no poll platform, and a bill of twenty digits helps nobody.
 */
export const PROFILE_FIELDS = {
  pollsPerDay: { unit: 'polls/day', min: 0, max: 1e6, description: 'polls created a day (0.1: one every ten days)' },
  votesPerPoll: { unit: 'votes', min: 0, max: 1e9, description: 'votes each poll gets' },
  votingMinutes: {
    unit: 'minutes',
    min: 1,
    max: POLL_LIMITS.maxLifetimeMinutes,
    description: 'how long a poll is open: the window its votes arrive in',
  },
  busyHourFactor: {
    unit: 'x',
    min: 1,
    max: 24,
    description: "the busiest hour brings this multiple of the day's average polls",
  },
  busiestMinuteFactor: {
    unit: 'x',
    min: 1,
    max: 1000,
    description: "a poll's busiest minute brings this multiple of its window's average votes (at most votingMinutes)",
  },
  pageLoadsPerVoter: { unit: 'visits/vote', min: 0, max: 100, description: 'visits to the site per vote' },
  resultsViewersPerPoll: {
    unit: 'viewers',
    min: 0,
    max: 1e9,
    description: 'people per poll watching live results (voters who stay, and watchers)',
  },
  watchMinutes: {
    unit: 'minutes',
    min: 0,
    max: POLL_LIMITS.maxLifetimeMinutes,
    description: 'how long each viewer keeps the results on screen (at most votingMinutes)',
  },
  peakRequestsPerSecond: {
    unit: 'requests/s',
    min: 0,
    max: 1e8,
    description: 'optional: raises the derived busiest second; a value below it is refused',
  },
  pageBytes: { unit: 'bytes', min: 0, max: 1e8, description: 'bytes a visit transfers (the page, gzipped)' },
  apiResponseBytes: {
    unit: 'bytes',
    min: 0,
    // Lambda's response limit.
    max: 6 * 1024 * 1024,
    description: 'bytes of one API answer on the wire, headers included',
  },
} as const satisfies Record<string, ProfileField>;
type NumberField = keyof typeof PROFILE_FIELDS;

/** The fields that are not numbers: what they take. */
export const OTHER_PROFILE_FIELDS = {
  refresh:
    `"busy" (the page refreshes at its fastest, every ${MIN_REFRESH_SECONDS} s), "quiet" (it backs off), ` +
    `or seconds (at least ${MIN_REFRESH_SECONDS})`,
  oneVotePerVoter: 'true or false: a voter claim is written per vote',
  region: 'an AWS Region code (e.g. eu-central-1): the region to price, unless --region says another',
  viewersIn:
    `where the page's viewers are, as CloudFront bills them (${EDGE_LOCATIONS.join(', ')}); ` +
    'by default near the region priced',
  currency: `the answer's currency, AWS's dollars beside (${CURRENCIES.join(', ')}), unless --currency says another`,
  vps:
    'your box, beside AWS in the answer, unless --vps says another: {"name": "Hetzner CX23", "price": 5.49, ' +
    '"currency": "EUR", "vcpus": 2, "cpu": "shared" or "dedicated", "location": "Falkenstein" (optional)}, ' +
    'or the text --vps takes',
  name: "text: the profile's name",
  description: 'text: what it describes',
} as const;

/**
 * pageBytes: the one page, gzipped (npm run build:site; a test keeps them equal); apiResponseBytes:
 * a results answer with its headers; a weekday's busiest hour at three times its average.
 */
const DEFAULTS = { pageLoadsPerVoter: 1, pageBytes: 9_500, apiResponseBytes: 450, busyHourFactor: 3 } as const;

/** The presets --profile names. */
export const PROFILES: Record<string, TrafficProfile> = {
  seed: {
    ...DEFAULTS,
    name: 'seed',
    description:
      'The VPS poll platform’s claim: 100 polls a day, each open 30 minutes with 5,000 votes (15 M votes a ' +
      'month); a poll’s busiest minute brings 2x its average votes, the busiest hour 3x the day’s polls. ' +
      'Each voter watches the results for 2 minutes while votes pour in: the seed’s ~350 requests/s on average.',
    pollsPerDay: 100,
    votesPerPoll: 5000,
    votingMinutes: 30,
    busiestMinuteFactor: 2,
    resultsViewersPerPoll: 5000,
    watchMinutes: 2,
    refresh: 'busy',
    oneVotePerVoter: false,
  },
  club: {
    ...DEFAULTS,
    name: 'club',
    description:
      'A tiny club: a poll every few days (0.3 a day), open 60 minutes; 40 members vote, half of them in the ' +
      'first few minutes (the busiest minute at 5x the average), and glance at the results for 3 minutes.',
    pollsPerDay: 0.3,
    votesPerPoll: 40,
    votingMinutes: 60,
    busiestMinuteFactor: 5,
    resultsViewersPerPoll: 40,
    watchMinutes: 3,
    refresh: 'quiet',
    oneVotePerVoter: true,
  },
  'tv-show': {
    ...DEFAULTS,
    name: 'tv-show',
    description:
      'A weekly TV show with one hot poll: 2 M votes in a 10-minute window, the busiest minute at 3x the ' +
      'window’s average when the host says "vote now"; 500,000 viewers watch the bars move for those 10 minutes.',
    pollsPerDay: 4 / 30,
    votesPerPoll: 2_000_000,
    votingMinutes: 10,
    busiestMinuteFactor: 3,
    resultsViewersPerPoll: 500_000,
    watchMinutes: 10,
    refresh: 'busy',
    oneVotePerVoter: true,
  },
  'record-night': {
    ...DEFAULTS,
    name: 'record-night',
    description:
      'A record night, after Big Brother Brasil 2021’s 2,988,000 votes in one minute (~50,000 a second) on one ' +
      'poll: weekly, 29.88 M votes in a 30-minute window whose busiest minute brings 3x its average; voters ' +
      'vote again and again (20 votes a visit: 0.05 visits a vote), and 400,000 people watch the results for ' +
      'the 30 minutes.',
    pollsPerDay: 4 / 30,
    votesPerPoll: 29_880_000,
    votingMinutes: 30,
    busiestMinuteFactor: 3,
    pageLoadsPerVoter: 0.05,
    resultsViewersPerPoll: 400_000,
    watchMinutes: 30,
    refresh: 'busy',
    oneVotePerVoter: false,
  },
};

/** A profile that describes no month the model is meant for; `field` names the first bad field. */
export class ProfileError extends NamedError {
  override readonly name = 'ProfileError';
  constructor(
    readonly field: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A month's votes, and a month's minutes of results on screen, at most: a trillion each. */
export const MONTHLY_LIMIT = 1e12;

/** A profile file's contents over a preset; throws ProfileError unless it is a JSON object of valid fields. */
export function profileFromJson(raw: unknown, name: string, base: TrafficProfile = PROFILES.seed): TrafficProfile {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ProfileError(
      '(profile)',
      'A profile file must hold a JSON object of profile fields, like {"votesPerPoll": 200} ' +
        `(got ${Array.isArray(raw) ? 'an array' : JSON.stringify(raw)?.slice(0, 40)}).`,
    );
  }
  return validateProfile({ name, description: `from ${name}`, ...raw }, base);
}

/** A preset by name; undefined for anything else (also for names like `constructor`). */
export const presetProfile = (name: string): TrafficProfile | undefined =>
  Object.hasOwn(PROFILES, name) ? PROFILES[name] : undefined;

/** Checks a profile (e.g. from a JSON file, over a preset); throws ProfileError naming the first bad field. */
export function validateProfile(input: unknown, base: TrafficProfile = PROFILES.seed): TrafficProfile {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new ProfileError('(profile)', 'A profile must be a JSON object.');
  const raw = input as Record<string, unknown>;
  const known = new Set<string>([...Object.keys(PROFILE_FIELDS), ...Object.keys(OTHER_PROFILE_FIELDS)]);
  const unknown = Object.keys(raw).find((key) => !known.has(key));
  if (unknown)
    throw new ProfileError(unknown, `Unknown profile field "${unknown}". Known fields: ${[...known].join(', ')}.`);
  // A preset's peak override is its own: a file over it derives its peak anew unless it gives one.
  const { peakRequestsPerSecond: _basePeak, ...rest } = base;
  const profile = { ...rest, ...raw } as TrafficProfile;
  try {
    checkNumbers(profile);
    checkVolumes(profile);
    checkTiming(profile);
    checkOthers(profile);
    checkPeakOverride(profile);
  } catch (error) {
    throw error instanceof ProfileError ? namingPreset(error, raw, base) : error;
  }
  return profile;
}

/** A bound broken with a field the input left out says that field is the preset's, and how to set it. */
function namingPreset(error: ProfileError, raw: Record<string, unknown>, base: TrafficProfile): ProfileError {
  const inherited = Object.keys(PROFILE_FIELDS).filter(
    (field) => !Object.hasOwn(raw, field) && new RegExp(`\\b${field}\\b`).test(error.message),
  );
  if (inherited.length === 0) return error;
  const fields = inherited.map((field) => `"${field}"`).join(' and ');
  return new ProfileError(
    error.field,
    `${error.message.replace(/([^.])$/, '$1.')} ${inherited.join(' and ')}: the ${base.name} preset's, ` +
      `which a profile starts from; set ${fields} in the profile to change ${inherited.length > 1 ? 'them' : 'it'}.`,
  );
}

/** Each number field within its range (the optional override only when given). */
function checkNumbers(profile: TrafficProfile): void {
  for (const [field, { min, max }] of Object.entries(PROFILE_FIELDS) as Array<[NumberField, ProfileField]>) {
    const value = profile[field];
    if (value === undefined && field === 'peakRequestsPerSecond') continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
      throw new ProfileError(
        field,
        `${field} must be a number from ${min} to ${max.toLocaleString('en-US')} (got ${JSON.stringify(value)}).`,
      );
    }
  }
}

/** A month of at most a trillion votes, and of minutes of results on screen: each names what to lower. */
function checkVolumes(profile: TrafficProfile): void {
  const monthlyPolls = profile.pollsPerDay * DAYS_PER_MONTH;
  const over = (amount: number, what: string, fields: string) =>
    `pollsPerDay × ${DAYS_PER_MONTH} × ${fields} is ${amount.toExponential(1)} ${what} a month, more than the ` +
    `trillion (${MONTHLY_LIMIT.toExponential(0)}) the model is meant for: lower one of them.`;
  const votes = monthlyPolls * profile.votesPerPoll;
  if (votes > MONTHLY_LIMIT) throw new ProfileError('votesPerPoll', over(votes, 'votes', 'votesPerPoll'));
  const watched = monthlyPolls * profile.resultsViewersPerPoll * profile.watchMinutes;
  if (watched > MONTHLY_LIMIT)
    throw new ProfileError(
      'resultsViewersPerPoll',
      over(watched, 'minutes of results watched', 'resultsViewersPerPoll × watchMinutes'),
    );
}

/** When things happen must fit together: viewers inside the window, a busiest minute inside it. */
function checkTiming(profile: TrafficProfile): void {
  if (profile.resultsViewersPerPoll > 0 && profile.watchMinutes === 0)
    throw new ProfileError('watchMinutes', 'watchMinutes must be above 0 when there are results viewers.');
  if (profile.watchMinutes > profile.votingMinutes)
    throw new ProfileError(
      'watchMinutes',
      `watchMinutes (${profile.watchMinutes}) must be at most votingMinutes (${profile.votingMinutes}): ` +
        'the page stops refreshing results when the poll closes.',
    );
  if (profile.busiestMinuteFactor > profile.votingMinutes)
    throw new ProfileError(
      'busiestMinuteFactor',
      `busiestMinuteFactor (${profile.busiestMinuteFactor}) must be at most votingMinutes ` +
        `(${profile.votingMinutes}): the busiest minute cannot bring more than all of a poll's votes.`,
    );
}

/** refresh, oneVotePerVoter, region, viewersIn, currency, vps, name and description. */
function checkOthers(profile: TrafficProfile): void {
  const refresh = profile.refresh;
  if (
    !(
      refresh === 'busy' ||
      refresh === 'quiet' ||
      (typeof refresh === 'number' && Number.isFinite(refresh) && refresh >= MIN_REFRESH_SECONDS)
    )
  ) {
    throw new ProfileError(
      'refresh',
      `refresh must be "busy", "quiet" or a number of seconds from ${MIN_REFRESH_SECONDS}, the page's fastest ` +
        `refresh (got ${JSON.stringify(refresh)}).`,
    );
  }
  if (typeof profile.oneVotePerVoter !== 'boolean') {
    throw new ProfileError(
      'oneVotePerVoter',
      `oneVotePerVoter must be true or false (got ${JSON.stringify(profile.oneVotePerVoter)}).`,
    );
  }
  if (profile.region !== undefined && !(typeof profile.region === 'string' && isRegion(profile.region)))
    throw new ProfileError(
      'region',
      `region must be an AWS Region code such as eu-central-1 (got ${JSON.stringify(profile.region)}).`,
    );
  if (profile.viewersIn !== undefined && !isEdgeLocation(profile.viewersIn))
    throw new ProfileError(
      'viewersIn',
      `viewersIn must be one of ${EDGE_LOCATIONS.join(', ')} (got ${JSON.stringify(profile.viewersIn)}).`,
    );
  if (profile.currency !== undefined && !CURRENCIES.includes(profile.currency))
    throw new ProfileError(
      'currency',
      `currency must be one of ${CURRENCIES.join(', ')} (got ${JSON.stringify(profile.currency)}): the ECB's rates ` +
        'in pricing/exchange-rates.json',
    );
  if (profile.vps !== undefined) {
    try {
      // The explorer and a URL give the box as --vps's text; a file, as an object.
      profile.vps = typeof profile.vps === 'string' ? parseBox(profile.vps) : checkBox(profile.vps);
    } catch (error) {
      // The field is the profile's (vps), the message names the part.
      if (error instanceof BadBox) throw new ProfileError('vps', `vps.${error.part}: ${error.message}.`);
      throw error;
    }
  }
  if (typeof profile.name !== 'string' || typeof profile.description !== 'string')
    throw new ProfileError('name', 'name and description must be strings.');
}

/** The override may only raise the peak the profile's own fields give. */
function checkPeakOverride(profile: TrafficProfile): void {
  if (profile.peakRequestsPerSecond === undefined) return;
  // Compared as the report prints it: whole requests a second.
  const derived = Math.round(derivePeak(profile).derivedRequestsPerSecond);
  if (Math.round(profile.peakRequestsPerSecond) < derived)
    throw new ProfileError(
      'peakRequestsPerSecond',
      `peakRequestsPerSecond (${profile.peakRequestsPerSecond.toLocaleString('en-US')}) is below the peak the ` +
        `profile's own fields give (${derived.toLocaleString('en-US')} req/s): it may only raise it; ` +
        'leave it out to use the derived one.',
    );
}

/** The profile fields as `--help` and docs/cost.md list them: name, unit, the seed's value, range, meaning. */
export function profileFieldLines(): string[][] {
  const seed = PROFILES.seed as unknown as Record<string, unknown>;
  const numbers = (Object.entries(PROFILE_FIELDS) as Array<[NumberField, ProfileField]>).map(([field, f]) => [
    field,
    f.unit,
    seed[field] === undefined ? '(derived)' : String(seed[field]),
    `${f.min} to ${f.max.toLocaleString('en-US')}`,
    f.description,
  ]);
  const others = Object.entries(OTHER_PROFILE_FIELDS).map(([field, takes]) => [
    field,
    '',
    seed[field] === undefined || ['name', 'description'].includes(field) ? '' : String(seed[field]),
    '',
    takes,
  ]);
  return [...numbers, ...others];
}
