/**
 * Traffic profiles: how a month of use looks, in the terms a poll owner knows.
 * Presets include the seed's own claim (15 M votes a month, ~350 req/s).
 */

export interface TrafficProfile {
  name: string;
  description: string;
  pollsPerDay: number;
  votesPerPoll: number;
  /** Visits to the site per voter (each: index.html and config.json; assets on a first visit). */
  pageLoadsPerVoter: number;
  /** People per poll watching live results (voters who stay, plus people who only watch). */
  resultsViewersPerPoll: number;
  /** Minutes each of them keeps the results on screen. */
  watchMinutes: number;
  /**
   * How often a viewer's page asks for results: `busy` (votes keep arriving, the page
   * refreshes at its fastest), `quiet` (it backs off), or a fixed number of seconds.
   */
  refresh: 'busy' | 'quiet' | number;
  oneVotePerVoter: boolean;
  /** The busiest second of the month, all routes: what a VPS must be sized for. */
  peakRequestsPerSecond: number;
  /** Bytes a visit transfers (the page, compressed): see README "The site". */
  pageBytes: number;
  /** Bytes of one API response on the wire, headers included. */
  apiResponseBytes: number;
}

/**
 * pageBytes: the one page, gzipped (npm run build:site; a test keeps them equal); apiResponseBytes:
 * a results answer with its headers.
 */
const DEFAULTS = { pageLoadsPerVoter: 1, pageBytes: 8_100, apiResponseBytes: 450 } as const;

/** The presets --profile names. */
export const PROFILES: Record<string, TrafficProfile> = {
  seed: {
    ...DEFAULTS,
    name: 'seed',
    description:
      'The VPS poll platform’s claim: 100 polls a day with 5,000 votes (15 M votes a month). ' +
      'Each voter watches the results for 2 minutes while votes pour in, ' +
      'which gives the seed’s ~350 requests/s average; peaks of ~2,000 req/s.',
    pollsPerDay: 100,
    votesPerPoll: 5000,
    resultsViewersPerPoll: 5000,
    watchMinutes: 2,
    refresh: 'busy',
    oneVotePerVoter: false,
    peakRequestsPerSecond: 2000,
  },
  club: {
    ...DEFAULTS,
    name: 'club',
    description: 'A tiny club: a poll every few days, 40 members vote and glance at the results for 3 minutes.',
    pollsPerDay: 0.3,
    votesPerPoll: 40,
    resultsViewersPerPoll: 40,
    watchMinutes: 3,
    refresh: 'quiet',
    oneVotePerVoter: true,
    peakRequestsPerSecond: 20,
  },
  'tv-show': {
    ...DEFAULTS,
    name: 'tv-show',
    description:
      'A weekly TV show with one hot poll: 2 M votes in a 10-minute window, ' +
      '500,000 viewers watching the bars move for those 10 minutes; peaks of 20,000 req/s.',
    pollsPerDay: 4 / 30,
    votesPerPoll: 2_000_000,
    resultsViewersPerPoll: 500_000,
    watchMinutes: 10,
    refresh: 'busy',
    oneVotePerVoter: true,
    peakRequestsPerSecond: 20_000,
  },
};

/** A profile that describes no month the model is meant for; `field` names the first bad field. */
export class ProfileError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProfileError';
  }
}

/**
 * Each number field and the largest value the model is meant for: beyond these a profile
 * describes no poll platform, and a bill of twenty digits helps nobody.
 */
const NUMBER_FIELDS = {
  pollsPerDay: 1e6,
  votesPerPoll: 1e9,
  pageLoadsPerVoter: 100,
  resultsViewersPerPoll: 1e9,
  /** A poll is open a week at most. */
  watchMinutes: 7 * 24 * 60,
  peakRequestsPerSecond: 1e8,
  pageBytes: 1e8,
  /** Lambda's response limit. */
  apiResponseBytes: 6 * 1024 * 1024,
} as const;
type NumberField = keyof typeof NUMBER_FIELDS;

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
  const known = new Set<string>([...Object.keys(NUMBER_FIELDS), 'name', 'description', 'refresh', 'oneVotePerVoter']);
  const unknown = Object.keys(raw).find((key) => !known.has(key));
  if (unknown)
    throw new ProfileError(unknown, `Unknown profile field "${unknown}". Known fields: ${[...known].join(', ')}.`);
  const profile = { ...base, ...raw } as TrafficProfile;
  for (const [field, max] of Object.entries(NUMBER_FIELDS) as Array<[NumberField, number]>) {
    const value = profile[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
      throw new ProfileError(
        field,
        `${field} must be a number from 0 to ${max.toLocaleString('en-US')} (got ${JSON.stringify(value)}).`,
      );
    }
  }
  const monthlyPolls = profile.pollsPerDay * 30;
  if (
    monthlyPolls * profile.votesPerPoll > MONTHLY_LIMIT ||
    monthlyPolls * profile.resultsViewersPerPoll * profile.watchMinutes > MONTHLY_LIMIT
  ) {
    throw new ProfileError(
      'pollsPerDay',
      'The profile adds up to more than a trillion votes, or minutes of results watched, a month ' +
        `(${(monthlyPolls * profile.votesPerPoll).toExponential(1)} votes): ` +
        `the model is meant for up to ${MONTHLY_LIMIT.toExponential(0)}.`,
    );
  }
  if (profile.resultsViewersPerPoll > 0 && profile.watchMinutes === 0) {
    throw new ProfileError('watchMinutes', 'watchMinutes must be above 0 when there are results viewers.');
  }
  const refresh = profile.refresh;
  if (
    !(
      refresh === 'busy' ||
      refresh === 'quiet' ||
      (typeof refresh === 'number' && Number.isFinite(refresh) && refresh > 0)
    )
  ) {
    throw new ProfileError(
      'refresh',
      `refresh must be "busy", "quiet" or a number of seconds above 0 (got ${JSON.stringify(refresh)}).`,
    );
  }
  if (typeof profile.oneVotePerVoter !== 'boolean') {
    throw new ProfileError(
      'oneVotePerVoter',
      `oneVotePerVoter must be true or false (got ${JSON.stringify(profile.oneVotePerVoter)}).`,
    );
  }
  if (typeof profile.name !== 'string' || typeof profile.description !== 'string')
    throw new ProfileError('name', 'name and description must be strings.');
  return profile;
}
