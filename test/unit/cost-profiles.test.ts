/**
 * Traffic profiles (cost/profiles.ts): the presets, what a page load weighs, and a profile file's
 * mistakes named by field.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { presetProfile, profileFromJson, PROFILES, ProfileError, validateProfile } from '../../cost/profiles';
import { buildSite } from '../../frontend/build';
import { pageWithConfig } from '../../frontend/page';

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
    [{ pollsPerDay: 1e6, votesPerPoll: 1e9 }, 'pollsPerDay', /more than a trillion votes/],
    [{ pollsPerDay: 'lots' }, 'pollsPerDay', /pollsPerDay must be a number/],
    [{ refresh: 'sometimes' }, 'refresh', /refresh must be "busy", "quiet" or a number of seconds/],
    [{ viewers: 3 }, 'viewers', /Unknown profile field "viewers"/],
    [{ oneVotePerVoter: 'yes' }, 'oneVotePerVoter', /oneVotePerVoter must be true or false/],
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

  it('accepts every preset', () => {
    for (const profile of Object.values(PROFILES)) expect(validateProfile(profile)).toEqual(profile);
  });
});
