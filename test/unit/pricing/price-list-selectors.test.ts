/** The Price List's names for each line: all declared, none read from AmazonEC2, usage types matched safely. */
import { describe, expect, it } from 'vitest';
import { PRICE_IDS, PRICE_LINES } from '../../../pricing/price-lines';
import {
  isListed,
  type ListedLine,
  SELECTORS,
  usageTypePattern,
  wantedAttributes,
} from '../../../pricing/price-list-selectors';
import { REGIONS } from '../../../pricing/regions';

const listed = PRICE_IDS.filter((id) => isListed(SELECTORS[id])).map(
  (id) => [id, SELECTORS[id] as ListedLine] as const,
);

describe('the selectors', () => {
  it('declare every line of the bill, and only those', () => {
    expect(Object.keys(SELECTORS).sort()).toEqual([...PRICE_IDS].sort());
  });

  it('never read AmazonEC2 (hundreds of MB a region), and read each offer from one kind of file', () => {
    expect(listed.filter(([, line]) => line.offer === 'AmazonEC2')).toEqual([]);
    const kinds = new Map<string, Set<string>>();
    for (const [, line] of listed) kinds.set(line.offer, (kinds.get(line.offer) ?? new Set()).add(line.file));
    expect([...kinds].filter(([, files]) => files.size > 1)).toEqual([]);
  });

  it("convert exactly: each listed line's `per` is a power of ten", () => {
    expect(listed.filter(([id]) => !/^10*$/.test(String(PRICE_LINES[id].per)))).toEqual([]);
  });

  it('say why for each line the Price List cannot give; only flat-rate plans are the same everywhere', () => {
    const unlisted = PRICE_IDS.filter((id) => !isListed(SELECTORS[id]));
    expect(unlisted).toEqual([
      'managedInstanceHours',
      'managedInstanceFee',
      'cloudFrontPlanFree',
      'cloudFrontPlanPro',
      'cloudFrontPlanBusiness',
      'cloudFrontPlanPremium',
    ]);
    const global = unlisted.filter((id) => (SELECTORS[id] as { global: boolean }).global);
    expect(global).toEqual(unlisted.filter((id) => id.startsWith('cloudFrontPlan')));
    for (const id of unlisted) expect((SELECTORS[id] as { unlisted: string }).unlisted.length).toBeGreaterThan(20);
  });

  it('pick CloudFront by the region’s viewers and regional products by its location name', () => {
    const frankfurt = REGIONS['eu-central-1'];
    expect(wantedAttributes(SELECTORS.cloudFrontTransfer as ListedLine, frankfurt)).toEqual({
      servicecode: 'AmazonCloudFront',
      productFamily: 'Data Transfer',
      fromLocation: 'Europe',
      transferType: 'CloudFront Outbound',
    });
    expect(wantedAttributes(SELECTORS.lambdaRequests as ListedLine, frankfurt)).toMatchObject({
      servicecode: 'AWSLambda',
      location: 'EU (Frankfurt)',
    });
  });
});

describe('a usage type', () => {
  const request = usageTypePattern(SELECTORS.lambdaRequests as ListedLine);
  const storage = usageTypePattern(SELECTORS.dynamoStorage as ListedLine);

  it('matches its name after any one region prefix, or none (us-east-1 often has none)', () => {
    for (const usageType of ['Request', 'EUC1-Request', 'EU-Request', 'APS1-Request'])
      expect(request.test(usageType), usageType).toBe(true);
  });

  it('is anchored at both ends: no other name that ends or starts with it', () => {
    for (const usageType of [
      'Request-ARM',
      'Global-Request',
      'EUC1-Provisioned-Request',
      'EUC1-EU-Request',
      'Request2',
    ])
      expect(request.test(usageType), usageType).toBe(false);
  });

  it("refuses a class's marker shaped like a prefix: DynamoDB's Standard-IA storage", () => {
    expect(storage.test('TimedStorage-ByteHrs')).toBe(true);
    expect(storage.test('EUC1-TimedStorage-ByteHrs')).toBe(true);
    expect(storage.test('IA-TimedStorage-ByteHrs')).toBe(false);
    expect(storage.test('EUC1-IA-TimedStorage-ByteHrs')).toBe(false);
  });
});
