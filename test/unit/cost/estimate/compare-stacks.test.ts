/**
 * The cost of a change (cost/estimate/compare-stacks.ts, cost/report/compare-lines.ts, cost/compare-command.ts):
 * two templates of this app, the committed ones (test/fixtures/templates/) and copies changed as a pull request
 * would change them, priced for the seed profile line by line, with why each line moved and what changed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadVpsCapacity, reportInput } from '../../../../cost/report-files';
import { type CompareOptions, compareInput, compareOutput, gateFailure } from '../../../../cost/compare-command';
import { usd } from '../../../../cost/estimate/format';
import { EXCHANGE_RATES, fromUsd, UnknownCurrency } from '../../../../pricing/exchange-rates';
import { buildReport } from '../../../../cost/estimate/build-report';
import { compareStacks, type StackComparison } from '../../../../cost/estimate/compare-stacks';
import { readStack } from '../../../../cost/estimate/stack-config';
import { iamBroadening } from '../../../../cost/estimate/stack-diff';
import {
  COMMENT_MARKER,
  compareJson,
  renderCompareMarkdown,
  renderCompareText,
} from '../../../../cost/report/compare-lines';
import { PROFILES } from '../../../../cost/usage/profiles';
import { DEFAULT_UNIT_COSTS } from '../../../../cost/usage/unit-costs';
import { NoViewersBook, readPriceBook } from '../../../../pricing/price-book';
import { pricesLine } from '../../../../pricing/book-words';
import { committedTemplate, templatePath } from '../../../support/templates';

type Json = any;

const BOOK = readPriceBook('us-east-1');
const side = (template: Json, source: string) => ({
  template,
  reading: readStack(template),
  source,
  options: { book: BOOK },
});

/** The default design's committed template against `head`: the committed function-URL one, or a changed copy. */
function compare(head: Json, base: Json = committedTemplate('default')): StackComparison {
  return compareStacks({
    profile: PROFILES.seed,
    units: DEFAULT_UNIT_COSTS,
    vpsCapacity: loadVpsCapacity(undefined),
    base: side(base, 'base'),
    head: side(head, 'head'),
  });
}

/** The default template with a change made to its copy. */
function changed(change: (resources: Record<string, Json>) => void): Json {
  const template = committedTemplate('default');
  change(template.Resources);
  return template;
}

const idOf = (template: Json, prefix: string) => Object.keys(template.Resources).find((id) => id.startsWith(prefix))!;
const CENTS = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
const OPTIONS: CompareOptions = { profile: 'seed', 'new-account': false, format: 'text', 'quiet-if-unchanged': false };

describe('the cost of a change', () => {
  it('moves the total by exactly the difference of the two designs’ totals, as the report prices them', () => {
    const c = compare(committedTemplate('function-url'));
    const designs = buildReport(
      reportInput({ profile: 'seed', template: templatePath('default'), 'new-account': false }),
    ).designs;
    const total = (id: string) => designs.find((d) => d.id === id)!.bill.totalUsd;
    expect(c.total.deltaUsd).toBeCloseTo(total('function-url') - total('api'), 9);
    expect(c.total.deltaUsd).toBeLessThan(-1);
    expect([c.base.design, c.head.design]).toEqual(['api', 'function-url']);
    // Each line's delta adds up to the total's.
    expect(c.lines.reduce((sum, l) => sum + l.deltaUsd, 0)).toBeCloseTo(c.total.deltaUsd, 9);
    const api = c.lines.find((l) => l.priceId === 'httpApiRequests')!;
    expect(api.moved).toBe(true);
    expect(api.reasons.join()).toContain('the results design api → function-url');
    // The function URL is public: a broadening a reviewer sees beside the dollars.
    expect(c.iam.some((g) => g.type === 'AWS::Lambda::Url' && g.wildcard)).toBe(true);
    expect(c.resources.filter((r) => r.symbol === '+').map((r) => r.type)).toContain('AWS::Lambda::Url');
  });

  it('multiplies one function’s GB-seconds by its memory’s factor, names it, and moves no other line', () => {
    let fnId = '';
    const c = compare(
      changed((resources) => {
        fnId = Object.keys(resources).find(
          (id) => id.startsWith('GetResults') && resources[id].Type.endsWith('Function'),
        )!;
        resources[fnId].Properties.MemorySize *= 4;
      }),
    );
    const gbSeconds = (s: typeof c.base) => s.bill.usage.functionGbSeconds!.getResults;
    expect(gbSeconds(c.head) / gbSeconds(c.base)).toBeCloseTo(4, 9);
    const moved = c.lines.filter((l) => l.moved);
    expect(moved.map((l) => l.priceId)).toEqual(['lambdaArmGbSeconds']);
    expect(moved[0].reasons).toEqual([`${fnId} MemorySize 256 → 1024: GB-s of that function x4`]);
    expect(c.total.deltaUsd).toBeGreaterThan(0);
    expect(renderCompareText(c)).toContain(`${fnId} MemorySize 256 → 1024`);
  });

  it('lists a KMS key and a WAF web ACL added as not priced, moves no dollar, and says so above the fold', () => {
    const c = compare(
      changed((resources) => {
        resources.KeyA1B2 = { Type: 'AWS::KMS::Key', Properties: {} };
        resources.WebAcl = { Type: 'AWS::WAFv2::WebACL', Properties: { Scope: 'CLOUDFRONT' } };
      }),
    );
    expect(c.total.deltaUsd).toBe(0);
    expect(c.notPricedAdded.map((n) => `${n.type} ${n.logicalId}`)).toEqual([
      'AWS::KMS::Key KeyA1B2',
      'AWS::WAFv2::WebACL WebAcl',
    ]);
    const markdown = renderCompareMarkdown(c);
    const fold = markdown.slice(0, markdown.indexOf('<details>'));
    expect(fold).toContain('no dollar moves');
    expect(fold).toContain('**Not priced**');
    expect(fold).toContain('`AWS::KMS::Key KeyA1B2`');
    expect(fold).toContain('`AWS::WAFv2::WebACL WebAcl`');
  });

  it('flags a stateful replacement: a table whose key or logical id changes, a queue made another kind', () => {
    const base = committedTemplate('default');
    const table = idOf(base, 'PollTable');
    const queue = idOf(base, 'VotesVoteQueue');
    const keyChanged = compare(
      changed((resources) => {
        resources[table].Properties.KeySchema = [{ AttributeName: 'other', KeyType: 'HASH' }];
        resources[queue].Properties.QueueName = 'votes-renamed.fifo';
      }),
    );
    const replaced = keyChanged.resources.filter((r) => r.impact === 'replace');
    expect(replaced.map((r) => [r.logicalId, r.stateful])).toEqual([
      [table, true],
      [queue, true],
    ]);
    expect(renderCompareText(keyChanged)).toContain('[~] KeySchema (requires replacement)');
    const renamed = compare(
      changed((resources) => {
        resources.PollTableRenamed = resources[table];
        delete resources[table];
      }),
    );
    const gone = renamed.resources.find((r) => r.logicalId === table)!;
    expect(gone).toMatchObject({ symbol: '-', impact: 'destroy', replacedBy: 'PollTableRenamed', stateful: true });
    const markdown = renderCompareMarkdown(renamed);
    expect(markdown.slice(0, markdown.indexOf('<details>'))).toContain('**Stateful resources replaced or destroyed**');
  });

  it('leaves out what the CDK records of itself, as cdk diff does, and prints no long value', () => {
    const metadata = (analytics: string) => ({ Type: 'AWS::CDK::Metadata', Properties: { Analytics: analytics } });
    const base = changed((resources) => {
      resources.CDKMetadata = metadata('v2:deflate64:A');
    });
    const c = compare(
      changed((resources) => {
        resources.CDKMetadata = metadata('v2:deflate64:B');
        const fn = Object.keys(resources).find(
          (id) => id.startsWith('CastVote') && resources[id].Type.endsWith('Function'),
        )!;
        resources[fn].Properties.Description = 'x'.repeat(200);
      }),
      base,
    );
    expect(c.resources.map((r) => [r.type, r.properties.map((p) => p.name)])).toEqual([
      ['AWS::Lambda::Function', ['Description']],
    ]);
    expect(renderCompareText(c)).toMatch(/└─ \[~\] Description$/m);
  });

  it('flags IAM broadening, and not a statement that only moved', () => {
    const base = committedTemplate('default');
    const policy = idOf(base, 'GetResultsServiceRoleDefaultPolicy');
    const c = compare(
      changed((resources) => {
        resources[policy].Properties.PolicyDocument.Statement.push({
          Effect: 'Allow',
          Action: 'dynamodb:*',
          Resource: '*',
        });
      }),
    );
    expect(c.iam).toEqual([
      { logicalId: policy, type: 'AWS::IAM::Policy', grant: 'Allow dynamodb:* on *', wildcard: true },
    ]);
    expect(compare(committedTemplate('default')).iam).toEqual([]);
  });

  it('gives JSON of each line old, new and delta and the total, and markdown under 64 KB with its marker first', () => {
    const c = compare(committedTemplate('function-url'));
    const json = compareJson(c);
    expect(json.total).toEqual({ old: c.base.bill.totalUsd, new: c.head.bill.totalUsd, delta: c.total.deltaUsd });
    for (const line of json.lines) expect(line.new - line.old).toBeCloseTo(line.delta, 9);
    const markdown = renderCompareMarkdown(c);
    expect(markdown.startsWith(`${COMMENT_MARKER}\n`)).toBe(true);
    expect(markdown.length).toBeLessThan(65_536);
    // Each says the prices it is billed at: the region, the currency, the book's date.
    const { region, currency, published } = c.head.book;
    expect(json.prices).toEqual({ region, currency, published });
    expect(markdown).toContain(`_${pricesLine(c.head.book)}_`);
    expect(renderCompareText(c).split('\n')[1]).toBe(`  ${pricesLine(c.head.book)}`);
  });

  it('states the month and its change in --currency, the dollars beside; the lines and gates stay in dollars', () => {
    const c = compareInput({
      ...OPTIONS,
      'compare-to': templatePath('default'),
      template: templatePath('function-url'),
      currency: 'eur',
    });
    const { old, new: now, deltaUsd } = c.total;
    const eur = (usd: number) => `€${fromUsd(usd, 'EUR').toLocaleString('en-US', CENTS)}`;
    const text = renderCompareText(c).split('\n');
    expect(text[2]).toMatch(/^ {2}Converted at the ECB's reference rate of \d{4}-\d\d-\d\d: EUR 1 = USD [\d.]+ \(/);
    expect(text).toContain(
      `Monthly bill: ${eur(old)} (${usd(old)}) → ${eur(now)} (${usd(now)}) a month, −${eur(-deltaUsd)} ` +
        `(−${((-deltaUsd / old) * 100).toFixed(1)}%, −${usd(-deltaUsd)}); per million votes ` +
        `${usd(c.base.bill.usdPerMillionVotes!)} → ${usd(c.head.bill.usdPerMillionVotes!)}`,
    );
    // A bill line is AWS's, in dollars.
    expect(text.find((line) => line.startsWith('[~] API Gateway HTTP API requests:'))).toMatch(/\$[\d.,]+ → \$/);
    const markdown = renderCompareMarkdown(c);
    expect(markdown).toContain(`### Cost of this change, seed profile: −${eur(-deltaUsd)} (`);
    expect(markdown).toContain(`**${eur(old)} (${usd(old)}) → ${eur(now)} (${usd(now)})** a month`);
    const json = compareJson(c);
    expect(json.total).toEqual({ old, new: now, delta: deltaUsd });
    expect(json.inCurrency).toMatchObject({ currency: 'EUR', rates: { date: EXCHANGE_RATES.date } });
    expect(json.inCurrency!.total.delta).toBeCloseTo(fromUsd(deltaUsd, 'EUR'), 9);
    expect(gateFailure(c, { ...OPTIONS, 'fail-below': '-10' })).toMatch(/^The monthly bill moves -\$835.50 /);
    // In dollars, nothing added.
    expect(compareJson(compare(committedTemplate('function-url'))).inCurrency).toBeUndefined();
    expect(() => compareInput({ ...OPTIONS, 'compare-to': templatePath('default'), currency: 'XYZ' })).toThrow(
      UnknownCurrency,
    );
  });

  it('prices both sides for the profile as npm run cost does: where its viewers are', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'compare-profile-')), 'europe.json');
    writeFileSync(file, JSON.stringify({ ...PROFILES.seed, viewersIn: 'Europe' }));
    const options = { ...OPTIONS, profile: file, 'compare-to': templatePath('default') };
    // No book of a European region is shipped: both refuse alike, naming the book to fetch.
    expect(() => reportInput({ profile: file, template: templatePath('default'), 'new-account': false })).toThrow(
      NoViewersBook,
    );
    expect(() => compareInput({ ...options, template: templatePath('function-url') })).toThrow(NoViewersBook);
  });

  it('fails a gate past it, in either direction, in dollars or percent; is quiet when nothing changed', () => {
    const c = compare(committedTemplate('function-url'));
    const drop = (c.total.deltaUsd / c.total.old) * 100;
    expect(gateFailure(c, { ...OPTIONS, 'fail-above': '0' })).toBeUndefined();
    expect(gateFailure(c, { ...OPTIONS, 'fail-below': '-10' })).toMatch(
      /^The monthly bill moves -\$835.50 .* past --fail-below -10\.$/,
    );
    expect(gateFailure(c, { ...OPTIONS, 'fail-below': `${Math.floor(drop) - 1}%` })).toBeUndefined();
    expect(gateFailure(c, { ...OPTIONS, 'fail-below': `${Math.ceil(drop)}%` })).toMatch(/past --fail-below/);
    const back = compare(committedTemplate('default'), committedTemplate('function-url'));
    expect(gateFailure(back, { ...OPTIONS, 'fail-above': '10%' })).toMatch(/past --fail-above 10%/);
    const same = compare(committedTemplate('default'));
    expect(compareOutput(same, { ...OPTIONS, 'quiet-if-unchanged': true })).toEqual({ text: '' });
    expect(compareOutput(same, OPTIONS).text).toContain('This change moves no dollar');
  });
});

describe('IAM broadened, read as grants', () => {
  const POLICY = 'CastVoteServiceRoleDefaultPolicy839204C9';
  const changed = (edit: (statements: any[]) => void) => {
    const head = committedTemplate('default');
    edit(head.Resources[POLICY].Properties.PolicyDocument.Statement);
    return iamBroadening(committedTemplate('default').Resources, head.Resources);
  };
  const claims = (statements: any[]) => statements.find((s) => s.Condition);

  it('sees a condition taken off, and an action added', () => {
    expect(changed((statements) => delete claims(statements).Condition)).toEqual([
      expect.objectContaining({
        logicalId: POLICY,
        grant: 'Allow dynamodb:DeleteItem, dynamodb:PutItem on PollTableBC1AF04C',
      }),
    ]);
    expect(changed((statements) => claims(statements).Action.push('dynamodb:UpdateItem'))).toEqual([
      expect.objectContaining({ grant: expect.stringMatching(/^Allow dynamodb:UpdateItem on PollTableBC1AF04C if /) }),
    ]);
  });

  it('sees nothing in a statement reordered, written as a list, or narrowed', () => {
    expect(changed((statements) => claims(statements).Action.reverse())).toEqual([]);
    expect(changed((statements) => (statements[0].Resource = statements[0].Resource[0]))).toEqual([]);
    expect(changed((statements) => claims(statements).Action.pop())).toEqual([]);
  });
});
