/**
 * The site in a real browser (Debian's chromium via playwright-core): create, share, vote, live
 * results and the error states, against every server of it: the local runtime in each results
 * design, and the VPS edition. Screenshots of each page go to test-artifacts/ for a person to look at.
 * One file of ~650 lines on purpose: one chromium serves every scenario (a browser a file costs seconds of CPU).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL_LIMITS } from '../../config/api-contract';
import type { ResultsDelivery } from '../../config/results-delivery';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';
import { startEdition } from '../support/editions';
import { api } from '../support/local';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = 'test-artifacts/browser';
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser) {
  console.warn(
    `SKIPPED: browser tests need chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH).`,
  );
}

/** A server of the site and its API, and how to read counts once every accepted vote is counted. */
interface SiteServer {
  url: string;
  /** Where the page must read results from: the site's origin, or the function URL's. */
  resultsOrigin: string;
  counts(pollId: string): Promise<number[]>;
  stop(): Promise<void>;
}

async function localRuntime(results: ResultsDelivery): Promise<SiteServer & { runtime: LocalRuntime }> {
  const runtime = await startLocalRuntime({ rateLimits: false, results });
  return {
    runtime,
    url: runtime.url,
    resultsOrigin: runtime.resultsUrl ? new URL(runtime.resultsUrl).origin : runtime.url,
    async counts(id) {
      await runtime.waitForDrain();
      return (await api(runtime).results(id)).json.counts;
    },
    stop: () => runtime.stop(),
  };
}

const SERVERS: Array<[string, string, () => Promise<SiteServer>]> = [
  ['the serverless edition with results through the API', 'api', () => localRuntime('api')],
  ['the serverless edition with results from a function URL', 'function-url', () => localRuntime('function-url')],
  ['the serverless edition with results cached at CloudFront', 'cloudfront', () => localRuntime('cloudfront')],
  [
    'the VPS edition',
    'vps',
    async () => {
      const edition = await startEdition('vps');
      return {
        url: edition.url,
        resultsOrigin: edition.url,
        counts: async (id) => (await api(edition).results(id)).json.counts,
        stop: () => edition.stop(),
      };
    },
  ],
];

let server: SiteServer;
let browser: Browser;

/** A fresh browser profile: its own storage, as a different person's browser would be. */
async function newVisitor(viewport = { width: 1000, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.url });
  return context.newPage();
}
// One chromium for the whole file; each visitor gets a fresh context.
beforeAll(async () => {
  if (!haveBrowser) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});
afterAll(async () => browser?.close());

let slug = '';
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${ARTIFACTS}/${slug}-${name}.png`, fullPage: true, animations: 'disabled' });

describe.skipIf(!haveBrowser).each(SERVERS)('the site in chromium, served by %s', (_name, id, start) => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    slug = id;
    server = await start();
  });
  afterAll(async () => server?.stop());

  it('creates a poll, shares its link, votes from a second browser; the first sees results change', async () => {
    const creator = await newVisitor();
    await creator.goto('/');
    await creator.getByLabel('Question').fill('Best editor?');
    await creator.getByLabel('Option 1').fill('Vim');
    await creator.getByLabel('Option 2').fill('Emacs');
    await creator.getByRole('button', { name: '+ Add option' }).click();
    await creator.getByLabel('Option 3').fill('Nano');
    await creator.getByLabel('One vote per voter').uncheck();
    await shot(creator, '1-create');
    await creator.getByRole('button', { name: 'Create poll' }).click();

    const link = await creator.getByLabel('Share this link').inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/poll/[A-Za-z0-9_-]{21}$`));
    await shot(creator, '2-share');

    // The creator watches the results live, read from where this design serves them.
    const resultsRequests: string[] = [];
    creator.on('request', (request) => {
      if (request.url().endsWith('/results')) resultsRequests.push(new URL(request.url()).origin);
    });
    await creator.getByRole('link', { name: 'Open the poll' }).click();
    await creator.getByRole('button', { name: 'See results' }).click();
    await expect.poll(() => creator.locator('.total').textContent()).toBe('0 votes');

    // A voter opens the shared link in another browser and votes with the keyboard only.
    const voter = await newVisitor({ width: 390, height: 844 });
    await voter.goto(link);
    await voter.getByRole('heading', { name: 'Best editor?' }).waitFor();
    await shot(voter, '3-vote-phone');
    await voter.getByRole('radio', { name: 'Emacs' }).focus();
    await voter.keyboard.press('Space');
    await voter.keyboard.press('Enter');
    await expect.poll(() => voter.locator('#status').textContent()).toContain('Your vote for “Emacs” was recorded');
    const fitsPhone = await voter.evaluate(
      () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    );
    expect(fitsPhone).toBe(true);

    // The creator's page refreshes by itself and shows the vote.
    await expect
      .poll(() => creator.locator('.results li').nth(1).locator('.figures').textContent(), { timeout: 15_000 })
      .toBe('1 · 100%');
    await expect.poll(() => voter.locator('.total').textContent(), { timeout: 15_000 }).toBe('1 vote');
    await shot(voter, '4-results-phone');
    await shot(creator, '5-results-live');

    // What the browser showed is what the API counted.
    expect(await server.counts(link.split('/').pop()!)).toEqual([0, 1, 0]);
    expect(resultsRequests.length).toBeGreaterThan(1);
    expect(new Set(resultsRequests)).toEqual(new Set([server.resultsOrigin]));
  });

  it('keeps the poll’s link, says when it closes and what a voter is, leads from results to voting', async () => {
    const creator = await newVisitor();
    await creator.goto('/');
    // On by default, unlike the API: the form says why, and what counts as a voter. Unticked here: every vote counts.
    const oneVote = creator.getByLabel('One vote per voter');
    expect(await oneVote.isChecked()).toBe(true);
    expect(await creator.locator('#one-vote-note').textContent()).toMatch(
      /^Keep this on for a poll shared in public\. A voter is a network address/,
    );
    await oneVote.uncheck();
    await creator.getByLabel('Question').fill('Lunch?');
    await creator.getByLabel('Option 1').fill('Pizza');
    await creator.getByLabel('Option 2').fill('Sushi');
    await creator.getByRole('button', { name: '30 minutes' }).click();
    expect(await creator.getByLabel('Open for').inputValue()).toBe('30');
    expect(await creator.getByLabel('Unit').inputValue()).toBe('1');
    await creator.getByRole('button', { name: 'Create poll' }).click();
    const link = await creator.getByLabel('Share this link').inputValue();
    expect(creator.url()).toBe(link);
    expect(await creator.locator('.closes').textContent()).toMatch(/^Closes at .+ \(in (29|30) minutes\)\.$/);

    // A reload keeps the poll; results lead back to the vote.
    await creator.reload();
    await creator.getByRole('heading', { name: 'Lunch?' }).waitFor();
    await creator.getByRole('button', { name: 'See results' }).click();
    await creator.getByRole('button', { name: 'Back to voting' }).click();
    await creator.getByRole('radio', { name: 'Sushi' }).check();
    await creator.getByRole('button', { name: 'Vote' }).click();
    await expect.poll(() => creator.locator('#status').textContent()).toContain('recorded');
    expect(await creator.getByRole('button', { name: 'Back to voting' }).count()).toBe(0);

    // The poll takes more votes from the same person, as the API does: the page says so, after a reload too.
    await creator.reload();
    await expect
      .poll(() => creator.locator('#status').textContent())
      .toBe('You voted for “Sushi” from this browser. This poll counts every vote sent, so you can vote again.');
    await creator.getByRole('button', { name: 'Vote again' }).click();
    await creator.getByRole('radio', { name: 'Pizza' }).check();
    await creator.getByRole('button', { name: 'Vote' }).click();
    await expect.poll(() => creator.locator('#status').textContent()).toContain('Your vote for “Pizza” was recorded');
    // Read where this design serves results: from a cache of up to 2 s in one of them.
    await expect.poll(() => server.counts(link.split('/').pop()!), { timeout: 15_000 }).toEqual([1, 1]);
  });

  it('makes a poll open for any lifetime the API takes: 2 hours typed closes 120 minutes after made', async () => {
    const creator = await newVisitor();
    await creator.goto('/');
    // The API's default to start with, its preset shown chosen.
    expect(await creator.getByLabel('Open for').inputValue()).toBe(String(POLL_LIMITS.defaultLifetimeMinutes / 60));
    expect(await creator.getByRole('button', { name: '1 hour' }).getAttribute('aria-pressed')).toBe('true');
    await creator.getByLabel('Question').fill('Two hours?');
    await creator.getByLabel('Option 1').fill('Yes');
    await creator.getByLabel('Option 2').fill('No');
    await creator.getByLabel('Open for').fill('2');
    await creator.getByLabel('Unit').selectOption({ label: 'hours' });
    expect(await creator.locator('.presets [aria-pressed="true"]').count()).toBe(0);
    const made = creator.waitForResponse((r) => r.url().endsWith('/api/poll') && r.request().method() === 'POST');
    await creator.getByRole('button', { name: 'Create poll' }).click();
    const response = await made;
    expect(response.request().postDataJSON()).toMatchObject({ lifetimeMinutes: 120 });
    expect(response.status()).toBe(201);
    const poll = (await response.json()) as { id: string; createdAt: string; closesAt: string };
    // The server keeps closesAt to the second: the creation instant's milliseconds are the only slack.
    const lifetimeMs = Date.parse(poll.closesAt) - Date.parse(poll.createdAt);
    expect(lifetimeMs).toBeGreaterThan(120 * 60_000 - 1000);
    expect(lifetimeMs).toBeLessThanOrEqual(120 * 60_000);
    // The stored poll says the same.
    const stored = await api(server).call('GET', `/api/poll/${poll.id}`);
    expect(stored.json).toMatchObject({ closesAt: poll.closesAt, createdAt: poll.createdAt });
    expect(await creator.locator('.closes').textContent()).toMatch(/\(in 2 hours\)\.$/);
  });

  it('answers an address that is no page with a 404 page, also with a malformed escape in a poll link', async () => {
    const visitor = await newVisitor();
    const missing = await visitor.goto('/no/such/page');
    expect(missing?.status()).toBe(404);
    expect(await visitor.getByRole('heading').textContent()).toBe('Page not found');
    await visitor.goto('/poll/50%off');
    await visitor.getByRole('heading', { name: 'Poll not found' }).waitFor();
    await shot(visitor, '7-page-not-found');
  });

  it('makes a poll with one vote per voter by default, and refuses a second vote with a clear line', async () => {
    const creator = await newVisitor();
    await creator.goto('/');
    await creator.getByLabel('Question').fill('One each');
    await creator.getByLabel('Option 1').fill('Yes');
    await creator.getByLabel('Option 2').fill('No');
    const made = creator.waitForResponse((r) => r.url().endsWith('/api/poll') && r.request().method() === 'POST');
    await creator.getByRole('button', { name: 'Create poll' }).click();
    const poll = (await (await made).json()) as { id: string; oneVotePerVoter: boolean };
    expect(poll.oneVotePerVoter).toBe(true);
    await creator.getByLabel('Share this link').waitFor();

    const first = await newVisitor();
    await first.goto(`/poll/${poll.id}`);
    await first.getByRole('radio', { name: 'Yes' }).check();
    await first.getByRole('button', { name: 'Vote' }).click();
    await expect.poll(() => first.locator('#status').textContent()).toContain('One vote per voter in this poll.');
    await first.reload();
    await expect
      .poll(() => first.locator('#status').textContent())
      .toBe('You voted for “Yes” from this browser. One vote per voter in this poll.');
    expect(await first.getByRole('button', { name: 'Vote again' }).count()).toBe(0);

    // Same network address, fresh browser storage: the server, not the browser, remembers the vote.
    const again = await newVisitor();
    await again.goto(`/poll/${poll.id}`);
    await again.getByRole('radio', { name: 'No' }).check();
    await again.getByRole('button', { name: 'Vote' }).click();
    await expect.poll(() => again.locator('#status').textContent()).toBe('You have already voted in this poll.');
    expect(await again.getByRole('button', { name: /Vote again|Back to voting/ }).count()).toBe(0);
    await expect.poll(() => again.locator('.total').textContent(), { timeout: 15_000 }).toBe('1 vote');
    await shot(again, '6-already-voted');
  });

  it('says when a poll does not exist', async () => {
    const page = await newVisitor();
    await page.goto('/poll/AAAAAAAAAAAAAAAAAAAAA');
    await page.getByRole('heading', { name: 'Poll not found' }).waitFor();
    await shot(page, '7-not-found');
  });
});

describe.skipIf(!haveBrowser)('the page when things go wrong', () => {
  let runtime: LocalRuntime;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    slug = 'errors';
    const local = await localRuntime('api');
    runtime = local.runtime;
    server = local;
  });
  afterAll(async () => server?.stop());

  it('explains network and server failures and recovers on retry', async () => {
    const poll = await api(runtime).createPoll({ title: 'Flaky', options: ['A', 'B'] });
    const page = await newVisitor();
    await page.route('**/api/poll/*', (route) => route.abort('internetdisconnected'));
    await page.goto(`/poll/${poll.id}`);
    await expect.poll(() => page.locator('main').textContent()).toContain('could not be reached');
    await shot(page, '8-network-error');

    await page.unroute('**/api/poll/*');
    await page.route('**/api/poll/*', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: '{"message":"Internal server error"}' }),
    );
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('The server had a problem (502)');
    await shot(page, '9-server-error');

    await page.unroute('**/api/poll/*');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Flaky' }).waitFor();
  });

  it('says a poll is closed the moment it closes, without a reload, and the vote form gives way', async () => {
    const poll = await api(runtime).createPoll({ title: 'Closing', options: ['A', 'B'], lifetimeMinutes: 5 });
    const closesAt = Date.parse((poll as unknown as { closesAt: string }).closesAt);
    /** The poll's page with the browser's clock stopped 20 s before the close: only runFor moves it. */
    const openPoll = async () => {
      const page = await newVisitor();
      await page.clock.install({ time: closesAt - 40_000 });
      await page.clock.pauseAt(closesAt - 20_000);
      await page.goto(`/poll/${poll.id}`);
      await page.getByRole('heading', { name: 'Closing' }).waitFor();
      return page;
    };
    const voter = await openPoll();
    const watcher = await openPoll();
    await watcher.getByRole('button', { name: 'See results' }).click();
    await watcher.getByRole('button', { name: 'Back to voting' }).waitFor();
    for (const page of [voter, watcher])
      expect(await page.locator('.closes').textContent()).toMatch(/^Closes at .+ \(in 1 minute\)\.$/);

    for (const page of [voter, watcher]) await page.clock.runFor(20_000);
    for (const page of [voter, watcher]) expect(await page.locator('.closes').textContent()).toMatch(/^Closed at /);
    expect(await voter.locator('#status').textContent()).toBe('This poll is closed. These are the final results.');
    expect(await voter.getByRole('button', { name: 'Vote' }).count()).toBe(0);
    expect(await watcher.getByRole('button', { name: 'Back to voting' }).count()).toBe(0);
  });

  it('says a poll closed before the page opened is closed once, above its final results', async () => {
    const page = await newVisitor();
    const id = 'C'.repeat(21);
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const poll = { id, title: 'Over', options: ['A', 'B'], oneVotePerVoter: false, createdAt: at(60) };
    await page.route(`**/api/poll/${id}`, (route) =>
      route.fulfill({ json: { ...poll, closesAt: at(1), closed: true } }),
    );
    await page.route(`**/api/poll/${id}/results`, (route) =>
      route.fulfill({ json: { id, counts: [2, 1], total: 3, updatedAt: at(1), closed: true } }),
    );
    await page.goto(`/poll/${id}`);
    await expect.poll(() => page.locator('.total').textContent()).toBe('3 votes');
    expect(await page.locator('#status').textContent()).toBe('This poll is closed. These are the final results.');
    expect(await page.locator('.liveness').textContent()).toBe('');
  });

  /** Every text the page's status line shows from now on, to read after the fact. */
  const recordStatus = (page: Page) =>
    page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { statuses: string[] }).statuses = seen;
      const status = document.querySelector('#status')!;
      new MutationObserver(() => seen.push(status.textContent ?? '')).observe(status, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
  const statuses = (page: Page) => page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);

  it('retries by itself, under the ballot’s key, a vote whose answer was lost after queueing: counted once', {
    timeout: 60_000,
  }, async () => {
    const poll = await api(runtime).createPoll({ title: 'Lost answer', options: ['A', 'B'] });
    const page = await newVisitor();
    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/vote')) keys.push(request.headers()['idempotency-key']);
    });
    await page.goto(`/poll/${poll.id}`);
    await page.getByRole('radio', { name: 'B' }).check();
    await recordStatus(page);
    runtime.faults.timeOutAfterVotes = 1;
    await page.getByRole('button', { name: 'Vote' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('Your vote for “B” was recorded');
    expect(runtime.faults.timeOutAfterVotes).toBe(0);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{21}$/);
    const seen = await statuses(page);
    expect(seen[0]).toBe('Sending your vote…');
    expect(seen.join(' ')).not.toMatch(/could not|try again/i);
    expect(await server.counts(poll.id)).toEqual([0, 1]);
  });

  it('shows the voter’s vote at once, being counted, while the results it reads are older than the vote', async () => {
    const poll = await api(runtime).createPoll({ title: 'Cached', options: ['A', 'B'] });
    const page = await newVisitor();
    // A cached answer from before the vote, as a 2-second cache can give.
    const stale = { id: poll.id, counts: [0, 0], total: 0, updatedAt: new Date(0).toISOString(), closed: false };
    await page.route('**/results', (route) => route.fulfill({ status: 200, json: stale }));
    await page.goto(`/poll/${poll.id}`);
    await page.getByRole('radio', { name: 'A' }).check();
    await page.getByRole('button', { name: 'Vote' }).click();
    await expect.poll(() => page.locator('.total').textContent()).toBe('1 vote');
    expect(await page.locator('.results li').nth(0).locator('.figures').textContent()).toBe('1 · 100%');
    expect(await page.locator('.liveness').textContent()).toMatch(/being counted/);
    await shot(page, '10-own-vote-being-counted');

    // Results that include it: shown as they are.
    await page.unroute('**/results');
    await expect.poll(() => page.locator('.liveness').textContent(), { timeout: 15_000 }).toMatch(/^Live/);
    expect(await page.locator('.total').textContent()).toBe('1 vote');
  });

  it('sends a ballot left unanswered before a reload again under its key, never as a new vote', async () => {
    const poll = await api(runtime).createPoll({ title: 'Reloaded', options: ['A', 'B'] });
    // The first try landed, its answer did not: the browser kept the ballot.
    const ballot = { pollId: poll.id, option: 1, key: 'kept-by-the-browser', firstSentAt: Date.now() };
    expect((await api(runtime).vote(poll.id, 1, ballot.key)).status).toBe(202);
    const page = await newVisitor();
    await page.goto('/');
    await page.evaluate((b) => localStorage.setItem(`ballot:${b.pollId}`, JSON.stringify(b)), ballot);
    await page.goto(`/poll/${poll.id}`);
    await expect.poll(() => page.locator('#status').textContent()).toContain('Your vote for “B” was recorded');
    expect(await page.evaluate((id) => localStorage.getItem(`ballot:${id}`), poll.id)).toBeNull();
    expect(await server.counts(poll.id)).toEqual([0, 1]);
  });

  it('loads no third-party script when no CAPTCHA is configured', async () => {
    const page = await newVisitor();
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(runtime.url)) foreign.push(request.url());
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Create a poll' }).waitFor();
    expect(foreign).toEqual([]);
  });

  it('checks the form with the API’s own rules before sending anything', async () => {
    const page = await newVisitor();
    const creates = () => runtime.usage().api.byRoute['POST /api/poll'] ?? 0;
    const before = creates();
    await page.goto('/');
    await page.getByLabel('Question').fill('Duplicates?');
    await page.getByLabel('Option 1').fill('Same');
    await page.getByLabel('Option 2').fill('same');
    await page.getByRole('button', { name: 'Create poll' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toBe('Option 2 must be different from Option 1.');
    // The field to change is the one marked.
    expect(await page.getByLabel('Option 2').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Option 1').getAttribute('aria-invalid')).toBeNull();
    expect(creates()).toBe(before);
  });

  it('marks a lifetime the API does not take at its field, the form’s check and the server’s alike', async () => {
    const page = await newVisitor();
    const creates = () => runtime.usage().api.byRoute['POST /api/poll'] ?? 0;
    const before = creates();
    const status = () => page.locator('#status').textContent();
    const lifetime = page.getByLabel('Open for');
    const refusal = 'Open for must be from 1 minute to 7 days, in whole minutes.';
    await page.goto('/');
    await page.getByLabel('Question').fill('Too long?');
    await page.getByLabel('Option 1').fill('Yes');
    await page.getByLabel('Option 2').fill('No');
    // Past the longest, below the shortest, and not whole minutes: each marked, none sent.
    for (const [amount, unit] of [
      [String(POLL_LIMITS.maxLifetimeMinutes / (24 * 60) + 1), 'days'],
      ['0', 'minutes'],
      ['1.5', 'minutes'],
      ['', 'hours'],
    ]) {
      await lifetime.fill(amount);
      await page.getByLabel('Unit').selectOption({ label: unit });
      await page.getByRole('button', { name: 'Create poll' }).click();
      await expect.poll(status).toBe(refusal);
      expect(await lifetime.getAttribute('aria-invalid'), `${amount} ${unit}`).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('lifetime');
      expect(await page.getByLabel('Question').getAttribute('aria-invalid')).toBeNull();
    }
    await shot(page, '14-refused-lifetime');
    // A preset is a lifetime the API takes: it unmarks the field.
    await page.getByRole('button', { name: '7 days' }).click();
    expect(await lifetime.getAttribute('aria-invalid')).toBeNull();
    await expect.poll(status).toBe('');
    expect(creates()).toBe(before);

    // The server's refusal of one (here a request changed on its way) is marked the same way.
    await page.route('**/api/poll', (route) =>
      route.continue({
        postData: JSON.stringify({
          ...route.request().postDataJSON(),
          lifetimeMinutes: POLL_LIMITS.maxLifetimeMinutes + 1,
        }),
      }),
    );
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/poll'));
    await page.getByRole('button', { name: 'Create poll' }).click();
    const answer = await answered;
    expect(answer.status()).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: 'invalid_field', field: 'lifetimeMinutes' } });
    await expect.poll(status).toBe(refusal);
    expect(await lifetime.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('heading', { name: 'Create a poll' }).count()).toBe(1);
  });
});

describe.skipIf(!haveBrowser)('the site on a phone', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    slug = 'phone';
    server = await localRuntime('api');
  });
  afterAll(async () => server?.stop());
  const phone = { width: 390, height: 844 };

  it('keeps every result row in its place when counts arrive, whatever the length of its option', async () => {
    // Options from one word to the longest allowed, and one word too long for a line.
    const options = [0, 3, 6, 9, 12, 15, 18].map((n) => `${'wrap '.repeat(n)}end`);
    options.push('x'.repeat(POLL_LIMITS.optionMaxLength));
    const poll = await api(server).createPoll({ title: 'Long options', options });
    const counts = options.map((_, i) => 100_000 * (i + 1));
    const results = { id: poll.id, counts, total: counts.reduce((a, b) => a + b), updatedAt: new Date().toISOString() };
    const page = await newVisitor(phone);
    // The first results are held back: the rows as they are before any count, then as counts arrive.
    const held: Array<() => Promise<void>> = [];
    await page.route('**/results', (route) => {
      held.push(() => route.fulfill({ json: { ...results, closed: false } }));
    });
    await page.goto(`/poll/${poll.id}`);
    await page.getByRole('button', { name: 'See results' }).click();
    await expect.poll(() => held.length).toBe(1);
    const rowBoxes = () =>
      page.$$eval('.results li', (rows) =>
        rows.map((row) => {
          const box = row.getBoundingClientRect();
          return { top: box.top, height: box.height };
        }),
      );
    const before = await rowBoxes();
    expect(await page.locator('.results .figures').allTextContents()).toEqual(options.map(() => '–'));
    await held[0]();
    await expect.poll(() => page.locator('.total').textContent()).toBe(`${results.total} votes`);
    expect(await page.locator('.results .figures').last().textContent()).toMatch(/^800000 · \d+%$/);
    expect(await rowBoxes()).toEqual(before);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await shot(page, '11-long-options');
  });

  it('names a refused field as the form labels it, and marks that field', async () => {
    const page = await newVisitor(phone);
    const status = () => page.locator('#status').textContent();
    await page.goto('/');
    await page.getByLabel('Question').fill('Lunch?');
    await page.getByLabel('Option 1').fill('Pizza');
    await page.getByRole('button', { name: 'Create poll' }).click();
    await expect.poll(status).toBe('Option 2 must not be empty.');
    expect(await page.getByLabel('Option 2').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Option 2');
    await shot(page, '12-refused-option');

    await page.getByLabel('Question').fill('   ');
    await page.getByRole('button', { name: 'Create poll' }).click();
    await expect.poll(status).toBe('Question must not be empty.');
    expect(await page.getByLabel('Question').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Option 2').getAttribute('aria-invalid')).toBeNull();
    // Typing in it unmarks it, and what was said of it goes.
    await page.getByLabel('Question').fill('Lunch?');
    expect(await page.getByLabel('Question').getAttribute('aria-invalid')).toBeNull();
    await expect.poll(status).toBe('');
  });

  it('writes the times on a page in one format: when the poll closes and when results were updated', async () => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: phone,
      locale: 'en-US',
      timezoneId: 'UTC',
    });
    const page = await context.newPage();
    // Times whose hours have one digit: "03:37 AM" and "2:37:14 AM" read as two formats.
    const now = Date.parse('2026-11-25T02:37:14Z');
    await page.clock.install({ time: now });
    const id = 'A'.repeat(21);
    const poll = {
      id,
      title: 'Times',
      options: ['A', 'B'],
      oneVotePerVoter: false,
      createdAt: new Date(now).toISOString(),
      closesAt: '2026-11-25T03:37:00.000Z',
      closed: false,
    };
    const results = { id, counts: [0, 0], total: 0, updatedAt: new Date(now).toISOString(), closed: false };
    await page.route(`**/api/poll/${id}`, (route) => route.fulfill({ json: poll }));
    await page.route(`**/api/poll/${id}/results`, (route) => route.fulfill({ json: results }));
    await page.goto(`/poll/${id}`);
    await page.getByRole('button', { name: 'See results' }).click();
    await expect.poll(() => page.locator('.liveness').textContent()).toMatch(/^Live · updated /);
    const closes = /^Closes at (.+) \(in 1 hour\)\.$/.exec((await page.locator('.closes').textContent())!)![1];
    const updated = /^Live · updated (.+)$/.exec((await page.locator('.liveness').textContent())!)![1];
    expect(closes).toContain('3:37');
    expect(updated).toContain('2:37');
    const shape = (time: string) => time.replace(/\d/g, '9');
    expect(shape(updated)).toBe(shape(closes));
    await shot(page, '13-times');
  });
});

describe.skipIf(!haveBrowser)('the site with a CAPTCHA configured', () => {
  let captchaRuntime: LocalRuntime;
  let stub: Server;

  beforeAll(async () => {
    // The provider's siteverify, stubbed on loopback: it accepts the fake widget's tokens.
    stub = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const token = new URLSearchParams(body).get('response') ?? '';
        const action = token.replace(/^fake-/, '');
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ success: token.startsWith('fake-'), score: 0.9, action }));
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    captchaRuntime = await startLocalRuntime({
      rateLimits: false,
      captcha: {
        provider: 'recaptcha',
        siteKey: 'test-site-key',
        secret: 'test-secret',
        verifyUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
      },
    });
  });
  afterAll(async () => {
    await captchaRuntime?.stop();
    await new Promise((resolve) => stub?.close(resolve));
  });

  it('loads the widget, sends its token with the create and the vote, and the API verifies it', async () => {
    const context = await browser.newContext({ baseURL: captchaRuntime.url });
    const widgetLoads: string[] = [];
    // No network here: stand in for Google's script with one that hands out fake tokens per action.
    await context.route('https://www.google.com/recaptcha/api.js*', (route) => {
      widgetLoads.push(route.request().url());
      return route.fulfill({
        contentType: 'text/javascript',
        body: 'window.grecaptcha = { ready: (cb) => cb(), execute: async (key, { action }) => "fake-" + action };',
      });
    });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Question').fill('Human?');
    await page.getByLabel('Option 1').fill('Yes');
    await page.getByLabel('Option 2').fill('No');
    await page.getByRole('button', { name: 'Create poll' }).click();
    const link = await page.getByLabel('Share this link').inputValue();
    await page.goto(link);
    await page.getByRole('radio', { name: 'Yes' }).check();
    await page.getByRole('button', { name: 'Vote' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('recorded');
    expect(widgetLoads.length).toBeGreaterThan(0);
    expect(widgetLoads[0]).toContain('render=test-site-key');
    await captchaRuntime.waitForDrain();
    expect((await api(captchaRuntime).results(link.split('/').pop()!)).json.counts).toEqual([1, 0]);
  });
});
