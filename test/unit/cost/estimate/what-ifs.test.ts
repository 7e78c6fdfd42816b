/**
 * What-ifs (cost/estimate/what-ifs.ts): the same month with one setting changed, biggest change first, each
 * against the bill it changes.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../../cost/estimate/model';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { PROFILES } from '../../../../cost/usage/profiles';
import type { StackConfig } from '../../../../cost/estimate/stack-config';
import { whatIfs } from '../../../../cost/estimate/what-ifs';
import { designStack } from '../../../support/cost';
import { BILL } from '../../../support/prices';

const stack = designStack();
const priced = (s: StackConfig = stack) => {
  const baseline = estimate(PROFILES.seed, s, DEFAULT_UNIT_COSTS, BILL);
  return { baseline, ifs: whatIfs(PROFILES.seed, s, DEFAULT_UNIT_COSTS, BILL, baseline) };
};

describe('what-ifs', () => {
  const { baseline, ifs } = priced();
  const named = (name: string) => ifs.find((w) => w.name === name)!;

  it('lists each change once, the biggest change of the bill first, each as the difference from the baseline', () => {
    expect(ifs.map((w) => w.name).sort()).toEqual(
      [
        '1024 MB functions (same billed time)',
        '128 MB functions (same billed time)',
        '512 MB functions (same billed time)',
        'X-Ray tracing on (default sampling)',
        'no carpooling: batch size 1, one counter write per vote',
        'nobody watches live results (votes and page loads only)',
        'one vote per voter on',
        'plain-text logs (START/END/REPORT lines kept)',
        'viewers refresh every 5 s regardless (no back-off)',
        'x86_64 instead of arm64',
      ].sort(),
    );
    const sizes = ifs.map((w) => Math.abs(w.deltaUsd));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    for (const w of ifs) expect(w.deltaUsd, w.name).toBeCloseTo(w.bill.totalUsd - baseline.totalUsd, 9);
  });

  it('changes only the setting it names', () => {
    // The same GB-seconds, billed at the x86 price instead of arm64's: dearer.
    const x86 = named('x86_64 instead of arm64');
    expect(x86.bill.usage.gbSeconds).toEqual({ arm64: 0, x86_64: baseline.usage.gbSeconds.arm64 });
    expect(x86.deltaUsd).toBeGreaterThan(0);
    // Half the memory for the same billed time: half the GB-seconds.
    const small = named('128 MB functions (same billed time)');
    expect(small.bill.usage.gbSeconds.arm64).toBeCloseTo(baseline.usage.gbSeconds.arm64 / 2, 3);
    expect(small.bill.usage.apiRequests).toBe(baseline.usage.apiRequests);
    // A batch per vote: an invocation and a counter write each.
    const single = named('no carpooling: batch size 1, one counter write per vote').bill.usage;
    expect(single.invocations.countVotes).toBe(baseline.usage.votes);
    expect(single.invocations.countVotes).toBeGreaterThan(baseline.usage.invocations.countVotes);
    expect(named('X-Ray tracing on (default sampling)').bill.usage.xrayTraces).toBeGreaterThan(0);
    expect(baseline.usage.xrayTraces).toBe(0);
    const noViewers = named('nobody watches live results (votes and page loads only)');
    expect(noViewers.bill.usage.resultsRequests).toBe(0);
    expect(noViewers.bill.usage.votes).toBe(baseline.usage.votes);
    expect(noViewers.deltaUsd).toBeLessThan(0);
  });

  // What each setting may move in the month's usage; every other field must be the baseline's to the unit.
  const RESULTS_READS = [
    'resultsRequests',
    'apiRequests',
    'clientRequests',
    'invocations.getResults',
    // The cold-start share follows the results function's traffic.
    'coldStartShares.getResults',
    'gbSeconds',
    'functionGbSeconds',
    'readUnits',
    'apiTransferGb',
  ];
  it.each([
    // By function, GB-seconds do not say which architecture: arm64 or x86_64, the same seconds.
    ['x86_64 instead of arm64', ['gbSeconds']],
    ['128 MB functions (same billed time)', ['gbSeconds', 'functionGbSeconds']],
    ['512 MB functions (same billed time)', ['gbSeconds', 'functionGbSeconds']],
    ['1024 MB functions (same billed time)', ['gbSeconds', 'functionGbSeconds']],
    [
      'no carpooling: batch size 1, one counter write per vote',
      [
        'invocations.countVotes',
        'coldStartShares.countVotes',
        'gbSeconds',
        'functionGbSeconds',
        'sqsRequests',
        'writeUnits',
        'logsGb',
        'logsStoredGb',
      ],
    ],
    ['plain-text logs (START/END/REPORT lines kept)', ['logsGb', 'logsStoredGb']],
    ['X-Ray tracing on (default sampling)', ['xrayTraces']],
    ['one vote per voter on', ['writeUnits', 'storageGb']],
    ['viewers refresh every 5 s regardless (no back-off)', RESULTS_READS],
    ['nobody watches live results (votes and page loads only)', RESULTS_READS],
  ])('%s leaves every other field of the usage unchanged', (name, mayChange) => {
    const flat = (usage: object, prefix = ''): Array<[string, unknown]> =>
      Object.entries(usage).flatMap(([key, value]) =>
        key === 'invocations' || key === 'coldStartShares'
          ? flat(value, `${key}.`)
          : [[prefix + key, value] as [string, unknown]],
      );
    const before = new Map(flat(baseline.usage));
    const changed = flat(named(name).bill.usage)
      .filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before.get(key)))
      .map(([key]) => key);
    expect(changed.length, name).toBeGreaterThan(0);
    expect(changed.filter((key) => !mayChange.includes(key))).toEqual([]);
  });

  it('offers only the memory sizes the stack does not have already, and flips one vote per voter', () => {
    const getResults = { ...stack.functions.getResults, memoryMb: 128 };
    const sizes = priced({ ...stack, functions: { ...stack.functions, getResults } })
      .ifs.map((w) => w.name)
      .filter((name) => name.includes(' MB functions'));
    expect(sizes.sort()).toEqual(['1024 MB functions (same billed time)', '512 MB functions (same billed time)']);
    const oneVote = { ...PROFILES.seed, oneVotePerVoter: true };
    const withClaims = whatIfs(
      oneVote,
      stack,
      DEFAULT_UNIT_COSTS,
      BILL,
      estimate(oneVote, stack, DEFAULT_UNIT_COSTS, BILL),
    );
    expect(withClaims.map((w) => w.name)).toContain('one vote per voter off');
  });
});
