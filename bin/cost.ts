/** `npm run cost`: what the app costs on AWS and on a VPS for a traffic profile (cost/cli.ts; docs/cost.md). */
import { join } from 'node:path';
import { parseCommandLine, runCommand } from '../cli/command-line';
import { makeFolder } from '../cli/folders';
import { checkCloudWatchOptions, cloudWatchInput, COST_COMMAND, reportInput, writeReports } from '../cost/cli';
import { buildReport, type ReportInput } from '../cost/estimate/build-report';
import { renderForTerminal } from '../cost/report/render-text';

const { values } = parseCommandLine(COST_COMMAND);
let input!: ReportInput;
await runCommand(COST_COMMAND, async () => {
  checkCloudWatchOptions(values, process.argv.slice(2));
  input = values['from-cloudwatch'] ? await cloudWatchInput(values) : reportInput(values);
  // Before the report is printed: a folder it cannot write to is one line, not a report and a trace.
  makeFolder(values.out);
});
const report = buildReport(input);
const out = writeReports(input, report, values.out);
const args = process.argv.slice(2).filter((a) => a !== '--detail');
const where = [
  ...(values.detail ? [] : [`The full working: npm run cost -- ${[...args, '--detail'].join(' ')}`]),
  `Reports: ${join(out, 'report.html')} (the explorer), report.md, report.json, chart.svg`,
];
console.log(renderForTerminal(report, values.detail, where));
