/**
 * npm run cost (bin/cost.ts, cost/cli.ts and the files it reads, cost/report-files.ts): what it reads and how it
 * answers a mistake, called in this process, and one run of the command itself (its process puts this file in
 * the slow tier: vitest.config.ts SPAWNS): it prints the bill and writes the reports.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { helpText, parseCommandLine, runCommand } from '../../../node/command-line';
import { wrap } from '../../../node/wrap';
import { COST_COMMAND } from '../../../cost/cli';
import { loadProfile, reportInput } from '../../../cost/report-files';
import { buildReport } from '../../../cost/estimate/build-report';
import { renderForTerminal } from '../../../cost/report/render-text';
import { httpTemplateFile, unwrapped } from '../../support/cost';
import { calledFrom } from '../../support/npm-run';

class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** The command's reading of its arguments, as its entry point does it, with what it printed and its exit code. */
async function command(...args: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line) => stdout.push(String(line)));
  vi.spyOn(console, 'error').mockImplementation((line) => stderr.push(String(line)));
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Exited(Number(code));
  });
  let code = 0;
  try {
    const { values } = parseCommandLine(COST_COMMAND, args);
    await runCommand(COST_COMMAND, () => {
      reportInput(values);
    });
  } catch (error) {
    if (!(error instanceof Exited)) throw error;
    code = error.code;
  }
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('npm run cost, the command', () => {
  it('prints the answer in a few lines, the full working with --detail, and writes the reports', () => {
    const out = mkdtempSync(join(tmpdir(), 'cost-'));
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'bin/cost.ts', '--profile', 'club', '--out', out, '--template', httpTemplateFile()],
      { encoding: 'utf8' },
    );
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(31);
    // First the region, the currency and the book's date the bill is priced with; then the verdict.
    expect(lines[0]).toMatch(/^Priced for us-east-1 in USD, at AWS's list prices of \d{4}-\d\d-\d\d[ ,]/);
    expect(lines[1]).toMatch(/^club, 360 votes a month: AWS is cheaper, by \$[\d.,]+ a month\.$/);
    expect(unwrapped(result.stdout).trim().split('\n').at(-1)).toMatch(/^In short: AWS's /);
    expect(result.stdout).toContain(`Reports: ${join(out, 'report.html')} (the explorer)`);
    expect(unwrapped(result.stdout)).toContain(
      `The full working: npm run cost -- --profile club --out ${out} --template ${httpTemplateFile()} --detail`,
    );
    // Prose is wrapped and tables are narrow enough for a terminal.
    const widest = Math.max(...result.stdout.split('\n').map((line) => line.length));
    expect(widest).toBeLessThanOrEqual(120);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.profile.name).toBe('club');
    expect(readFileSync(join(out, 'chart.svg'), 'utf8')).toMatch(/^<svg/);
    // The explorer: the inputs it was given, embedded, and the report as the CLI wrote it for a page without script.
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<script type="application/json" id="explorer-input">');
    expect(html).toContain('<svg');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/^# Monthly AWS bill: profile "club"/);
    // With --detail (in this process: one command run is enough): the full working, the verdict first and last.
    const { values } = parseCommandLine(COST_COMMAND, ['--profile', 'club', '--detail']);
    expect(values.detail).toBe(true);
    const built = buildReport(reportInput({ ...values, template: httpTemplateFile() }));
    const detail = renderForTerminal(built, values.detail, ['Reports: …']);
    expect(detail.split('\n').slice(0, 3)).toEqual(['The answer', '══════════', lines[1]]);
    expect(detail).toMatch(/^Every AWS design$/m);
    expect(unwrapped(detail).split('\n').at(-1)).toBe(unwrapped(result.stdout).trim().split('\n').at(-1));
  });
});

describe('npm run cost, called in this process', () => {
  it('answers --help, and a usage mistake in one line with exit code 2', async () => {
    const help = await command('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run cost -- \[options\]/);
    expect(help.stdout).toContain('--profile <name|file.json>');
    const strayFile = mkdtempSync(join(tmpdir(), 'run-'));
    writeFileSync(join(strayFile, 'summary.json'), '{}');
    for (const [args, message] of [
      [['--profile', 'missing.json'], /^--profile missing\.json: no such file\. Run npm run cost -- --help/],
      [['--profile', 'nope'], /^Unknown profile "nope": use one of seed, club, tv-show/],
      [['--bogus'], /^Unknown option '--bogus'\./],
      [['--profile'], /argument missing/],
      [
        ['--profile', 'seed', '--profile', 'club'],
        /^--profile is given more than once: give it once\. Run npm run cost/,
      ],
      [['--from', strayFile], /has no usage\.json: only a run of npm run load against the runtime it starts/],
    ] as const) {
      const result = await command(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('wraps its closing paragraph once: no line of it stops short where the next word would have fit', () => {
    const help = helpText(COST_COMMAND);
    const paragraph = help.slice(help.lastIndexOf('\n\n') + 2);
    expect(paragraph).toMatch(/^--from-cloudwatch needs these permissions/);
    // A line wrapped by hand in the spec, then by the help, would read "... and\n  Duration, SQS\nmessages ...".
    expect(paragraph).toBe(wrap(paragraph.replace(/\s+/g, ' '), 100, '  '));
  });

  it('says why a load test has no usage.json: its --url, the VPS edition, or a deployed stack', async () => {
    const causes = {
      local: /was run with --url http:\/\/127\.0\.0\.1:3000, a runtime it did not start: npm run load -- smoke without/,
      vps: /is a load test of the VPS edition, whose cost is its box: give it to --vps-from instead\./,
      aws: /ran against a deployed stack \(aws\), whose usage is on its bill: npm run load -- smoke meters one\./,
    };
    for (const [target, cause] of Object.entries(causes)) {
      const folder = mkdtempSync(join(tmpdir(), `${target}-run-`));
      writeFileSync(
        join(folder, 'summary.json'),
        JSON.stringify({ scenario: 'smoke', target, url: 'http://127.0.0.1:3000' }),
      );
      const result = await command('--from', folder);
      expect(result.code, target).toBe(2);
      expect(result.stderr, target).toMatch(cause);
    }
  });

  it('takes a bench file or a VPS load test for --vps-from, and refuses other folders and failed runs', async () => {
    const template = httpTemplateFile();
    expect((await command('--vps-from', 'cost/estimate/vps-capacity.json', '--template', template)).code).toBe(0);
    expect((await command('--vps-from', 'test/fixtures/vps-load-run', '--template', template)).code).toBe(0);
    const wrong = await command('--vps-from', 'test/fixtures/load-run');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/is not a load test of the VPS edition/);
    const failedRun = mkdtempSync(join(tmpdir(), 'vps-run-'));
    const summary = JSON.parse(readFileSync('test/fixtures/vps-load-run/summary.json', 'utf8'));
    writeFileSync(join(failedRun, 'summary.json'), JSON.stringify({ ...summary, artilleryExitCode: 1 }));
    const failed = await command('--vps-from', failedRun);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/is a failed run \(see its summary\.json\): it shows nothing about the box\./);
    // A bench file from before bench:vps measured CPU: the model cannot size a box from it.
    const { cpu: _cpu, ...withoutCpu } = JSON.parse(readFileSync('cost/estimate/vps-capacity.json', 'utf8'));
    const old = join(failedRun, 'old-bench.json');
    writeFileSync(old, JSON.stringify(withoutCpu));
    const refused = await command('--vps-from', old);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is not what npm run bench:vps writes: it has no cpu\.plain and cpu\.tls/);
    // One from before bench:vps measured each TLS set-up (a single Caddy column): run it again.
    const measurement = JSON.parse(readFileSync('cost/estimate/vps-capacity.json', 'utf8'));
    const { plain: _plain, tls: _tls, ...olderCpu } = measurement.cpu;
    const older = join(failedRun, 'older-bench.json');
    writeFileSync(
      older,
      JSON.stringify({ ...measurement, cpu: { ...olderCpu, microsPerRequest: {}, tlsVia: 'Caddy' } }),
    );
    expect((await command('--vps-from', older)).stderr).toMatch(
      /it has no cpu\.plain and cpu\.tls .*run npm run bench:vps again/,
    );
  });
});

describe('what npm run cost reads', () => {
  it('reads what it is given: a load test of a VPS beside the bench file, a measured run’s figures', () => {
    const template = httpTemplateFile();
    const beside = reportInput({
      profile: 'seed',
      'vps-from': 'test/fixtures/vps-load-run',
      template,
      'new-account': false,
    });
    expect(beside.vpsCapacity.source).toBe('cost/estimate/vps-capacity.json');
    expect(beside.vpsCapacity.observed).toMatchObject({ ratePerSecond: 80, p99Ms: 6, scenario: 'vote-storm' });
    const measured = reportInput({ profile: 'club', from: 'test/fixtures/load-run', template, 'new-account': true });
    expect(measured.measured).toMatchObject({ label: 'test/fixtures/load-run', votes: 100 });
    expect(measured.units.sources.counterWriteUnitsPerVote).toBe('measured: test/fixtures/load-run');
    expect(measured).toMatchObject({ profile: { name: 'club' }, options: { newAccount: true }, stackSource: template });
  });
});

describe('a profile file', () => {
  it('names the bad field of a profile file and exits 2', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'profile-')), 'bad.json');
    writeFileSync(file, JSON.stringify({ watchMinutes: 'ten' }));
    const result = await command('--profile', file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('watchMinutes must be a number');
  });

  it('is read from the folder npm run was called in, not the root npm runs the script in', () => {
    const folder = mkdtempSync(join(tmpdir(), 'profile-'));
    writeFileSync(join(folder, 'mine.json'), JSON.stringify({ votesPerPoll: 123 }));
    calledFrom(folder);
    const { values } = parseCommandLine(COST_COMMAND, ['--profile', 'mine.json', '--template', 'cdk.out/t.json']);
    expect(loadProfile(values.profile)).toMatchObject({ name: 'mine', votesPerPoll: 123 });
    expect(values.template).toBe(join(folder, 'cdk.out/t.json'));
  });
});
