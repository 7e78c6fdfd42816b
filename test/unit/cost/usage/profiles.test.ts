/**
 * Traffic profiles (cost/usage/profiles.ts): the presets, what a page load weighs, and a profile file's
 * mistakes named by field.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { derivePeak, peakWorking } from '../../../../cost/usage/peaks';
import {
  OTHER_PROFILE_FIELDS,
  PROFILE_FIELDS,
  presetProfile,
  profileFieldLines,
  profileFromJson,
  PROFILES,
  ProfileError,
  validateProfile,
} from '../../../../cost/usage/profiles';
import { buildSite } from '../../../../frontend/build';
import { pageWithConfig } from '../../../../frontend/page';

/** A number as a description writes it: 5000, or 2 M and 29.88 M from a million up (commas dropped). */
const asWritten = (n: number) => (n >= 1e6 ? `${n / 1e6} M` : String(n));

describe('profiles', () => {
  it('count a page load as the one page the site serves, gzipped as CloudFront sends it (within 5%)', () => {
    const page = pageWithConfig(buildSite().page, { apiUrl: 'https://abc.execute-api.us-east-1.amazonaws.com' });
    const gzipped = gzipSync(page).length;
    expect(
      Math.abs(PROFILES.seed.pageBytes - gzipped) / gzipped,
      `pageBytes ${PROFILES.seed.pageBytes}, the page ${gzipped} B gzipped`,
    ).toBeLessThan(0.05);
  });

  it.each([
    [{ votesPerPoll: -1 }, 'votesPerPoll', /votesPerPoll must be a number from 0 to 1,000,000,000 \(got -1\)/],
    [{ pollsPerDay: 1e9 }, 'pollsPerDay', /pollsPerDay must be a number from 0 to 1,000,000 \(got 1000000000\)/],
    [
      { pollsPerDay: 1e6, votesPerPoll: 1e9 },
      'votesPerPoll',
      /^pollsPerDay × 30 × votesPerPoll is 3\.0e\+16 votes a month, more than the trillion .*: lower one of them\.$/,
    ],
    [
      { pollsPerDay: 1e6, votesPerPoll: 1, resultsViewersPerPoll: 1e6, watchMinutes: 30 },
      'resultsViewersPerPoll',
      /^pollsPerDay × 30 × resultsViewersPerPoll × watchMinutes is 9\.0e\+14 minutes of results watched a month/,
    ],
    [{ pollsPerDay: 'lots' }, 'pollsPerDay', /pollsPerDay must be a number/],
    [{ refresh: 'sometimes' }, 'refresh', /refresh must be "busy", "quiet" or a number of seconds/],
    [{ viewers: 3 }, 'viewers', /Unknown profile field "viewers"/],
    [{ oneVotePerVoter: 'yes' }, 'oneVotePerVoter', /oneVotePerVoter must be true or false/],
    [{ refresh: 0.5 }, 'refresh', /number of seconds from 2, the page's fastest refresh \(got 0\.5\)/],
    [{ votingMinutes: 0 }, 'votingMinutes', /votingMinutes must be a number from 1 to 10,080 \(got 0\)/],
    [{ votingMinutes: 20_000 }, 'votingMinutes', /votingMinutes must be a number from 1 to 10,080/],
    [{ watchMinutes: 45 }, 'watchMinutes', /watchMinutes \(45\) must be at most votingMinutes \(30\)/],
    [
      { votingMinutes: 2, busiestMinuteFactor: 3, watchMinutes: 1 },
      'busiestMinuteFactor',
      /at most votingMinutes \(2\)/,
    ],
    [
      { peakRequestsPerSecond: 500 },
      'peakRequestsPerSecond',
      /\(500\) is below the peak the profile's own fields give \([\d,]+ req\/s\): it may only raise/,
    ],
    [{ region: 'mars-1' }, 'region', /^region must be an AWS Region code such as eu-central-1 \(got "mars-1"\)/],
    [{ region: 42 }, 'region', /^region must be an AWS Region code/],
  ])('names the bad field in %j', (input, field, message) => {
    try {
      validateProfile(input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ProfileError);
      expect((error as ProfileError).field).toBe(field);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('says when a broken bound is a field the file left to the preset, and how to set it', () => {
    const fromSeed = (field: string) =>
      `${field}: the seed preset's, which a profile starts from; set "${field}" in the profile to change it\\.$`;
    expect(() => profileFromJson({ votingMinutes: 1.5 }, 'short.json')).toThrow(
      new RegExp(`^watchMinutes \\(2\\) must be at most votingMinutes \\(1\\.5\\): .*\\. ${fromSeed('watchMinutes')}`),
    );
    // Both fields given: the message is the bound alone.
    expect(() => profileFromJson({ votingMinutes: 1.5, watchMinutes: 2 }, 'short.json')).toThrow(/the poll closes\.$/);
    expect(() => profileFromJson({ pollsPerDay: 1e6, resultsViewersPerPoll: 1e6 }, 'busy.json')).toThrow(
      new RegExp(`lower one of them\\. ${fromSeed('watchMinutes')}`),
    );
  });

  it('takes only a JSON object from a profile file, and no preset by an inherited name', () => {
    expect(() => profileFromJson([], 'list.json')).toThrow(/must hold a JSON object of profile fields.*got an array/);
    expect(() => profileFromJson('seed', 'text.json')).toThrow(ProfileError);
    expect(profileFromJson({ votesPerPoll: 7 }, 'mine.json')).toMatchObject({
      name: 'mine.json',
      votesPerPoll: 7,
      pollsPerDay: PROFILES.seed.pollsPerDay,
    });
    expect(presetProfile('constructor')).toBeUndefined();
    expect(presetProfile('club')).toBe(PROFILES.club);
  });

  it('raise the derived peak with peakRequestsPerSecond, and never lower it', () => {
    const derived = derivePeak(PROFILES.seed);
    const profile = validateProfile({ peakRequestsPerSecond: 2 * derived.requestsPerSecond });
    const raised = derivePeak(profile);
    expect(raised.requestsPerSecond).toBe(2 * derived.requestsPerSecond);
    expect(raised.routes.results).toBeCloseTo(2 * derived.routes.results, 6);
    expect(raised.derivedRequestsPerSecond).toBe(derived.requestsPerSecond);
    expect(peakWorking(profile, raised).at(-1)).toMatch(/the profile's peakRequestsPerSecond, above the derived 1,185/);
  });

  it('describe each preset with its own numbers', () => {
    for (const profile of Object.values(PROFILES)) {
      const text = profile.description.replace(/,/g, '');
      for (const field of ['votesPerPoll', 'votingMinutes', 'watchMinutes', 'resultsViewersPerPoll'] as const)
        expect(text, `${profile.name}: ${field}`).toContain(asWritten(profile[field]));
      expect(text, profile.name).toMatch(new RegExp(`${profile.busiestMinuteFactor}x`));
    }
  });

  it("list every field --help and docs/cost.md show, from the validator's own definitions", () => {
    const fields = profileFieldLines().map(([field]) => field);
    expect(fields).toEqual([...Object.keys(PROFILE_FIELDS), ...Object.keys(OTHER_PROFILE_FIELDS)]);
    expect(() => validateProfile({ [fields[0]]: PROFILE_FIELDS.pollsPerDay.max + 1 })).toThrow(ProfileError);
    const page = readFileSync('docs/cost.md', 'utf8');
    for (const [field, ...rest] of profileFieldLines())
      expect(page, `docs/cost.md's profile fields: ${field}`).toContain(`| \`${field}\` | ${rest.join(' | ')} |`);
  });

  it('accepts every preset', () => {
    for (const profile of Object.values(PROFILES)) expect(validateProfile(profile)).toEqual(profile);
  });
});
