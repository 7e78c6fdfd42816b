/**
 * The estimate as a person reads it (cost/report/report.ts), built and rendered by importing it: the
 * answer first, the idle cost, what a measured run or a load test of a VPS adds, and the same
 * report as text, Markdown and HTML.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { POLL_READ_CACHE_SECONDS } from '../../config/app-config';
import { renderChart } from '../../cost/report/chart';
import { designRps } from '../../cost/estimate/compare';
import { quantity, usd } from '../../cost/estimate/format';
import { CACHE_ORIGINS_PER_POLL } from '../../cost/estimate/model';
import { PROFILES } from '../../cost/usage/profiles';
import { renderMarkdown, renderText, reportBodyHtml } from '../../cost/report/report';
import type { CostReport } from '../../cost/estimate/build-report';
import { costReport, unwrapped } from '../support/cost';
import type { VpsMeasurement } from '../../cost/estimate/vps';

/** The committed bench:vps figures changed by `change`, in a file of their own for --vps-from. */
function writeMeasurement(change: (m: VpsMeasurement) => VpsMeasurement): string {
  const file = join(mkdtempSync(join(tmpdir(), 'vps-bench-')), 'vps.json');
  writeFileSync(file, JSON.stringify(change(JSON.parse(readFileSync('cost/estimate/vps-capacity.json', 'utf8')))));
  return file;
}
/** Every µs figure `by` times the committed one: a far slower machine. */
const scaleMicros = (m: VpsMeasurement, by: number): VpsMeasurement =>
  JSON.parse(JSON.stringify(m), (key, value) =>
    typeof value === 'number' && !['requestsPerSecond', 'cpus'].includes(key) && key !== '' ? value * by : value,
  );

/** One pattern from parts written on lines of their own (flags on the whole). */
const joined = (flags: string, ...parts: RegExp[]) => new RegExp(parts.map((part) => part.source).join(''), flags);

const seed = costReport();
const text = unwrapped(renderText(seed));

describe('the text report', () => {
  it('opens with the busiest second and its working, then every design and whether it carries it', () => {
    const lines = text.split('\n');
    expect(lines[2]).toMatch(/^The busiest second: 1,102 requests\/s; the hottest poll 5\.56 votes\/s and 167 results/);
    expect(lines[3]).toMatch(/^Polls open at once in the busiest hour: 100 a day × 3 \(busy hour\) ÷ 24 h × 30 min/);
    const capacity = text.indexOf('Can each carry the busiest second?');
    expect(capacity).toBeGreaterThan(text.indexOf('AWS design (← the bill above)'));
    expect(text.slice(capacity)).toMatch(
      /^results from a function URL +yes +results function URL: reserved .*\(52%\)$/m,
    );
    expect(text.slice(capacity)).toMatch(/^results pushed over WebSocket \(estimate\) +not built/m);
  });

  it('then the answer: the cheapest design that carries it and how to deploy it, the AWS floor, the VPS', () => {
    const answer = text.slice(text.indexOf('Cheapest AWS design that carries this profile'));
    const [first, budget, second, third, fourth] = answer.split('\n');
    expect(first).toMatch(
      joined(
        '',
        /^Cheapest AWS design that carries this profile: results from a function URL, \$[\d,.]+ a month .* /,
        /Deploy it: npm run deploy -- -c results=function-url$/,
      ),
    );
    // The same command with a budget of the estimate, in whole dollars.
    const estimate = Number(/\$([\d,.]+) a month/.exec(first)![1].replace(/,/g, ''));
    expect(budget).toBe(
      'With a monthly budget of this estimate, which e-mails you at 80% and 100% of actual and of forecast spend ' +
        '(docs/deploy.md): npm run deploy -- -c results=function-url ' +
        `-c monthlyBudgetUsd=${Math.ceil(estimate)} -c budgetEmail=<you@example.com>`,
    );
    expect(second).toBe('It needs no quota raise.');
    expect(third).toMatch(
      /^AWS floor: \$192\.00 a month: the 960 M requests browsers send, each at \$0\.20 per million/,
    );
    const cheapest = seed.vps.filter((v) => v.carries).sort((a, b) => a.totalUsd - b.totalUsd)[0];
    expect(fourth.startsWith(`On a VPS: ${usd(cheapest.totalUsd)} a month on ${cheapest.name}: `)).toBe(true);
    expect(fourth).toMatch(
      joined(
        '',
        /: [\d,.]+ req\/s reach the box at the peak; it serves that mix at [\d,.]+ k?req\/s on .*, /,
        /behind TLS as docs\/vps\.md deploys it, node:https .* /,
        /\(the CPU a request costs, npm run bench:vps on \d{4}-\d\d-\d\d, .*\), loaded \d+%\.$/,
      ),
    );
    expect(text).toMatch(/results via the HTTP API \(textbook\) ←/);
    // The seed documents' peers beside the rows, as their figures with their conditions.
    expect(text).toMatch(/^Their figure \(not this app; not used for sizing\) +req\/s +Monthly$/m);
    expect(text).toMatch(/^GO Poll \(Go \+ Redis\), DigitalOcean \$80 droplet, 6 vCPU +68,630 +\$80\.00$/m);
    expect(text).toMatch(/^GO Poll .*\$5 droplet.*: votes; plain HTTP, Redis AOF every second/m);
    expect(text).toMatch(/^the seed platform’s Rust\/axum server, .*: in memory \(no Redis, nothing on disk\)/m);
    expect(text).toMatch(/^Stage by stage at the peak, results from a function URL as the command above deploys it:$/m);
  });

  it('names the quota raises a hot poll needs, and that nothing carries it without them', () => {
    const tv = unwrapped(renderText(costReport({ profile: 'tv-show' })));
    expect(tv).toMatch(
      /^Before the peak, ask AWS for \(Service Quotas; docs\/cost\.md "Quotas"\): CloudFront requests per distrib/m,
    );
    expect(tv).toMatch(/No design carries it without a quota raise\.$/m);
    expect(tv).toMatch(
      /^ *- results from a function URL: nothing the stack offers: with its flags, the hottest poll's own key: reads/m,
    );
  });

  it('fits a terminal: prose wrapped, tables no wider than 120 columns', () => {
    const widest = Math.max(
      ...renderText(seed)
        .split('\n')
        .map((line) => line.length),
    );
    expect(widest).toBeLessThanOrEqual(120);
    expect(text).toMatch(/^Total\s+\$[\d.,]+ {3}\(\$[\d.,]+ per million votes\)$/m);
  });
});

describe('the VPS side of the report', () => {
  const vpsAnswer = (report: CostReport) =>
    unwrapped(renderText(report))
      .split('\n')
      .find((l) => l.startsWith('On a VPS'))!;

  it('heads with the cheapest box that carries the peak: for tv-show, one of at most $24 behind a CDN', () => {
    const tv = costReport({ profile: 'tv-show' });
    const carrying = tv.vps.filter((v) => v.carries).sort((a, b) => a.totalUsd - b.totalUsd);
    expect(carrying.length).toBeGreaterThan(0);
    expect(carrying[0].cdn).toBeDefined();
    expect(carrying[0].tier.monthlyUsd).toBeLessThanOrEqual(24);
    expect(vpsAnswer(tv).startsWith(`On a VPS: ${usd(carrying[0].totalUsd)} a month on ${carrying[0].name}: `)).toBe(
      true,
    );
    // Its working: what reaches the box, route by route, behind the CDN.
    expect(unwrapped(renderText(tv))).toMatch(
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

  it('prices caching the CloudFront design’s poll reads, which its stack passes through uncached', () => {
    const design = seed.designs.find((d) => d.stack.results === 'cloudfront')!;
    const { polls, pageLoads } = design.bill.usage;
    const reads = pageLoads - polls;
    // 13 caches a poll, each asking once per 30 s of its 30 minutes open.
    const kept =
      reads - polls * CACHE_ORIGINS_PER_POLL * ((PROFILES.seed.votingMinutes * 60) / POLL_READ_CACHE_SECONDS);
    expect(kept).toBeGreaterThan(0);
    expect(unwrapped(renderText(seed))).toContain(
      `would keep ${quantity(kept)} of their ${quantity(reads)} a month from API Gateway and Lambda: ` +
        `about ${usd((kept * (1.0 + 0.2)) / 1e6)} a month less at first-tier request prices (not built).`,
    );
  });

  it('writes carries for every VPS row of report.json, for every preset', () => {
    for (const profile of Object.keys(PROFILES)) {
      const json = JSON.parse(JSON.stringify(costReport({ profile })));
      expect(json.vps.length).toBeGreaterThan(0);
      for (const row of json.vps) expect(typeof row.carries).toBe('boolean');
    }
  });
});

describe('what the text report adds', () => {
  it('says what the stack costs idle, and that a small measured run is rough', () => {
    const measured = unwrapped(renderText(costReport({ from: 'test/fixtures/load-run' })));
    expect(measured).toMatch(
      /Idle, with no traffic at all: \$0\.00 a month \(SQS FIFO requests .*inside the free tier/,
    );
    expect(measured).toMatch(/measured from only 100 vote\(s\) .* are rough, and are scaled here to 15\.0 M/);
    expect(measured).toMatch(/^Per-operation usage measured by test\/fixtures\/load-run \(100 votes, /m);
    // The default figures are no measured run: nothing is called rough.
    expect(text).not.toMatch(/are rough/);
  });

  it('sets a load test of a VPS beside the profile as a floor, never as its capacity', () => {
    const load = unwrapped(renderText(costReport({ 'vps-from': 'test/fixtures/vps-load-run' })));
    // Sized from the benchmark as without the load test: $6 at a few percent, not dozens of boxes.
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
    // The design rate is the seed's derived peak.
    expect(load).toContain(`below this profile's design rate of ${quantity(designRps(PROFILES.seed))} req/s`);
    expect(text).not.toMatch(/^Your VPS/m);
  });
});

describe('the report in Markdown and HTML', () => {
  it('gives the same answer in Markdown, and in HTML with the chart drawn in it', () => {
    const md = renderMarkdown(seed, 'chart.svg');
    expect(md).toMatch(
      joined('', /^# Monthly AWS bill: profile "seed"\n\n/, /- The busiest second: 1,102 requests\/s/),
    );
    expect(md).toMatch(/^- \*\*Cheapest AWS design that carries this profile:\*\* results from a function URL/m);
    expect(md).toMatch(/^\| AWS design \| Carries the peak\? \| Binds first \| What carrying it takes \|$/m);
    expect(md).toMatch(/^### results cached at CloudFront, stage by stage at the peak, as deployed$/m);
    expect(md).toMatch(
      /^\| API Gateway account throttle \| 10,000 requests\/s \| account and region \| Service Quotas: /m,
    );
    expect(md).toContain('![Monthly cost against monthly votes](chart.svg)');
    for (const design of seed.designs) expect(md).toContain(`| ${design.name}`);
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
