/** `npm run cost`: what the app costs on AWS and on a VPS for a traffic profile (cost/cli.ts; docs/cost.md). */
import { join } from 'node:path';
import { CommandFailure, parseCommandLine, runCommand } from '../node/command-line';
import { makeFolder } from '../node/folders';
import { checkCloudWatchOptions, COST_COMMAND } from '../cost/cli';
import { cloudWatchInput, reportInput, writeReports } from '../cost/report-files';
import { checkCompareOptions, compareInput, compareOutput } from '../cost/compare-command';
import { buildReport, type ReportInput } from '../cost/estimate/build-report';
import { renderForTerminal } from '../cost/report/render-text';

const { values } = parseCommandLine(COST_COMMAND);

/** --compare-to: the cost of a change, printed; a gate passed is one line after it, and exit 1. */
async function compare(): Promise<void> {
  await runCommand(COST_COMMAND, () => {
    checkCompareOptions(values, process.argv.slice(2));
    checkCloudWatchOptions(values, process.argv.slice(2));
    const { text, failure } = compareOutput(compareInput(values), values);
    if (text) console.log(text);
    if (failure) throw new CommandFailure(failure);
  });
}

/** The month's report for the profile, written to --out and printed. */
async function report(): Promise<void> {
  let input!: ReportInput;
  await runCommand(COST_COMMAND, async () => {
    checkCompareOptions(values, process.argv.slice(2));
    checkCloudWatchOptions(values, process.argv.slice(2));
    input = values['from-cloudwatch'] ? await cloudWatchInput(values) : reportInput(values);
    // Before the report is printed: a folder it cannot write to is one line, not a report and a trace.
    makeFolder(values.out);
  });
  const built = buildReport(input);
  const out = writeReports(input, built, values.out);
  // Quoted as a shell needs them: --vps "Hetzner CX23,5.49 EUR,2,shared" is one argument.
  const args = process.argv
    .slice(2)
    .filter((a) => a !== '--detail')
    .map((a) => (/^[\w./:=,@+-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`));
  const where = [
    ...(values.detail ? [] : [`The full working: npm run cost -- ${[...args, '--detail'].join(' ')}`]),
    `Reports: ${join(out, 'report.html')} (the explorer), report.md, report.json, chart.svg`,
  ];
  console.log(renderForTerminal(built, values.detail, where));
}

await (values['compare-to'] === undefined ? report() : compare());
