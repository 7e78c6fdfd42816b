/**
 * `npm run cost -- --profile seed` (bin/cost.ts runs it): the monthly AWS bill for a traffic profile,
 * beside the VPS baseline. `npm run cost -- --help` for the options. The command line only: the files it reads
 * and writes are cost/report-files.ts's.
 */
import { UsageError } from '../node/command-line';
import { STACK_NAME } from '../config/stack';
import { LOCALSTACK } from '../config/emulated-aws';
import { CLOUDWATCH_PERMISSIONS } from './estimate/cloudwatch';
import { CLOUDWATCH_TARGETS } from './cloudwatch-command';
import { profileFieldLines, PROFILES } from './usage/profiles';
import type { CloudWatchOptions } from './report-files';

/** The profile fields as --help lists them: name and unit, the seed's value and range, then what it means. */
function profileFieldHelp(): string[] {
  return profileFieldLines().map(([field, unit, seed, range, meaning]) => {
    const head = `  ${field}${unit ? ` (${unit})` : ''}`;
    const values = [seed && `seed ${seed}`, range].filter(Boolean).join(', ');
    return `${head.padEnd(40)} ${meaning}${values ? ` [${values}]` : ''}`;
  });
}

/** The command line of npm run cost. */
export const COST_COMMAND = {
  command: 'npm run cost --',
  summary:
    'The monthly AWS bill for a traffic profile, line by line with dated prices, beside the VPS it usually runs on.',
  options: {
    profile: {
      type: 'string',
      default: 'seed',
      value: '<name|file.json>',
      description: `a preset (${Object.keys(PROFILES).join(', ')}) or a JSON file of fields over the seed preset`,
    },
    from: {
      type: 'string',
      value: '<results folder>',
      path: true,
      description: 'per-vote and per-view usage measured by a local load test (npm run load writes the folder)',
    },
    template: {
      type: 'string',
      value: '<file>',
      path: true,
      description:
        'the synthesized template to price ' +
        '(default: cdk.out/ after npx cdk synth, else the default design from cost/estimate/designs.json)',
    },
    'vps-from': {
      type: 'string',
      value: '<file|folder>',
      path: true,
      description:
        "this app's VPS capacity from your npm run bench:vps file (default: cost/estimate/vps-capacity.json), " +
        'or a load test of your VPS (--target vps) to set beside it',
    },
    vps: {
      type: 'string',
      value: '<box>',
      description:
        'your box, "<name>,<price> <currency>,<vCPUs>,<shared|dedicated>[,<location>]" (e.g. "Hetzner CX23,5.49 ' +
        'EUR,2,shared,Falkenstein"), set beside AWS in the answer and the break-even, and whether it carries the ' +
        'busiest second; the profile field vps is the same',
    },
    currency: {
      type: 'string',
      value: '<code>',
      description:
        "the answer's months in this currency, AWS's dollars beside, at the ECB's rates in " +
        'pricing/exchange-rates.json (EUR, GBP, CHF, …), and with --compare-to the change; the profile field ' +
        'currency is the same',
    },
    detail: {
      type: 'boolean',
      default: false,
      description:
        'print the full working (the traffic, every design, the bill line by line, capacity stage by stage, the VPS ' +
        'boxes, the what-ifs, the assumptions), not only the answer; the report files hold it either way',
    },
    region: {
      type: 'string',
      value: '<code>',
      description:
        'the AWS Region to price (default: the one the synthesized stack was made for, else us-east-1); its book ' +
        'is pricing/books/<code>.json (npm run prices -- --region <code> fetches it)',
    },
    books: {
      type: 'string',
      value: '<folder>',
      path: true,
      description: 'the folder of price books (default: pricing/books/)',
    },
    'new-account': {
      type: 'boolean',
      default: false,
      description: "a new account: count its sign-up credits (AWS's, since 2025-07-15) and its quotas",
    },
    'from-cloudwatch': {
      type: 'boolean',
      default: false,
      description:
        'the bill a deployed stack ran: its CloudWatch metrics over the window, projected to a month, beside ' +
        'the estimate of the profile that best fits them (written to <out>/fitted-profile.json)',
    },
    target: {
      type: 'string',
      default: 'aws',
      value: '<aws|localstack>',
      description: `with --from-cloudwatch: where the stack is (localstack: ${LOCALSTACK.endpoint}, test credentials)`,
    },
    stack: {
      type: 'string',
      value: '<name>',
      description: `with --from-cloudwatch: the stack (default: the one cdk-outputs.json names, else ${STACK_NAME})`,
    },
    since: {
      type: 'string',
      value: '<ISO time>',
      description: 'with --from-cloudwatch: the window starts then and ends now',
    },
    hours: {
      type: 'string',
      value: '<n>',
      description: 'with --from-cloudwatch: the window is the last n hours (default: 24)',
    },
    'compare-to': {
      type: 'string',
      value: '<cdk.out|file>',
      path: true,
      description:
        'the cost of a change: price this base (a cdk.out folder or a template) and the head (--template, else ' +
        'cdk.out/) for the profile, line by line with why each moved, the busiest second and the break-even ' +
        'before and after, the resources changed (cdk diff style)',
    },
    format: {
      type: 'string',
      default: 'text',
      value: '<text|markdown|json>',
      description: "with --compare-to: the terminal's view, a pull request's comment, or JSON",
    },
    'fail-above': {
      type: 'string',
      value: '<usd|percent%>',
      description: 'with --compare-to: exit 1 when the monthly bill moves up by more than this (10, 5%)',
    },
    'fail-below': {
      type: 'string',
      value: '<usd|percent%>',
      description: 'with --compare-to: exit 1 when the monthly bill moves below this (-10, -20%)',
    },
    'quiet-if-unchanged': {
      type: 'boolean',
      default: false,
      description: 'with --compare-to: print nothing when no bill line and no resource changed',
    },
    out: {
      type: 'string',
      default: 'cost-report',
      value: '<folder>',
      path: true,
      description: 'where report.json, report.md, report.html and chart.svg go',
    },
  },
  details: [
    "Profile fields (a JSON file gives any of them; the rest are the seed preset's):",
    ...profileFieldHelp(),
    '',
    'Examples:',
    '  npm run cost -- --profile club',
    '  npm run cost -- --from load-tests/results/vote-storm-local-<time>',
    '  npx cdk synth && npm run cost',
    '  npx cdk synth -o /tmp/base && npx cdk synth -c results=function-url && npm run cost -- --compare-to /tmp/base',
    '  npm run cost -- --from-cloudwatch --target localstack --hours 1',
    '',
    // One paragraph, one line here: the help wraps it (a line wrapped by hand here would be wrapped again).
    `--from-cloudwatch needs these permissions, read-only, and nothing else: ${CLOUDWATCH_PERMISSIONS.join(', ')}. ` +
      'It reads API Gateway Count (per route where detailed metrics are on), Lambda Invocations and Duration, ' +
      'SQS messages sent, received, deleted and empty receives, DynamoDB consumed read and write units, and ' +
      'CloudFront Requests and BytesDownloaded (us-east-1); a service with no datapoints is "not measured", ' +
      'never $0.00.',
  ],
} as const;

/** The options that only --from-cloudwatch takes, given without it; or the ones it cannot take with it. */
export function checkCloudWatchOptions(values: CloudWatchOptions, argv: string[]): void {
  const given = (name: string) => argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (!values['from-cloudwatch']) {
    const stray = ['target', 'stack', 'since', 'hours'].find(given);
    if (stray) throw new UsageError(`--${stray} is an option of --from-cloudwatch: give that too`);
    return;
  }
  const clash = ['profile', 'from'].find(given);
  if (clash) throw new UsageError(`--${clash} and --from-cloudwatch both say what to bill: give one of them`);
  if (!(CLOUDWATCH_TARGETS as readonly string[]).includes(values.target))
    throw new UsageError(`--target ${values.target}: use ${CLOUDWATCH_TARGETS.join(' or ')}`);
}
