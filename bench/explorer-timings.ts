/**
 * `npm run bench:explorer` (bench/bin/explorer.ts runs it): how long the cost explorer takes to answer
 * an edit, in Debian's chromium. It opens report.html from disk, picks each preset, then changes votes
 * per poll again and again as a person typing or dragging would, and prints, per preset, the page's own
 * user timings: the model (buildReport and the chart's series), the rendering, and the layout after
 * them, against one frame at 60 Hz. Nothing is asserted: these machines are shared; compare figures
 * within a run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium as playwright, type Page } from 'playwright-core';
import { reportInput } from '../cost/report-files';
import { explorerHtml } from '../cost/report/explorer';
import { PROFILES } from '../cost/usage/profiles';

const FRAME_MS = 1000 / 60;

interface EditTiming {
  model: number;
  render: number;
  layout: number;
}

/**
 * One edit as the page gets it: votes per poll set and an input event sent. The app recomputes in its
 * next animation frame; a frame callback queued after the app's runs in that same frame, once the page
 * has drawn, and forces the layout the browser would do before painting.
 */
function edit(page: Page, votes: number): Promise<EditTiming> {
  return page.evaluate(
    (value) =>
      new Promise<EditTiming>((resolve) => {
        performance.clearMeasures();
        const field = document.querySelector<HTMLInputElement>('input[name="votesPerPoll"]')!;
        field.value = String(value);
        field.dispatchEvent(new Event('input', { bubbles: true }));
        requestAnimationFrame(() => {
          const before = performance.now();
          document.body.getBoundingClientRect();
          const layout = performance.now() - before;
          const [model, render] = ['explorer-model', 'explorer-render'].map(
            (name) => performance.getEntriesByName(name)[0]?.duration ?? Number.NaN,
          );
          resolve({ model, render, layout });
        });
      }),
    votes,
  );
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const ms = (n: number) => `${n.toFixed(1)} ms`.padStart(9);

/** One preset picked, then `edits` edits of votes per poll: its line of the table. */
async function presetLine(page: Page, name: string, edits: number): Promise<string> {
  await page.click(`[data-preset="${name}"]`);
  const base = PROFILES[name].votesPerPoll;
  const timings: EditTiming[] = [];
  // Up and down around the preset's own value, as a slider drags.
  for (let i = 0; i < edits; i++) timings.push(await edit(page, Math.round(base * (1 + ((i % 20) - 10) / 25))));
  const column = (pick: (t: EditTiming) => number) => {
    const sorted = timings.map(pick).sort((a, b) => a - b);
    return `${ms(percentile(sorted, 0.5))} /${ms(percentile(sorted, 0.95))}`.padStart(20);
  };
  const picks: Array<(t: EditTiming) => number> = [
    (t) => t.model,
    (t) => t.render,
    (t) => t.layout,
    (t) => t.model + t.render + t.layout,
  ];
  return name.padEnd(14) + picks.map(column).join('');
}

/** Opens the explorer in the chromium at `chromium` and prints, per preset, `edits` edits' timings. */
export async function benchExplorer(edits: number, chromium: string): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'explorer-bench-'));
  let browser: Browser | undefined;
  try {
    const file = join(folder, 'report.html');
    writeFileSync(file, explorerHtml(reportInput({ profile: 'seed', 'new-account': false })));
    browser = await playwright.launch({
      executablePath: chromium,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pathToFileURL(file).href);
    await page.locator('[data-design]').first().waitFor();
    console.log(
      `Per edit of votes per poll, ${edits} edits a preset; median / 95th percentile; a frame: ${ms(FRAME_MS)}`,
    );
    const heads = ['model', 'render', 'layout', 'together'];
    console.log(heads.reduce((line, head) => line + head.padStart(20), 'preset'.padEnd(14)));
    for (const name of Object.keys(PROFILES)) console.log(await presetLine(page, name, edits));
  } finally {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
