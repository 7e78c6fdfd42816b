/**
 * The AWS designs in words, as the full working prints them (cost/report/working.ts): the floor, every
 * design's row, the recommendation and its deploy command (with a budget), the design cheaper after quota
 * raises, CloudFront's poll reads and plans, and the Lambda Managed Instances what-if.
 */
import { BUDGET_ALERT_PERCENTAGES, BUDGET_FLAGS } from '../../config/budget';
import { beforeThePeak, raisesText } from './answer';
import { MAX_RAMP_SECONDS } from '../estimate/capacity';
import { DEPLOY_SCRIPT } from '../estimate/designs';
import { planFee } from '../estimate/flat-rate';
import { MANAGED_INSTANCES, type ManagedInstancesWhatIf } from '../estimate/managed-instances';
import { CLOUDFRONT_FLAT_RATE_PLANS, CLOUDFRONT_FLAT_RATE_RULES } from '../../pricing/plans-and-credits';
import type { CostReport, DesignRow } from '../estimate/build-report';
import { money, quantity, signedUsd, usd, usdSmall } from '../estimate/format';
import { perMillionVotes } from './bill-lines';

export const DESIGNS_INTRO =
  'Every AWS design, each priced from its own template as its command deploys it; "x floor" is its month over ' +
  'the AWS floor; ← marks the cheapest that carries the busiest second; ' +
  `deploy with ${DEPLOY_SCRIPT} -- and the flags:`;

/** The mark on the recommended design's row, which the table's heading explains. */
export const RECOMMENDED_MARK = '←';

export const designHead = [
  `AWS design (${RECOMMENDED_MARK} the recommended)`,
  'Monthly',
  '$ per M req',
  'x floor',
  'Deploy',
];

/** A figure, or a dash where there is none (a price per vote in a month with no votes). */
const orDash = (n: number | undefined, format: (n: number) => string) => (n === undefined ? '—' : format(n));

/** The deploy cell: the whole command, or (in the terminal, where width is short) only its flags. */
const deployCell = (d: DesignRow, flagsOnly: boolean) =>
  d.deploy
    ? flagsOnly
      ? d.deploy.replace(`${DEPLOY_SCRIPT} -- `, '').replace(DEPLOY_SCRIPT, '') || '(no flags)'
      : d.deploy
    : 'not built';

export const designRows = (report: CostReport, flagsOnly = false) =>
  report.designs.map((d) => [
    d.name + (d.id === report.recommended.id ? ` ${RECOMMENDED_MARK}` : ''),
    // In the answer's currency, the dollars beside ("€5.49 ($6.37)"): the months a reader sets side by side.
    money(d.bill.totalUsd, report.profile.currency),
    orDash(d.usdPerMillionRequests, usdSmall),
    orDash(d.overFloor, (x) => `${x.toFixed(1)}x`),
    deployCell(d, flagsOnly),
  ]);

/** The AWS floor, before the designs are set beside it. */
export function floorLine({ floor }: CostReport): string {
  return (
    `AWS floor: ${usd(floor.usd)} a month: the ${quantity(floor.requests)} requests browsers send, each at ` +
    `${usd(floor.pricePerMillion)} per million (a Lambda request, the least AWS charges to answer one), and ` +
    'nothing else; no AWS design costs less, but for its free tiers and credits.'
  );
}

/**
 * After the deploy command: the same with a budget of this estimate (`-c monthlyBudgetUsd`), which e-mails as
 * actual or forecast spend nears it.
 */
function budgetLine(deploy: string | undefined, monthlyUsd: number): string[] {
  if (!deploy) return [];
  // A whole number of dollars, at least 1, as the flag takes it.
  const dollars = Math.max(1, Math.ceil(monthlyUsd));
  const flags = `-c ${BUDGET_FLAGS.amount}=${dollars} -c ${BUDGET_FLAGS.email}=<you@example.com>`;
  return [
    `With a monthly budget of this estimate, which e-mails you at ${BUDGET_ALERT_PERCENTAGES.join('% and ')}% ` +
      `of actual and of forecast spend (docs/deploy.md): ${deploy}${deploy.includes(' -- ') ? '' : ' --'} ${flags}`,
  ];
}

/** The recommendation: the cheapest design that carries the peak, what it needs, or that none carries. */
export function recommendation(report: CostReport): string[] {
  const { recommended: r } = report;
  const account = report.account === 'new' ? ' on a new account (its quotas: --new-account)' : '';
  if (!r.carries) {
    return [
      `No AWS design carries this profile's busiest second${account}, even with the stack's flags and quota ` +
        `raises, in time (within ${MAX_RAMP_SECONDS} s). The cheapest you can deploy: ${r.name}, ` +
        `${money(r.bill.totalUsd, report.profile.currency)} a month, for a month it cannot serve at its peak. ` +
        `Deploy it: ${r.deploy}`,
      ...budgetLine(r.deploy, r.bill.totalUsd),
    ];
  }
  return [
    `Cheapest AWS design that carries this profile${account}: ${r.name}, ` +
      `${money(r.bill.totalUsd, report.profile.currency)} a month ` +
      `(${perMillionVotes(r.bill)}). Deploy it: ${r.deploy}`,
    ...budgetLine(r.deploy, r.bill.totalUsd),
    ...beforeThePeak(report),
    ...cheaperLine(report),
  ];
}

/** The design cheaper than the recommendation after quota raises, when there is one: what it saves, what it needs. */
function cheaperLine({ cheaperWithQuotaRaises: c, designs, profile }: CostReport): string[] {
  if (!c) return [];
  const name = designs.find((d) => d.id === c.id)?.name ?? c.id;
  const [month, saving] = [money(c.monthlyUsd, profile.currency), money(c.savingUsd, profile.currency)];
  return [
    `Cheaper after quota raises: ${name}, ${month} a month (${saving} less), once AWS ` +
      `grants ${raisesText(c.quotaRaises)}: a support request that can take days, and may be refused.`,
  ];
}

/**
 * results=cloudfront caches poll reads at the edge for the max-age their answers carry (lib/site.ts): how
 * many of the month's reach API Gateway and Lambda. None when no design fronts the API.
 */
export function cloudFrontPollReads(report: CostReport): string[] {
  const design = report.designs.find((d) => d.stack.results === 'cloudfront');
  if (!design) return [];
  const { pageLoads, polls, invocations } = design.bill.usage;
  return [
    `${design.name}: poll reads are cached at the edge for the max-age each answer carries (at most ` +
      `${design.stack.pollReadCacheSeconds} s, never past the poll's close; votes pass through uncached): ` +
      `${quantity(invocations.getPoll)} of their ${quantity(pageLoads - polls)} a month reach API Gateway and Lambda.`,
  ];
}

/**
 * Each design's CloudFront (the page's, and with results=cloudfront the API's): a flat-rate plan or pay as you
 * go, the cheaper, and why, with the plans' rules once. The recommended design's and the CloudFront design's.
 */
export function cloudFrontPlanLines(report: CostReport): string[] {
  const designs = [report.recommended, ...report.designs.filter((d) => d.stack.results === 'cloudfront')];
  const lines = [...new Map(designs.map((d) => [d.id, d])).values()].flatMap((d) => {
    const cf = d.bill.cloudFront;
    if (!cf) return [];
    const month = `${quantity(cf.requests)} requests and ${quantity(cf.transferGb)} GB a month`;
    return [
      cf.plan
        ? `${d.name}: CloudFront on the flat-rate ${cf.plan.name} plan, ${usd(cf.plan.usd)} a month for ${month}, ` +
          `where pay as you go costs ${usd(cf.paygUsd)}: ${cf.why}; so no CloudFront request quota to raise.`
        : `${d.name}: CloudFront pay as you go, ${usd(cf.paygUsd)} a month for ${month}: ${cf.why}.`,
    ];
  });
  if (lines.length === 0) return [];
  const rules = CLOUDFRONT_FLAT_RATE_RULES;
  const fees = CLOUDFRONT_FLAT_RATE_PLANS.map((p) => `${p.name} $${planFee(report.options.book, p.id)}`);
  return [
    ...lines,
    `Flat-rate plans (${fees.join(', ')}): ` +
      `${rules.counts}; ` +
      `${rules.overage}; ${rules.quota}; ${rules.eligible} (${rules.source}; checked ${rules.checked}).`,
  ];
}

/** The function-URL design's functions on Lambda Managed Instances: each scenario's month, and when it is cheaper. */
export function managedInstancesLines({ managedInstances: mi, vpsCapacity, options }: CostReport): string[] {
  if (!mi) return [];
  // A region's first book takes us-east-1's instance price: said here, where it is used.
  const assumed = options.book.prices.managedInstanceHours.assumption;
  const fleet = MANAGED_INSTANCES;
  const instancesUsd = (w: ManagedInstancesWhatIf) =>
    w.bill.lines
      .filter((l) => l.priceId === 'managedInstanceHours' || l.priceId === 'managedInstanceFee')
      .reduce((sum, l) => sum + l.usd, 0);
  const scenarios = mi.whatIfs.map(
    (w) =>
      `${w.name}: ${w.instances} x ${fleet.instanceType} kept all month (the peak needs ${w.peakVcpus.toFixed(2)} ` +
      `vCPUs; at least ${fleet.minInstances}), ${usd(w.bill.totalUsd)} a month (${signedUsd(w.deltaUsd)}: ` +
      `${usd(instancesUsd(w))} of instances for ${usd(instancesUsd(w) - w.deltaUsd)} of GB-seconds saved)`,
  );
  const cheaper = mi.whatIfs.filter((w) => w.deltaUsd < 0);
  return [
    `What if ${mi.design} (${usd(mi.baselineUsd)} a month) ran on Lambda Managed Instances (per instance hour, ` +
      `plus 15%, plus $0.20 per million requests; no GB-seconds): ${scenarios.join('; ')}. ` +
      (cheaper.length > 0
        ? `Cheaper for this profile: ${cheaper.map((w) => w.name).join('; ')}.`
        : `Never cheaper for this profile: it pays off only where the moved functions bill more GB-seconds ` +
          `than the instances cost, ${usd(instancesUsd(mi.whatIfs[0]))} a month at AWS's floor of ` +
          `${fleet.minInstances}.`) +
      ` Sized at this app's CPU a request (npm run bench:vps, ${vpsCapacity.measurement.date}: its own work, not ` +
      `the AWS SDK's calls, so a floor); ${fleet.notPriced} (${fleet.source}; checked ${fleet.checked}).` +
      (assumed ? ` Its instance price: ${assumed}.` : ''),
  ];
}
