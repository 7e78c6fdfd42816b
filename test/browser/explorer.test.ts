/**
 * The cost explorer (report.html) in a real browser (Debian's chromium via playwright-core), opened
 * from disk as npm run cost writes it: the same totals as the CLI's buildReport for the presets and a
 * profile in the URL, every figure following an edit, a bad value marked with the CLI's message while
 * the last answer stays, an edited profile named as edited, and a phone's width: the answer in view, every
 * table cell on the screen, no sideways scroll. Screenshots go to
 * test-artifacts/explorer/ for a person to look at.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile, reportInput } from '../../cost/report-files';
import { explorerHtml } from '../../cost/report/explorer';
import { PROFILES, type ProfileError, validateProfile } from '../../cost/usage/profiles';
import type { TrafficProfile } from '../../cost/usage/traffic-profile';
import { usd } from '../../cost/estimate/format';
import { buildReport, type ReportInput } from '../../cost/estimate/build-report';
import { verdictLines } from '../../cost/report/answer';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = 'test-artifacts/explorer';
const haveBrowser = existsSync(CHROMIUM);

let browser: Browser;
let input: ReportInput;
let fileUrl: string;

beforeAll(async () => {
  if (!haveBrowser) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  // As `npm run cost -- --profile club` writes it.
  input = reportInput({ profile: 'club', 'new-account': false });
  const file = join(mkdtempSync(join(tmpdir(), 'explorer-')), 'report.html');
  writeFileSync(file, explorerHtml(input));
  fileUrl = pathToFileURL(file).href;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}, 60_000);
afterAll(async () => browser?.close());

/** The page opened from disk, every console error and uncaught exception kept in `errors`. */
async function open(query = '', width = 1280, height = 900): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${fileUrl}${query}`);
  await page.locator('[data-design]').first().waitFor();
  return { page, errors };
}

/** A profile's fields without its name and description. */
const omitNames = ({ name: _name, description: _description, ...fields }: TrafficProfile) => fields;

/** Each row's monthly figure, to the cent, by its data attribute. */
const rows = (page: Page, kind: 'design' | 'vps') =>
  page.$$eval(
    `[data-${kind}]`,
    (trs, k) => trs.map((tr) => [tr.getAttribute(`data-${k}`), tr.dataset.monthlyUsd]),
    kind,
  );
const cents = (value: unknown) => Number(value).toFixed(2);

/** What the CLI's model gives for a profile: every design and VPS row, to the cent. */
function cliTotals(profile: TrafficProfile) {
  const report = buildReport({ ...input, profile });
  return {
    designs: report.designs.map((d) => [d.id, cents(d.bill.totalUsd)]),
    vps: report.vps.map((v) => [v.name, cents(v.totalUsd)]),
  };
}

async function pageTotals(page: Page) {
  const asCents = (list: Array<Array<string | null | undefined>>) => list.map(([id, usd]) => [id, cents(usd)]);
  return { designs: asCents(await rows(page, 'design')), vps: asCents(await rows(page, 'vps')) };
}

describe.skipIf(!haveBrowser)('the cost explorer, opened from disk in chromium', () => {
  it('opens on the CLI profile with its totals, and gives each preset the totals npm run cost gives', async () => {
    const { page, errors } = await open();
    expect(await page.locator('#profile-name').textContent()).toBe('club');
    expect(await pageTotals(page)).toEqual(cliTotals(input.profile));
    for (const name of Object.keys(PROFILES)) {
      await page.getByRole('button', { name, exact: true }).click();
      await expect.poll(() => page.locator('#profile-name').textContent()).toBe(name);
      expect(await pageTotals(page)).toEqual(cliTotals(PROFILES[name]));
    }
    expect(errors).toEqual([]);
  });

  it('offers the books on disk, says which it prices, and prices the region chosen from its book', async () => {
    // Another region's book beside us-east-1's: its HTTP API and Lambda requests dearer.
    const other = structuredClone(input.options.book);
    Object.assign(other, { region: 'eu-central-1', published: '2026-11-14' });
    other.prices.httpApiRequests.tiers = [{ upTo: 300e6, price: 1.11 }, { price: 1 }];
    other.prices.lambdaRequests.tiers = [{ price: 0.3 }];
    const file = join(mkdtempSync(join(tmpdir(), 'explorer-')), 'report.html');
    writeFileSync(file, explorerHtml(input, [input.options.book, other]));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pathToFileURL(file).href);
    await page.locator('[data-design]').first().waitFor();
    expect(await page.locator('#region option').allTextContents()).toEqual(['eu-central-1', 'us-east-1']);
    expect(await page.locator('#region').inputValue()).toBe('us-east-1');
    expect(await page.locator('#answer-text p.priced').textContent()).toMatch(/^Priced for us-east-1 in USD/);
    await page.locator('#region').selectOption('eu-central-1');
    await expect
      .poll(() => page.locator('#answer-text p.priced').textContent())
      .toMatch(/^Priced for eu-central-1 in USD, at AWS's list prices of 2026-11-14/);
    const there = buildReport({ ...input, options: { ...input.options, book: other } });
    expect(await pageTotals(page)).toEqual({
      designs: there.designs.map((d) => [d.id, cents(d.bill.totalUsd)]),
      vps: there.vps.map((v) => [v.name, cents(v.totalUsd)]),
    });
    expect(await pageTotals(page)).not.toEqual(cliTotals(input.profile));
    // The link keeps the region: opened again, the page prices it.
    await expect.poll(() => new URL(page.url()).searchParams.get('region')).toBe('eu-central-1');
    await page.goto(page.url());
    await page.locator('[data-design]').first().waitFor();
    expect(await page.locator('#region').inputValue()).toBe('eu-central-1');
    expect(await page.locator('#answer-text p.priced').textContent()).toMatch(/^Priced for eu-central-1/);
    await page.close();
  });

  it('leads with the verdict npm run cost prints, scrolls as one page at 1280 px, and explains its marks', async () => {
    const { page, errors } = await open('', 1280, 800);
    const verdict = verdictLines(buildReport(input))[0];
    expect(await page.locator('#answer-text p.verdict').textContent()).toBe(verdict);
    await page.screenshot({ path: `${ARTIFACTS}/explorer-1280-top.png` });
    await page.getByRole('button', { name: 'tv-show', exact: true }).click();
    await expect.poll(() => page.locator('#profile-name').textContent()).toBe('tv-show');
    expect(await page.locator('#answer-text p.verdict').textContent()).toBe(
      verdictLines(buildReport({ ...input, profile: PROFILES['tv-show'] }))[0],
    );
    // No region scrolls inside the page: every field is reached by the page's own scroll.
    const inner = await page.$$eval('body *', (elements) =>
      elements
        .filter((e) => {
          const { overflowY } = getComputedStyle(e);
          return (overflowY === 'auto' || overflowY === 'scroll') && e.scrollHeight > e.clientHeight + 1;
        })
        .map((e) => e.id || e.className || e.tagName),
    );
    expect(inner).toEqual([]);
    const last = page.locator('#profile-form .field').last();
    await last.scrollIntoViewIfNeeded();
    const box = (await last.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    // The recommended row's mark, and the heading that says what it means.
    const marked = await page.locator('[data-design] td:first-child', { hasText: '←' }).count();
    expect(marked).toBe(1);
    expect(await page.locator('#designs-body').locator('xpath=..').locator('th').first().textContent()).toMatch(
      /← the recommended/,
    );
    await page.screenshot({ path: `${ARTIFACTS}/explorer-1280-answer.png` });
    expect(errors).toEqual([]);
  });

  it('keeps a picked preset in the URL, so the link reopens it, even the seed the URL stands on', async () => {
    const { page, errors } = await open();
    await page.getByRole('button', { name: 'seed', exact: true }).click();
    await expect.poll(() => page.url()).toContain('?name=seed');
    const reopened = await open(new URL(page.url()).search);
    expect(await reopened.page.locator('#profile-name').textContent()).toBe('seed');
    expect(await pageTotals(reopened.page)).toEqual(cliTotals(PROFILES.seed));
    expect([...errors, ...reopened.errors]).toEqual([]);
  });

  it('reads a profile from the URL, over the seed as a profile file is', async () => {
    const { page, errors } = await open('?votesPerPoll=2000&pollsPerDay=40&oneVotePerVoter=true&refresh=10');
    const profile = validateProfile({ votesPerPoll: 2000, pollsPerDay: 40, oneVotePerVoter: true, refresh: 10 });
    expect(await pageTotals(page)).toEqual(cliTotals(profile));
    expect(await page.locator('#command').textContent()).toBe('npm run cost -- --profile seed-edited.json');
    expect(errors).toEqual([]);
  });

  it('follows a change of votes per poll: every total, the marker and the URL', async () => {
    const { page, errors } = await open('', 1280);
    const before = await pageTotals(page);
    const markerBefore = await page.locator('#profile-marker').getAttribute('data-votes');
    await page.locator('#f-votesPerPoll').fill('400');
    await expect.poll(() => page.url()).toContain('votesPerPoll=400');
    const after = await pageTotals(page);
    expect(after).toEqual(cliTotals({ ...input.profile, votesPerPoll: 400 }));
    expect(after.designs.map(([, usd], i) => usd === before.designs[i][1])).not.toContain(true);
    const markerAfter = await page.locator('#profile-marker').getAttribute('data-votes');
    expect(Number(markerAfter)).toBeCloseTo(Number(markerBefore) * 10);
    await page.screenshot({ path: `${ARTIFACTS}/explorer-1280.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it('names an edited profile as edited: the heading, the download, the file and the command', async () => {
    const { page, errors } = await open();
    await page.locator('#f-votesPerPoll').fill('400');
    await expect.poll(() => page.url()).toContain('votesPerPoll=400');
    expect(await page.locator('#profile-name').textContent()).toBe('club, edited');
    expect(await page.locator('#download').textContent()).toBe('Download club-edited.json');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
    expect(download.suggestedFilename()).toBe('club-edited.json');
    const downloaded = loadProfile(await download.path());
    const { name, description, ...fields } = downloaded;
    expect(fields).toEqual({ ...omitNames(input.profile), votesPerPoll: 400 });
    expect(name).toBe('club, edited');
    expect(description).toContain(`votesPerPoll 400 (was ${input.profile.votesPerPoll})`);
    expect(await page.locator('#command').textContent()).toBe('npm run cost -- --profile club-edited.json');
    // Put back as it was, it is the preset again.
    await page.locator('#f-votesPerPoll').fill(String(input.profile.votesPerPoll));
    await expect.poll(() => page.locator('#profile-name').textContent()).toBe('club');
    expect(await page.locator('#command').textContent()).toBe('npm run cost -- --profile club');
    expect(errors).toEqual([]);
  });

  it('marks a bad value with the CLI message, keeps the last answer dimmed, and marks a bad URL', async () => {
    const { page, errors } = await open();
    const before = await pageTotals(page);
    await page.locator('#f-watchMinutes').fill('90');
    const message = (() => {
      try {
        validateProfile({ ...input.profile, watchMinutes: 90 });
      } catch (error) {
        return (error as ProfileError).message;
      }
    })();
    await expect.poll(() => page.locator('#e-watchMinutes').textContent()).toBe(message);
    expect(await page.locator('#f-watchMinutes').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.body.classList.contains('stale'))).toBe(true);
    expect(await pageTotals(page)).toEqual(before);
    await page.locator('#f-watchMinutes').fill('');
    await expect.poll(() => page.locator('#e-watchMinutes').textContent()).toContain('(got "")');
    await page.screenshot({ path: `${ARTIFACTS}/explorer-bad-value.png` });

    const bad = await open('?votesPerPoll=lots&pollsPerDay=-1&colour=blue');
    expect(await bad.page.locator('#e-votesPerPoll').textContent()).toContain('votesPerPoll must be a number');
    expect(await bad.page.locator('#e-pollsPerDay').textContent()).toContain('pollsPerDay must be a number');
    expect(await bad.page.locator('#other-errors').textContent()).toContain('Unknown profile field "colour"');
    // Nothing valid was shown before: the dimmed answer takes the seed's value (a URL's base) for each bad field.
    expect(await pageTotals(bad.page)).toEqual(cliTotals(PROFILES.seed));
    expect(await bad.page.locator('#status').textContent()).toContain("takes seed's value for each marked field");
    expect([...errors, ...bad.errors]).toEqual([]);
  });

  it('keeps the answer on a phone’s screen: on the first one, and while a field far down is edited', async () => {
    // The seed: club's bill is under a cent, and would not change.
    const { page, errors } = await open('?name=seed', 390, 844);
    const seed = { ...input, profile: PROFILES.seed };
    const summary = page.locator('#summary');
    const inView = async () => {
      const box = (await summary.boundingBox())!;
      return box.y >= 0 && box.y + box.height <= 844;
    };
    expect(await inView()).toBe(true);
    const before = usd(buildReport(seed).recommended.bill.totalUsd);
    expect(await summary.textContent()).toContain(before);
    // A field at the bottom: the page scrolls to it, the answer in one line stays in view and follows the edit.
    const field = page.locator('#f-refresh');
    await field.fill('10');
    const edited = usd(buildReport({ ...seed, profile: { ...seed.profile, refresh: 10 } }).recommended.bill.totalUsd);
    expect(edited).not.toBe(before);
    await expect.poll(() => summary.textContent()).toContain(edited);
    expect(await inView()).toBe(true);
    // Not over the field being edited.
    const [bar, box] = [(await summary.boundingBox())!, (await field.boundingBox())!];
    expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height);
    await page.screenshot({ path: `${ARTIFACTS}/explorer-390-editing.png` });
    // A wide screen has the answer itself beside the fields: no summary over it.
    const wide = await open('', 1280, 800);
    expect(await wide.page.locator('#summary').isVisible()).toBe(false);
    expect((await wide.page.locator('#answer').boundingBox())!.y).toBeLessThan(800);
    expect([...errors, ...wide.errors]).toEqual([]);
  });

  it('keeps every table cell on a phone’s screen, each with its column’s name, the whole report too', async () => {
    const { page, errors } = await open('', 390, 844);
    await page.locator('#full-report summary').click();
    await page.locator('#full-report-body table').first().waitFor();
    const cells = await page.$$eval('td', (tds) =>
      tds.map((td) => ({ left: td.getBoundingClientRect().left, right: td.getBoundingClientRect().right })),
    );
    expect(cells.length).toBeGreaterThan(50);
    expect(cells.filter((c) => c.left < 0 || c.right > 390)).toEqual([]);
    const monthly = page.locator('[data-design] td[data-label="Monthly"]').first();
    expect(await monthly.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Monthly "');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${ARTIFACTS}/explorer-390-report.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it('fits a phone: 390 px with no sideways scroll, the chart drawn for it', async () => {
    const { page, errors } = await open('', 390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const viewBox = await page.locator('#chart svg').getAttribute('viewBox');
    expect(Number(viewBox!.split(' ')[2])).toBeLessThan(400);
    await page.screenshot({ path: `${ARTIFACTS}/explorer-390.png`, fullPage: true });
    await page.locator('#chart').screenshot({ path: `${ARTIFACTS}/explorer-390-chart.png` });
    expect(errors).toEqual([]);
  });
});
