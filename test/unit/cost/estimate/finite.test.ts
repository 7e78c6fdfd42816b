/**
 * Every profile the validator accepts gets a report of finite figures: profiles drawn across each
 * field's documented range, its ends and zeros included (fast-check), priced and rendered as text,
 * Markdown, HTML, the chart and JSON, with no NaN, Infinity, null or undefined where a figure belongs, and
 * no bill below $0.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderChart } from '../../../../cost/report/chart';
import { loadDesigns, loadVpsCapacity } from '../../../../cost/report-files';
import { DAYS_PER_MONTH, type TrafficProfile } from '../../../../cost/usage/traffic-profile';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { derivePeak } from '../../../../cost/usage/peaks';
import { MONTHLY_LIMIT, PROFILE_FIELDS, PROFILES, validateProfile } from '../../../../cost/usage/profiles';
import { renderAnswer, renderDetail } from '../../../../cost/report/render-text';
import { renderMarkdown } from '../../../../cost/report/render-markdown';
import { reportBodyHtml } from '../../../../cost/report/render-html';
import { buildReport } from '../../../../cost/estimate/build-report';
import { US_EAST_1 } from '../../../support/prices';

type NumberField = keyof typeof PROFILE_FIELDS;

/** A field's value: its ends, zero where allowed, a whole number or any number between. */
const fieldValue = (field: NumberField) => {
  const { min, max } = PROFILE_FIELDS[field];
  return fc.oneof(
    fc.constant(min),
    fc.constant(max),
    fc.integer({ min: Math.ceil(min), max: Math.min(1000, max) }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
  );
};

/** What the validator asks of fields together, made to hold: a draw is moved inside, never thrown away. */
function fitted(drawn: Record<NumberField, number>, refresh: TrafficProfile['refresh'], oneVote: boolean) {
  const p = { ...drawn };
  p.watchMinutes = Math.min(p.watchMinutes, p.votingMinutes);
  if (p.resultsViewersPerPoll > 0 && p.watchMinutes === 0) p.watchMinutes = Math.min(1, p.votingMinutes);
  p.busiestMinuteFactor = Math.min(p.busiestMinuteFactor, p.votingMinutes);
  const polls = p.pollsPerDay * DAYS_PER_MONTH;
  if (polls * p.votesPerPoll > MONTHLY_LIMIT) p.votesPerPoll = (MONTHLY_LIMIT / polls) * 0.999_999;
  if (polls * p.resultsViewersPerPoll * p.watchMinutes > MONTHLY_LIMIT)
    p.resultsViewersPerPoll = (MONTHLY_LIMIT / (polls * p.watchMinutes)) * 0.999_999;
  const { peakRequestsPerSecond: raise, ...rest } = p;
  const profile = { ...PROFILES.seed, ...rest, refresh, oneVotePerVoter: oneVote, name: 'drawn', description: '' };
  // The override only raises the derived peak: drawn as a multiple of it, or left out.
  const derived = Math.ceil(derivePeak(profile).derivedRequestsPerSecond);
  const peak = raise > 0 && derived * (1 + raise / 1000) <= PROFILE_FIELDS.peakRequestsPerSecond.max;
  return validateProfile(peak ? { ...profile, peakRequestsPerSecond: derived * (1 + raise / 1000) } : profile);
}

const profiles = fc
  .tuple(
    fc.record(
      Object.fromEntries(Object.keys(PROFILE_FIELDS).map((f) => [f, fieldValue(f as NumberField)])) as Record<
        NumberField,
        fc.Arbitrary<number>
      >,
    ),
    fc.oneof(
      fc.constant('busy' as const),
      fc.constant('quiet' as const),
      fc.double({ min: 2, max: 3600, noNaN: true }),
    ),
    fc.boolean(),
  )
  .map(([drawn, refresh, oneVote]) => fitted(drawn, refresh, oneVote));

const designStacks = loadDesigns();
const vpsCapacity = loadVpsCapacity(undefined);

/** Every number in a value (a report), with its path, that is not finite. */
function nonFinite(value: unknown, path = '$', out: string[] = []): string[] {
  if (typeof value === 'number' && !Number.isFinite(value)) out.push(`${path} = ${value}`);
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) nonFinite(v, `${path}[${i}]`, out);
  else if (value && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) nonFinite(v, `${path}.${key}`, out);
  return out;
}

describe('every profile the validator accepts', () => {
  // 60 whole reports: ~8 s alone, a minute with the cores shared. The time limit is there for a hang, not a pace.
  it('gets finite figures in every report, and no bill below $0', { timeout: 240_000 }, () => {
    const zero = { ...PROFILES.seed, pollsPerDay: 0, votesPerPoll: 0 };
    fc.assert(
      fc.property(profiles, (profile) => {
        for (const newAccount of [false, true]) {
          const report = buildReport({
            profile,
            stack: designStacks.api,
            stackSource: 'cost/estimate/designs.json',
            designStacks,
            vpsCapacity,
            units: DEFAULT_UNIT_COSTS,
            options: { newAccount, book: US_EAST_1 },
          });
          expect(nonFinite(report)).toEqual([]);
          for (const bill of [report.bill, report.idle, ...report.designs.map((d) => d.bill)]) {
            expect(bill.totalUsd).toBeGreaterThanOrEqual(0);
            for (const line of bill.lines) expect(line.usd, line.item).toBeGreaterThanOrEqual(0);
          }
          const shown = [
            renderAnswer(report, []),
            renderDetail(report),
            renderMarkdown(report, 'chart.svg'),
            reportBodyHtml(report),
            renderChart(report),
          ].join('\n');
          expect(shown.match(/\bNaN\b|Infinity|\bundefined\b|\bnull\b/g) ?? []).toEqual([]);
        }
      }),
      {
        numRuns: 60,
        examples: [
          [zero],
          [{ ...zero, votesPerPoll: 100 }],
          [{ ...PROFILES.seed, votesPerPoll: 0 }],
          // Votes so few (polls a day next to the smallest double) that the writer's µs of the mix make no ceiling a
          // number can hold: found by this property in CI on 2026-11-26.
          [{ ...zero, pollsPerDay: 4.05529e-318, resultsViewersPerPoll: 1e9, refresh: 'busy' as const }],
        ],
      },
    );
  });
});
