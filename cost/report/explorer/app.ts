/**
 * The cost explorer in the browser: the report npm run cost writes, recomputed as a profile's fields
 * change, by the same model (buildReport) over the same inputs, embedded in the page as JSON. It runs
 * from a file (no server, no network); the profile lives in the URL, and downloads as the file
 * `npm run cost -- --profile <file>` reads.
 */
import { chartData, drawChart, type ChartData } from '../chart';
import { escapeHtml, money } from '../../estimate/format';
import { PROFILES } from '../../usage/profiles';
import type { TrafficProfile } from '../../usage/traffic-profile';
import { answerLines, verdictLines } from '../answer';
import { capacityRows } from '../capacity-lines';
import { designRows } from '../design-lines';
import { vpsRows } from '../vps-lines';
import { reportBodyHtml } from '../render-html';
import { buildReport, type CostReport, type ReportInput } from '../../estimate/build-report';
import type { PriceBook } from '../../../pricing/price-book';
import { bookForViewers } from '../../../pricing/viewers';
import {
  asShown,
  checkProfile,
  controlsHtml,
  fillControls,
  fromQuery,
  profileTitle,
  readControls,
  sliderValue,
  syncSlider,
  toQuery,
  type RawProfile,
} from './fields';

const input: ReportInput = JSON.parse(document.getElementById('explorer-input')!.textContent!);
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('profile-form');
const newAccount = $<HTMLInputElement>('new-account');
const region = $<HTMLSelectElement>('region');
const books: PriceBook[] = JSON.parse($('explorer-books').textContent!);
/**
 * The book of the region chosen (one the page carries, else the input's), CloudFront priced where the profile's
 * viewers are when the page carries a book of a region there.
 */
function bookChosen(profile: TrafficProfile): PriceBook {
  const book = books.find((b) => b.region === region.value) ?? input.options.book;
  const bookOf = (code: string) => books.find((b) => b.region === code);
  return (profile.viewersIn && bookForViewers(book, profile.viewersIn, bookOf)) || book;
}

/** The last answer shown for a valid profile: it stays, dimmed, while a field is bad. */
let shown: { report: CostReport; chart: ChartData } | undefined;
let description = input.profile.description;
/**
 * The width the chart is drawn for: its box's, as the ResizeObserver last gave it, so an update never
 * reads the layout it is changing (that would force a layout in the middle of a frame's work).
 */
let chartWidth = 0;
const chartWidthFor = (boxWidth: number) => Math.min(Math.round(boxWidth), 820);

const lines = (texts: string[]) => texts.map((t) => `<p>${escapeHtml(t)}</p>`).join('');

function renderAnswer(report: CostReport): void {
  // What npm run cost prints: the region and its book, the verdict, each side on the busiest second, the verdict again.
  const [priced, ...answer] = answerLines(report, []);
  const [verdict, ...own] = verdictLines(report);
  const rest = answer.slice(own.length + 1);
  const items = own.map((line) => `<li>${escapeHtml(line.trim())}</li>`).join('');
  // The verdict, its figures in a list under it, then the rest as sentences.
  $('answer-text').innerHTML =
    `<p class="priced">${escapeHtml(priced)}</p>` +
    `<p class="verdict"><b>${escapeHtml(verdict)}</b></p><ul class="verdict">${items}</ul>` +
    lines(rest.filter((line) => line.trim()).map((line) => line.trim()));
}

/**
 * The answer in one line, kept in view on a narrow screen (explorer.css) while the fields above the
 * full answer are edited: the design to deploy and the cheapest VPS that carries the peak, a month each.
 */
function renderSummary(report: CostReport): void {
  const r = report.recommended;
  const vps = report.answer.vpsCarries ? report.answer.vps : undefined;
  const cur = report.profile.currency;
  $('summary-aws').textContent =
    `AWS ${r.id}: ${money(r.bill.totalUsd, cur)}/month${r.carries ? '' : ', misses the peak'}`;
  $('summary-vps').textContent = vps
    ? `VPS ${vps.name}: ${money(vps.totalUsd, cur)}/month`
    : 'No single VPS box carries the peak';
}

/** A table's rows: each cell carries its column's heading, which a narrow screen shows in the cell (cards). */
function rowsHtml(body: string, rows: Array<{ attributes: string; cells: string[] }>): void {
  const heads = [...$(body).closest('table')!.querySelectorAll('th')].map((th) => escapeHtml(th.textContent!));
  $(body).innerHTML = rows
    .map(({ attributes, cells }) => {
      const tds = cells.map((c, i) => `<td role="cell" data-label="${heads[i]}">${escapeHtml(c)}</td>`).join('');
      return `<tr role="row" ${attributes}>${tds}</tr>`;
    })
    .join('');
}

/** Each design: its bill, its verdict on the peak, where it binds, its break-even and how to deploy it. */
function renderDesigns(report: CostReport): void {
  const capacity = capacityRows(report, true);
  const rows = designRows(report).map((cells, i) => {
    const d = report.designs[i];
    const recommended = d.id === report.recommended.id ? ' class="recommended"' : '';
    return {
      attributes:
        `data-design="${escapeHtml(d.id)}" data-monthly-usd="${d.bill.totalUsd}" ` +
        `data-carries="${d.capacity.carries}"${recommended}`,
      cells: [cells[0], cells[1], capacity[i][1], capacity[i][2], cells[4]],
    };
  });
  rowsHtml('designs-body', rows);
}

function renderVps(report: CostReport): void {
  const cells = vpsRows(report);
  const rows = report.vps.map((v, i) => ({
    attributes: `data-vps="${escapeHtml(v.name)}" data-monthly-usd="${v.totalUsd}" data-carries="${v.carries}"`,
    cells: [0, 1, 2, 3, 4, 6].map((c) => cells[i][c]),
  }));
  rowsHtml('vps-body', rows);
}

/** The chart at the width its box has (a phone gets the narrow layout), and its facts in words. */
function renderChart(): void {
  if (!shown) return;
  $('chart').innerHTML = drawChart(shown.chart, chartWidth);
  $('chart-facts').innerHTML = shown.chart.facts.map((f) => `<li>${escapeHtml(f)}</li>`).join('');
}

/** The file to download and the command that reads it; a preset as it is needs no file. */
function renderShare(profile: TrafficProfile): void {
  const preset = PROFILES[profile.name];
  const asPreset = preset && JSON.stringify(preset) === JSON.stringify(profile);
  const file = `${profile.name.replace(/[^\w.-]+/g, '-') || 'profile'}.json`;
  const flags = newAccount.checked ? ' --new-account' : '';
  const command = `npm run cost -- --profile ${asPreset ? profile.name : file}${flags}`;
  $('command').textContent = command;
  const link = $<HTMLAnchorElement>('download');
  // A data: URL, not a Blob's: nothing to make or revoke at every edit, and it works from a file:// page.
  link.href = `data:application/json;charset=utf-8,${encodeURIComponent(`${JSON.stringify(profile, null, 2)}\n`)}`;
  link.download = file;
  link.textContent = `Download ${file}`;
}

/** The whole report, as npm run cost writes it, drawn only while it is open (it is long). */
function renderFullReport(): void {
  const details = $<HTMLDetailsElement>('full-report');
  if (shown && details.open) $('full-report-body').innerHTML = reportBodyHtml(shown.report, false);
}

/**
 * Shows the answer for a valid profile: every part of the page. Timed as the user timings
 * "explorer-model" and "explorer-render" (a browser's profiler shows them; npm run bench:explorer reads them).
 */
function show(edited: TrafficProfile): void {
  const started = performance.now();
  const profile = asShown(edited, input.profile);
  const options = { ...input.options, newAccount: newAccount.checked, book: bookChosen(profile) };
  // A measured bill (--from-cloudwatch) stands beside its fitted profile's bill, not beside an edited profile's.
  const measuredFits =
    JSON.stringify(profile) === JSON.stringify(input.profile) &&
    options.newAccount === input.options.newAccount &&
    options.book.region === input.options.book.region;
  const report = buildReport({ ...input, profile, options, cloudWatch: measuredFits ? input.cloudWatch : undefined });
  shown = { report, chart: chartData(report) };
  timed('explorer-model', started);
  const modelled = performance.now();
  $('profile-name').textContent = profileTitle(profile);
  renderAnswer(report);
  renderSummary(report);
  renderDesigns(report);
  renderVps(report);
  renderChart();
  renderShare(profile);
  renderFullReport();
  timed('explorer-render', modelled);
}

/** The last edit's time as a user timing: one entry a name, not one per edit of a long drag. */
function timed(name: string, start: number): void {
  performance.clearMeasures(name);
  performance.measure(name, { start });
}

/** Marks each bad field with the CLI's message; fields the page has no control for are listed above them. */
function mark(errors: Array<{ field: string; message: string }>, shownInstead: string): void {
  for (const field of form.querySelectorAll<HTMLElement>('.field')) {
    const error = errors.find((e) => e.field === field.dataset.field);
    field.classList.toggle('invalid', Boolean(error));
    field.querySelector('.error')!.textContent = error?.message ?? '';
    for (const control of field.querySelectorAll('input')) control.setAttribute('aria-invalid', String(Boolean(error)));
  }
  const known = new Set([...form.querySelectorAll<HTMLElement>('.field')].map((f) => f.dataset.field));
  const other = errors.filter((e) => !known.has(e.field));
  $('other-errors').innerHTML = other.map((e) => `<p>${escapeHtml(e.message)}</p>`).join('');
  document.body.classList.toggle('stale', errors.length > 0);
  $('status').textContent = errors.length > 0 ? `${errors.length} field(s) to fix; ${shownInstead}.` : '';
}

/**
 * Checks what the controls hold; shows its answer when valid, else marks the fields and keeps the last
 * one. On opening (`opening`: the profile the fields stand on, the seed for a URL's) a bad field has
 * no last answer: the answer shown, dimmed, takes that profile's value for it.
 */
function update(raw: RawProfile, opening?: TrafficProfile): void {
  const fallback = shown?.report.profile ?? opening ?? input.profile;
  const checked = checkProfile(raw, fallback);
  const instead = shown
    ? 'the last valid answer is shown, dimmed'
    : `the answer shown, dimmed, takes ${fallback.name}'s value for each marked field`;
  mark(checked.errors, instead);
  if (checked.profile) {
    show(checked.profile);
    // The region in the link only where it is not the one the page was written for.
    const chosen = region.value === input.options.book.region ? undefined : region.value;
    if (!opening) setQuery(toQuery(checked.profile, newAccount.checked, chosen));
  } else if (opening) show(checked.nearest);
}

/** The URL says the profile; a file:// page may refuse a new history entry, which changes nothing here. */
function setQuery(query: string): void {
  try {
    history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}`);
  } catch {
    // The page works the same without it; the download and the command line still give the profile.
  }
}

/** A change, recomputed once per frame however fast the slider moves. */
let pending = 0;
function scheduleUpdate(): void {
  cancelAnimationFrame(pending);
  pending = requestAnimationFrame(() => update(readControls(form, description)));
}

function start(): void {
  form.insertAdjacentHTML('beforeend', controlsHtml());
  const fromUrl = fromQuery(location.search);
  const raw = fromUrl?.raw ?? (input.profile as unknown as RawProfile);
  newAccount.checked = fromUrl?.newAccount ?? input.options.newAccount ?? false;
  if (books.some((book) => book.region === fromUrl?.region)) region.value = fromUrl!.region!;
  description = String(raw.description ?? '');
  fillControls(form, raw);
  form.addEventListener('input', (event) => {
    const target = event.target as HTMLInputElement;
    if (target.classList.contains('slider')) {
      const field = form.querySelector<HTMLInputElement>(`[name="${target.dataset.for}"]`)!;
      field.value = String(sliderValue(target));
    } else syncSlider(form, target.name);
    scheduleUpdate();
  });
  form.addEventListener('submit', (event) => event.preventDefault());
  newAccount.addEventListener('change', scheduleUpdate);
  region.addEventListener('change', scheduleUpdate);
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-preset]')) {
    button.addEventListener('click', () => {
      const preset = PROFILES[button.dataset.preset!] ?? input.profile;
      description = preset.description;
      fillControls(form, preset as unknown as RawProfile);
      scheduleUpdate();
    });
  }
  $<HTMLDetailsElement>('full-report').addEventListener('toggle', renderFullReport);
  chartWidth = chartWidthFor($('chart').clientWidth);
  new ResizeObserver(([entry]) => {
    const width = chartWidthFor(entry.contentRect.width);
    if (width === chartWidth) return;
    chartWidth = width;
    renderChart();
  }).observe($('chart'));
  update(raw, fromUrl ? PROFILES.seed : input.profile);
}

start();
