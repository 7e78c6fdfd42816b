/**
 * The ways AWS can serve this app (cost/estimate/designs.ts): each deployable design priced from its own
 * template, the WebSocket estimate, the AWS floor, and the worst a flood of the function URL costs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { awsFloor, DEPLOYABLE_DESIGNS, floodCeiling, priceDesigns } from '../../../../cost/estimate/designs';
import { estimate } from '../../../../cost/estimate/model';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { PROFILES } from '../../../../cost/usage/profiles';
import { designStack } from '../../../support/cost';
import { US_EAST_1, BILL } from '../../../support/prices';

const stacks = Object.fromEntries(DEPLOYABLE_DESIGNS.map((d) => [d.id, designStack(d.context)]));

describe('the designs', () => {
  it('keeps cost/estimate/designs.json equal to each design’s synthesized template (npm run cost:snapshot)', () => {
    expect(JSON.parse(readFileSync('cost/estimate/designs.json', 'utf8'))).toEqual(stacks);
  });

  it('lists every deployable design with the flags that deploy it, cheapest first, WebSocket as an estimate', () => {
    const priced = priceDesigns(PROFILES.seed, stacks, DEFAULT_UNIT_COSTS, BILL);
    expect(priced.map((d) => [d.id, d.deploy])).toEqual([
      ['function-url', 'npm run deploy -- -c results=function-url'],
      ['cloudfront', 'npm run deploy -- -c results=cloudfront'],
      ['websocket', undefined],
      ['api', 'npm run deploy'],
      ['api-rest', 'npm run deploy -- -c apiKind=rest'],
    ]);
    const totals = priced.map((d) => d.bill.totalUsd);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
  });

  it('bounds what a flood of the function URL costs an hour, from its concurrency cap', () => {
    // 200 instances x 10 req/s = 2,000 req/s = 7.2 M requests an hour, each at most:
    // Lambda request $0.20/M = 2e-7; 2 ms x 0.25 GB x $0.0000133334 = 6.667e-9;
    // a read 0.5 RRU x $0.125/M = 6.25e-8; 450 B out x $0.09 a GB of 2^30 bytes = 3.772e-8. Sum 3.0689e-7 x 7.2 M
    // = $2.2096.
    const flood = floodCeiling(stacks['function-url'], PROFILES.seed, DEFAULT_UNIT_COSTS, US_EAST_1)!;
    expect(flood).toMatchObject({ concurrency: 200, requestsPerSecond: 2000 });
    expect(flood.usdPerHour).toBeCloseTo(2.2096, 3);
    expect(
      floodCeiling(
        { ...stacks['function-url'], resultsConcurrency: undefined },
        PROFILES.seed,
        DEFAULT_UNIT_COSTS,
        US_EAST_1,
      ),
    ).toBeUndefined();
    expect(floodCeiling(stacks.api, PROFILES.seed, DEFAULT_UNIT_COSTS, US_EAST_1)).toBeUndefined();
  });
});

describe('the AWS floor', () => {
  it('puts the floor at every browser request at Lambda’s request price, nothing else', () => {
    // 15.003 M pages + 15.003 M creates and reads + 15 M votes + 15.003 M preflights + 900 M results
    // = 960.009 M x $0.20
    expect(awsFloor(estimate(PROFILES.seed, stacks.api, DEFAULT_UNIT_COSTS, BILL), US_EAST_1)).toEqual({
      requests: 960.009e6,
      usd: expect.closeTo(192.0018, 4),
      pricePerMillion: 0.2,
    });
  });
});
