/**
 * The estimate as a person reads it, built and rendered by importing it: by default the answer (the verdict
 * first and last, in at most ~30 lines at 100 columns, its figures the tables'), with --detail the full working
 * in an order that never refers forward, and the same report as Markdown and HTML.
 */
import { pricesLine } from '../../../../pricing/book-words';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { POLL_READ_CACHE_SECONDS } from '../../../../config/caching';
import { reportInput } from '../../../../cost/report-files';
import { renderChart } from '../../../../cost/report/chart';
import { closingSentence, verdictLines, withoutFree } from '../../../../cost/report/answer';
import { designRps } from '../../../../cost/estimate/compare';
import { quantity, usd, votesLabel } from '../../../../cost/estimate/format';
import { CACHE_ORIGINS_PER_POLL } from '../../../../cost/estimate/shares';
import { PROFILES } from '../../../../cost/usage/profiles';
import { designRows } from '../../../../cost/report/design-lines';
import { vpsRows } from '../../../../cost/report/vps-lines';
import { renderAnswer, renderDetail } from '../../../../cost/report/render-text';
import { renderMarkdown } from '../../../../cost/report/render-markdown';
import { reportBodyHtml } from '../../../../cost/report/render-html';
import { buildReport, type CostReport } from '../../../../cost/estimate/build-report';
import { costReport, designStack, unwrapped } from '../../../support/cost';
import type { VpsMeasurement } from '../../../../cost/estimate/vps';

/** The committed bench:vps figures changed by `change`, in a file of their own for --vps-from. */
function writeMeasurement(change: (m: VpsMeasurement) => VpsMeasurement): string {
  const file = join(mkdtempSync(join(tmpdir(), 'vps-bench-')), 'vps.json');
  writeFileSync(file, JSON.stringify(change(JSON.parse(readFileSync('cost/estimate/vps-capacity.json', 'utf8')))));
  return file;
}
/** Every µs figure `by` times the committed one: a far slower machine. */
const scaleMicros = (m: VpsMeasurement, by: number): VpsMeasurement => {
  const scaled: VpsMeasurement = JSON.parse(JSON.stringify(m), (key, value) =>
    typeof value === 'number' && !['requestsPerSecond', 'cpus'].includes(key) && key !== '' ? value * by : value,
  );
  // The curve's counts are counts of workers, not µs.
  return m.workerCurve
    ? { ...scaled, workerCurve: { ...scaled.workerCurve!, workers: m.workerCurve.workers } }
    : scaled;
};

/** One pattern from parts written on lines of their own (flags on the whole). */
const joined = (flags: string, ...parts: RegExp[]) => new RegExp(parts.map((part) => part.source).join(''), flags);

const SMALL_SITE = 'test/fixtures/profiles/small-site.json';
const WHERE = ['The full working: npm run cost -- --detail', 'Reports: cost-report/report.html'];
const seed = costReport();
const text = unwrapped(renderDetail(seed));
/** The reports of every preset and of a small site's profile file. */
const reports = [...Object.keys(PROFILES), SMALL_SITE].map((profile) => costReport({ profile }));

describe('the answer, as npm run cost prints it', () => {
  it('fits ~30 lines of 100 columns for every preset and a small site, the verdict first and last', () => {
    for (const report of reports) {
      const lines = renderAnswer(report, WHERE).split('\n');
      const name = report.profile.name;
      // One line more where the stack synthesized is another design than the answer's (its name, and --detail);
      // the record night's box, sold in us-east-1's market, is named with the CDN in front of it: one more.
      const synthesized = lines.some((line) => line.startsWith('The stack you synthesized is another'));
      expect(lines.length, name).toBeLessThanOrEqual(synthesized ? 33 : 32);
      // The region, the currency and the book's date first.
      expect(lines[0], name).toBe(pricesLine(report.options.book));
      expect(Math.max(...lines.map((l) => l.length)), name).toBeLessThanOrEqual(100);
      // The verdict: which side is cheaper, AWS's month and command, the VPS's, the one break-even.
      const head = lines.slice(1, 6).join('\n');
      expect(head, name).toContain(usd(report.recommended.bill.totalUsd));
      expect(head, name).toContain(report.recommended.deploy!);
      expect(head, name).toContain(`${usd(report.answer.vps.totalUsd)}`);
      expect(head, name).toContain(report.answer.vps.name);
      if (report.answer.savingUsd !== undefined) expect(head, name).toContain(usd(report.answer.savingUsd));
      if (report.answer.breakEven.votes) expect(head, name).toContain(votesLabel(report.answer.breakEven.votes));
      // And again, in one sentence, at the end.
      expect(unwrapped(lines.join('\n')).split('\n').at(-1), name).toBe(closingSentence(report));
    }
  });

  it("gives the verdict's figures from the tables: the design's row, the box's row, their difference", () => {
    for (const report of reports) {
      const name = report.profile.name;
      const { recommended: r, answer } = report;
      const row = designRows(report)[report.designs.findIndex((d) => d.id === r.id)];
      expect(row[0], name).toBe(`${r.name} ←`);
      expect(verdictLines(report)[1], name).toContain(`AWS  ${row[1]} a month`);
      const box = vpsRows(report)[report.vps.indexOf(answer.vps)];
      expect(verdictLines(report)[3], name).toContain(box[6]);
      if (answer.savingUsd !== undefined)
        expect(answer.savingUsd, name).toBeCloseTo(Math.abs(r.bill.totalUsd - answer.vps.totalUsd), 9);
      // The box is the cheapest row that carries the peak, where one does.
      const carrying = report.vps.filter((v) => v.carries).map((v) => v.totalUsd);
      if (carrying.length > 0) expect(answer.vps.totalUsd, name).toBe(Math.min(...carrying));
      else expect(answer.vpsCarries, name).toBe(false);
      // The one break-even is between these two: the detail quotes the same figure.
      const detail = unwrapped(renderDetail(report));
      if (answer.breakEven.votes) expect(detail, name).toContain(votesLabel(answer.breakEven.votes));
      expect(answer.breakEven.tier, name).toBe(answer.vps.tier);
    }
  });

  it('gives one AWS price and one break-even: no default design beside it, no break-even with other boxes', () => {
    const answer = renderAnswer(seed, WHERE);
    const defaultDesign = seed.designs.find((d) => d.id === 'api')!;
    expect(defaultDesign.id).not.toBe(seed.recommended.id);
    expect(answer).not.toContain(usd(defaultDesign.bill.totalUsd));
    // The template read, another design, is named, and where its bill is.
    expect(answer).toContain(`The stack you synthesized is another: ${defaultDesign.name}. --detail bills it too.`);
    expect(unwrapped(answer).match(/[\d,.]+ [MB]? ?votes a month/g)).toEqual([
      `${votesLabel(seed.bill.votes)} a month`,
      `${votesLabel(seed.answer.breakEven.votes!)} a month`,
      `${votesLabel(seed.answer.breakEven.votes!)} a month`,
    ]);
    // The full working quotes no other break-even: the designs' and the VPS tiers' stay in report.json.
    const others = [...seed.designs.map((d) => d.breakEven.votes), ...seed.breakEven.map((b) => b.votes)]
      .filter((votes) => votes && votes !== seed.answer.breakEven.votes)
      .map((votes) => votesLabel(votes!));
    expect(others.length).toBeGreaterThan(1);
    for (const other of others) expect(text).not.toContain(other);
    expect(text).not.toMatch(/Break-even/);
  });

  it('shows a total without the always-free allowances where they change it by more than a few percent', () => {
    const small = reports.at(-1)!;
    const full = withoutFree(small.recommended)!;
    expect(full).toBeGreaterThan(small.recommended.bill.totalUsd * 1.05);
    expect(verdictLines(small)[1]).toContain(`(${usd(full)} without the always-free allowances)`);
    const night = costReport({ profile: 'record-night' });
    expect(withoutFree(night.recommended)).toBeUndefined();
    expect(verdictLines(night)[1]).not.toContain('without the always-free');
  });

  it("prices a domain's DNS on both sides, the Route 53 prices dated in the price sheet", () => {
    expect(unwrapped(renderAnswer(seed, WHERE))).toMatch(
      joined(
        'm',
        /^Your own domain adds: AWS \$0\.50 a month \(a Route 53 hosted zone; .*\), /,
        /the VPS \$0\.00 \(its provider's or CDN's DNS\)\.?$/,
      ),
    );
    const md = renderMarkdown(seed, 'chart.svg');
    expect(md).toMatch(
      /^\| Route 53 hosted zone \(your domain\) \| \$0\.5 → \$0\.1 per zone-month \| .+ \| \d{4}-\d\d-\d\d \|$/m,
    );
    expect(md).toMatch(
      /^\| Route 53 standard queries \| \$0\.4 → \$0\.2 per 1M queries \| .*alias .* \| \d{4}-\d\d-\d\d \|$/m,
    );
  });

  it('says what a measured run brings, on a line of its own', () => {
    const measured = costReport({ from: 'test/fixtures/load-run' });
    expect(renderAnswer(measured, WHERE)).toMatch(
      /^Per-operation usage measured by test\/fixtures\/load-run \(100 votes/m,
    );
  });
});

describe('the full working (--detail)', () => {
  it('reads top to bottom: the answer, the traffic, the designs, the chosen bill and stages, VPS, what-ifs', () => {
    const headings = [
      'The answer',
      'The traffic: profile "seed"',
      'Every AWS design',
      'The recommended design: results from a function URL',
      'The stack read, another design than the recommended',
      'On a VPS',
      'A domain',
      'What if… (the stack read: results via the HTTP API (textbook)',
      'Assumptions (* in the tables)',
      'In short',
    ];
    const at = headings.map((h) => `\n${text}`.indexOf(`\n${h}`));
    expect(at.every((i) => i >= 0) && at.every((i, k) => k === 0 || i > at[k - 1])).toBe(true);
    // Nothing points at what is still to come.
    expect(text).not.toMatch(/the bill above|report below|designs above|itemised bill is|see below/);
    expect(text).toMatch(/^- The busiest second: 1,185 requests\/s; the hottest poll 5\.56 votes\/s and 250 results/m);
    const designs = text.slice(text.indexOf('\nEvery AWS design'));
    expect(designs).toMatch(/^AWS design \(← the recommended\) +Monthly/m);
    expect(designs).toMatch(/^results from a function URL ← +\$312\.97/m);
    expect(designs).toMatch(/^results from a function URL +yes +results function URL: reserved .*\(56%\)$/m);
  });

  it('itemises the recommended design, and the stack read only as a section of its own where it differs', () => {
    const chosen = text.slice(text.indexOf('\nThe recommended design'), text.indexOf('\nThe stack read'));
    expect(chosen).toContain(`Total: ${usd(seed.recommended.bill.totalUsd)} a month`);
    const read = text.slice(text.indexOf('\nThe stack read'), text.indexOf('\nOn a VPS'));
    expect(read).toContain(`Total: ${usd(seed.bill.totalUsd)} a month`);
    // With the recommended design's own template read, its bill is the only one.
    const input = reportInput({ profile: 'seed', 'new-account': false });
    const same = buildReport({ ...input, stack: designStack({ results: 'function-url' }) });
    expect(same.design).toBe(same.recommended.id);
    const sameText = renderDetail(same);
    expect(sameText).not.toContain('The stack read, another design');
    expect(sameText.match(/^Total: /gm)).toHaveLength(1);
    // The same design with settings of its own (a smaller consumer batch) is billed apart, and said to be so.
    const fn = designStack({ results: 'function-url' });
    const stack = { ...fn, consumer: { ...fn.consumer, batchSize: 1 } };
    const tuned = buildReport({ ...input, stack, stackSource: 'cdk.out/ServerlessPoll.template.json' });
    expect(tuned.design).toBe(tuned.recommended.id);
    expect(renderAnswer(tuned, WHERE)).toContain(
      'The stack you synthesized is another: this design with other settings. --detail bills it too.',
    );
  });

  it('names the quota raises a hot poll needs, in the units of each row', () => {
    const tv = costReport({ profile: 'tv-show' });
    const tvText = unwrapped(renderDetail(tv));
    expect(tvText).toMatch(
      /^- Before the peak, ask AWS for \(Service Quotas; docs\/cost\.md "Quotas"\): CloudFront requests per distrib/m,
    );
    // And why the CloudFront raise stands: no flat-rate plan, which has no such quota, covers the month.
    expect(tvText).toContain(
      'No design carries it without a quota raise. No CloudFront flat-rate plan, which has no requests/s quota, ' +
        'covers 624 M requests a month.\n',
    );
    // A requests/s row under a concurrency quota says the requests a second the raise gives, not the quota.
    const row = tvText.split('\n').find((l) => l.startsWith('Lambda requests a second'))!;
    const concurrency = tv.recommended.capacity.carriesWith!.quotaRaises.find(
      (r) => r.quota === 'lambdaAccountConcurrency',
    )!;
    // 12,183 of 10,000 (poll reads cached at CloudFront: 22,183 before); the raise gives 16,000.
    expect(row).toMatch(new RegExp(`requests/s \\(122%\\) +${quantity(concurrency.to * 10)} requests/s`));
    expect(row).not.toContain(quantity(concurrency.to));
    expect(tvText).toMatch(/^CloudFront requests per distribution .*requests\/s \(112%\) +350,000 requests\/s/m);
  });

  it('gives a VPS row one ratio: its load of its capacity, which its verdict is read from', () => {
    for (const report of reports)
      for (const [i, row] of vpsRows(report).entries()) {
        const v = report.vps[i];
        const ratios = row
          .slice(0, 5)
          .join(' | ')
          .match(/<?\d+(\.\d+)?%|\d+(\.\d+)?x\b/g);
        expect(ratios, `${report.profile.name}: ${row.join(' | ')}`).toHaveLength(1);
        expect(row[4]).toMatch(v.carries ? /^yes \(/ : /^no \(/);
      }
  });

  it('never says no box carries the peak where one does behind a CDN', () => {
    const tv = costReport({ profile: 'tv-show' });
    expect(tv.answer.vpsCarries).toBe(true);
    const tvText = unwrapped(renderDetail(tv));
    expect(tvText).not.toMatch(/no box of any size carries it/);
    expect(tvText).not.toMatch(/no single (VPS )?box (on the list )?carries/);
  });

  it('fits a terminal: prose wrapped, tables no wider than 120 columns', () => {
    // The record night's bill has a line of thousands: its table runs a column or two wider.
    for (const report of reports.filter((r) => r.profile.name !== 'record-night')) {
      const widest = Math.max(
        ...renderDetail(report, WHERE)
          .split('\n')
          .map((line) => line.length),
      );
      expect(widest, report.profile.name).toBeLessThanOrEqual(120);
    }
  });
});

describe('the VPS side of the report', () => {
  const vpsAnswer = (report: CostReport) =>
    unwrapped(renderDetail(report))
      .split('\n')
      .find((l) => l.startsWith('On a VPS:'))!;

  it('heads with the cheapest box that carries the peak: for tv-show, one of at most $24 behind a CDN', () => {
    const tv = costReport({ profile: 'tv-show' });
    // The cheapest box that carries it is fronted by a CDN (a box alone that carries it costs more).
    const carrying = tv.vps.filter((v) => v.carries).sort((a, b) => a.totalUsd - b.totalUsd);
    expect(tv.answer.vps).toBe(carrying[0]);
    expect(tv.answer.vps.cdn).toBeDefined();
    expect(tv.answer.vps.tier.monthlyUsd).toBeLessThanOrEqual(24);
    expect(
      vpsAnswer(tv).startsWith(`On a VPS: ${usd(tv.answer.vps.totalUsd)} a month on ${tv.answer.vps.name}: `),
    ).toBe(true);
    expect(unwrapped(renderDetail(tv))).toMatch(
      /behind a CDN \(.*\): pages [\d.]+, poll reads [\d.]+, votes and creates 10,000,/,
    );
  });

  it('names the edition’s writer as what stops a box whose cores carry the record night, apart from the box', () => {
    // A writer three times as dear as measured: the cores of a box still carry the night, the writer does not.
    const busyWriter = writeMeasurement((m) => ({
      ...m,
      cpu: { ...m.cpu, primaryMicrosPerRequest: scaleMicros(m, 3).cpu.primaryMicrosPerRequest },
    }));
    const night = costReport({ profile: 'record-night', 'vps-from': busyWriter });
    expect(night.recommended.carries).toBe(true);
    expect(night.vps.some((v) => v.carries)).toBe(false);
    const cores = night.vps.filter((v) => v.coresCarry).sort((a, b) => a.totalUsd - b.totalUsd || a.needs - b.needs)[0];
    expect(cores, 'a box whose cores carry it, held back by the writer').toBeDefined();
    expect(cores.box.binds).toBe('writer');
    expect(vpsAnswer(night)).toMatch(
      joined(
        '',
        /^On a VPS: a box has the cores for this peak of [\d,]+ req\/s, /,
        /but this edition does not carry it \(the AWS edition does\)\. /,
      ),
    );
    expect(vpsAnswer(night)).toContain(`${usd(cores.totalUsd)} a month on ${cores.name}: `);
    expect(verdictLines(night)[0]).toBe(
      `record-night, ${votesLabel(night.bill.votes)} a month: AWS, since this edition's writer, not the box, ` +
        'keeps one VPS box short of its busiest second.',
    );
    expect(vpsAnswer(night)).toMatch(
      /would carry it \(\d+% loaded\), but this edition's writer .*: the edition's limit, not the box’s\.$/,
    );
  });

  it('says no single box on the list carries a peak only when the largest falls short on its cores', () => {
    const slow = writeMeasurement((m) => scaleMicros(m, 100));
    const night = costReport({ profile: 'record-night', 'vps-from': slow });
    expect(night.vps.some((v) => v.coresCarry)).toBe(false);
    expect(vpsAnswer(night)).toMatch(
      joined(
        '',
        /^On a VPS: no single box on the list carries this peak of [\d,]+ req\/s on its cores /,
        /\(the AWS edition does\)\. The nearest: /,
      ),
    );
    expect(vpsAnswer(night)).toMatch(
      /: needs \d+\.\dx the box's \d+ dedicated vCPUs(; and this edition's writer .*)?\.$/,
    );
  });

  it('says at the answer which TLS figures it priced with: none for a --tls off run', () => {
    const off = writeMeasurement((m) => ({
      ...m,
      cpu: { ...m.cpu, tls: { caddy: null, caddyKeepAlive: null, nginx: null, node: null } },
    }));
    const report = costReport({ 'vps-from': off });
    expect(vpsAnswer(report)).toContain(
      'without TLS: this run measured none (npm run bench:vps -- --tls off), so TLS costs are not counted',
    );
    expect(vpsAnswer(seed)).toMatch(/behind TLS as docs\/vps\.md deploys it, node:https /);
  });

  it('prices the CloudFront design’s poll reads as its stack caches them: each cache asks once a max-age', () => {
    const design = seed.designs.find((d) => d.stack.results === 'cloudfront')!;
    const { polls, votes, pageLoads, invocations, apiRequests } = design.bill.usage;
    const reads = pageLoads - polls;
    // 13 caches a poll, each asking once per 30 s of its 30 minutes open: 3,000 polls x 13 x 60 = 2.34 M.
    const origin = polls * CACHE_ORIGINS_PER_POLL * ((PROFILES.seed.votingMinutes * 60) / POLL_READ_CACHE_SECONDS);
    expect(origin).toBeCloseTo(2.34e6, 0);
    expect(invocations.getPoll).toBeCloseTo(origin, 0);
    // The API gets creates, votes, those poll reads and the results the edge asks for; no preflights.
    expect(apiRequests).toBeCloseTo(polls + votes + origin + invocations.getResults, 0);
    expect(text).toContain(`${quantity(origin)} of their ${quantity(reads)} a month reach API Gateway and Lambda.`);
    expect(text).not.toContain('not built).');
  });

  it('writes carries and the answer for every VPS row of report.json, for every preset', () => {
    for (const report of reports) {
      const json = JSON.parse(JSON.stringify(report));
      expect(json.vps.length).toBeGreaterThan(0);
      for (const row of json.vps) expect(typeof row.carries).toBe('boolean');
      expect(json.answer.vps.name).toBe(report.answer.vps.name);
      // Each design's and each tier's break-even stay in it.
      expect(json.designs[0].breakEven).toBeDefined();
      expect(json.breakEven.length).toBeGreaterThan(0);
    }
  });

  it('sets a load test of a VPS beside the profile as a floor, never as its capacity', () => {
    const withLoad = costReport({ 'vps-from': 'test/fixtures/vps-load-run' });
    const load = unwrapped(renderDetail(withLoad));
    expect(unwrapped(renderAnswer(withLoad, WHERE))).toMatch(/^Your VPS \(http:\/\/203\.0\.113\.7:3081, .*a floor, /m);
    // Sized from the benchmark as without the load test, not from the load test's rate.
    expect(load.split('\n').find((l) => l.startsWith('On a VPS'))).toBe(
      text.split('\n').find((l) => l.startsWith('On a VPS')),
    );
    expect(load).toMatch(
      joined(
        'm',
        /^Your VPS \(http:\/\/203\.0\.113\.7:3081, vote-storm, test\/fixtures\/vps-load-run\): /,
        /served 80 req\/s at p99 6 ms, a floor, /,
      ),
    );
    expect(load).toContain(`below this profile's design rate of ${quantity(designRps(PROFILES.seed))} req/s`);
    expect(text).not.toMatch(/^Your VPS/m);
  });
});

describe('what the full working adds', () => {
  it("sets the seed documents' peers beside the VPS rows, as their figures with their conditions", () => {
    const detail = renderDetail(costReport({}), WHERE);
    expect(detail).toMatch(/^Their figure \(not this app; not used for sizing\) +req\/s +Monthly$/m);
    expect(detail).toMatch(/^GO Poll \(Go \+ Redis\), DigitalOcean \$80 droplet, 6 vCPU +68,630 +\$80\.00$/m);
    expect(unwrapped(detail)).toMatch(/GO Poll .*\$5 droplet.*: votes; plain HTTP, Redis AOF every second/);
    expect(unwrapped(detail)).toMatch(
      /the seed platform’s Rust\/axum server, .*: in memory \(no Redis, nothing on disk\)/,
    );
  });

  it('says what the stack costs idle, and that a small measured run is rough', () => {
    const measured = unwrapped(renderDetail(costReport({ from: 'test/fixtures/load-run' })));
    expect(measured).toMatch(
      /Idle, with no traffic at all: \$0\.00 a month \(SQS FIFO requests .*inside the free tier/,
    );
    expect(measured).toMatch(/measured from only 100 vote\(s\) .* are rough, and are scaled here to 15\.0 M/);
    expect(measured).toMatch(/^- Per-operation usage measured by test\/fixtures\/load-run \(100 votes, /m);
    expect(text).not.toMatch(/are rough/);
  });
});

describe('the report in Markdown and HTML', () => {
  it('gives the same answer in Markdown, and in HTML with the chart drawn in it', () => {
    const md = renderMarkdown(seed, 'chart.svg');
    expect(md).toMatch(
      joined('', /^# Monthly AWS bill: profile "seed"\n\n## The answer\n\n/, /\*\*seed, 15\.0 M votes/),
    );
    expect(md).toMatch(/^- \*\*Cheapest AWS design that carries this profile:\*\* results from a function URL/m);
    expect(md).toMatch(/^\| AWS design \| Carries the peak\? \| Binds first \| What carrying it takes \|$/m);
    expect(md).toMatch(/^### results cached at CloudFront, stage by stage at the peak, as deployed$/m);
    expect(md).toMatch(
      /^\| API Gateway account throttle \| 10,000 requests\/s \| account and region \| Service Quotas: /m,
    );
    expect(md).toContain('![Monthly cost against monthly votes](chart.svg)');
    for (const design of seed.designs) expect(md).toContain(`| ${design.name}`);
    expect(md.trim().split('\n').at(-1)).toBe(closingSentence(seed));
    const html = reportBodyHtml(seed);
    expect(html).toMatch(/^<h1>Monthly AWS bill: profile &quot;seed&quot;<\/h1>/);
    expect(html).toContain(renderChart(seed));
    expect(reportBodyHtml(seed, false)).not.toContain('<svg');
    expect(html).toContain('<b>Cheapest AWS design that carries this profile:</b>');
    // Every Markdown table became a table, and no Markdown is left over.
    expect(html.match(/<table[ >]/g)).toHaveLength(md.match(/^\| ---/gm)!.length);
    expect(html).not.toMatch(/^\|/m);
    expect(html).not.toContain('**');
  });
});

describe("the answer's first line", () => {
  const book = { region: 'eu-central-1', currency: 'USD' as const, published: '2026-11-22' };
  const day = (date: string) => Date.parse(`${date}T12:00:00Z`);

  it('names the region, the currency and the date of the book', () => {
    expect(pricesLine(book, day('2026-11-27'))).toBe(
      "Priced for eu-central-1 in USD, at AWS's list prices of 2026-11-22 (another region: --region <code>).",
    );
  });

  it('suggests a fresh book past 90 days, and not before', () => {
    expect(pricesLine(book, day('2027-02-20'))).not.toMatch(/npm run prices/);
    expect(pricesLine(book, day('2027-02-21'))).toBe(
      "Priced for eu-central-1 in USD, at AWS's list prices of 2026-11-22, 91 days old: " +
        "npm run prices -- --region eu-central-1 fetches today's.",
    );
  });
});

describe('a synthesized stack with resources this model does not price', () => {
  it('names each by type and logical id in the answer and the working, and bills the rest as before', () => {
    const template = JSON.parse(readFileSync('test/fixtures/templates/default.template.json', 'utf8'));
    const plain = join(mkdtempSync(join(tmpdir(), 'template-')), 'plain.json');
    writeFileSync(plain, JSON.stringify(template));
    template.Resources.KeyA1B2 = { Type: 'AWS::KMS::Key', Properties: {} };
    template.Resources.WebAclC3D4 = { Type: 'AWS::WAFv2::WebACL', Properties: {} };
    const changed = join(mkdtempSync(join(tmpdir(), 'template-')), 'changed.json');
    writeFileSync(changed, JSON.stringify(template));
    const report = (file: string) =>
      buildReport(reportInput({ profile: 'seed', template: file, 'new-account': false }));
    const [before, after] = [report(plain), report(changed)];
    expect(after.bill.totalUsd).toBe(before.bill.totalUsd);
    expect(after.notPriced?.map((n) => `${n.type} ${n.logicalId}`)).toEqual([
      'AWS::KMS::Key KeyA1B2',
      'AWS::WAFv2::WebACL WebAclC3D4',
    ]);
    expect(unwrapped(renderAnswer(after, WHERE))).toContain(
      'Not priced (the bills leave them out): AWS::KMS::Key KeyA1B2, AWS::WAFv2::WebACL WebAclC3D4.',
    );
    expect(renderAnswer(before, WHERE)).not.toContain('Not priced');
    expect(unwrapped(renderDetail(after))).toMatch(/^- AWS::KMS::Key KeyA1B2: /m);
  });
});
