/**
 * The VPS in words, as the full working prints it (cost/report/working.ts): each box's row and why one does
 * not carry, how the rows are worked out from the CPU a request costs, the seed documents' figures beside
 * them, the VPS answer, and this app's measured capacity and the CDN in front.
 */
import { AUTO_WORKERS_RULE } from '../../config/vps-workers';
import { POLL_READ_CACHE_SECONDS, RESULTS_CACHE_SECONDS } from '../../config/caching';
import { RAISE_HEADROOM } from '../estimate/capacity';
import { CDN_PLANS } from '../estimate/cdn';
import type { VpsCost } from '../estimate/compare';
import { money, percent, quantity, usd, usdSmall } from '../estimate/format';
import {
  microsOfMix,
  pricedTls,
  requestsOf,
  VPS_MAX_UTILISATION,
  type RequestMix,
  type WorkerCurve,
} from '../estimate/vps';
import { CAPACITY_REFERENCES, DEDICATED_VCPU, SHARED_VCPU, type VpsTier } from '../estimate/vps-tiers';
import type { CostReport } from '../estimate/build-report';

export const vpsHead = [
  'VPS (the VPS edition, one box)',
  'Processes',
  'Req/s at peak',
  'Capacity, req/s',
  'Carries? (load)',
  'Transfer',
  'Monthly',
  `Per M requests at ${percent(VPS_MAX_UTILISATION)}`,
];

/**
 * The columns a terminal has room for: the row (its vCPUs in its name; the prose under the table says
 * what runs on them), its load, capacity, verdict, month and break-even; and the transfer where a row pays
 * for going over its allowance (it can make a smaller box dearer).
 */
export const vpsTextColumns = (report: CostReport) =>
  report.vps.some((v) => v.overageUsd > 0) ? [0, 2, 3, 4, 5, 6] : [0, 2, 3, 4, 6];

/** A row's processes, as --workers auto runs them (sizing/vps-workers.ts): one, or workers and their primary. */
const processesOf = (v: VpsCost) => (v.box.workers ? `${v.box.workers} workers + primary` : 'one process');

/** Where a row has more workers than the curve measured: its µs a request taken as at the largest count. */
export const pastCurveText = (v: VpsCost) => (v.box.pastCurve ? `as at ${v.box.pastCurve} workers` : '');

/** Requests a second, route by route. */
const routesText = (mix: RequestMix) =>
  `pages ${quantity(mix.pages)}, poll reads ${quantity(mix.pollReads)}, votes and creates ${quantity(mix.votes)}, ` +
  `results ${quantity(mix.results)}: ${quantity(requestsOf(mix))} req/s`;

/**
 * How the VPS rows are worked out, in numbers: what reaches the box route by route, alone and behind a
 * CDN; the CPU a request of each mix costs; the capacity and the ceiling from them.
 */
export function vpsWorking(report: CostReport): string[] {
  const { cpu } = report.vpsCapacity.measurement;
  const tls = pricedTls(report.vpsCapacity.measurement);
  const alone = report.vps.find((v) => !v.cdn)!;
  const fronted = report.vps.find((v) => v.cdn);
  const curve = report.vpsCapacity.measurement.workerCurve;
  const micros = (mix: RequestMix) =>
    `${quantity(microsOfMix(tls.oneProcess, mix))} µs a request on one process, ` +
    `${quantity(microsOfMix(tls.workers, mix))} with 2 workers, ` +
    `${quantity(microsOfMix(cpu.primaryMicrosPerRequest, mix))} of it in the primary`;
  return [
    offersLine(report),
    `A box runs what npm run vps -- --workers auto does: ${AUTO_WORKERS_RULE}, with a primary that owns the log.`,
    `What reaches the box at the peak, alone: ${routesText(alone.origin)}` +
      (fronted
        ? `; behind a CDN (each of a poll's caches asks for the page once, the poll once per ` +
          `${POLL_READ_CACHE_SECONDS} s, results once per ${RESULTS_CACHE_SECONDS} s): ${routesText(fronted.origin)}.`
        : '.'),
    `The CPU a request of that mix costs ${tls.says}, alone: ${micros(alone.origin)}` +
      (fronted ? `; behind a CDN: ${micros(fronted.origin)}.` : '.') +
      ` A box serves min(vCPUs × share × 1e6 / µs, share × 1e6 / the primary's µs) req/s, a ` +
      `${SHARED_VCPU.kind} counted at ${SHARED_VCPU.factor} and a ${DEDICATED_VCPU.kind} at ` +
      `${DEDICATED_VCPU.factor} (one process on one vCPU: no primary), and carries ` +
      `at most ${percent(VPS_MAX_UTILISATION)} of it (1 / ${RAISE_HEADROOM}, the AWS side's headroom). The first ` +
      "term is the box's limit; the second, the writer's, is this edition's, whatever the box (\"(writer)\" in " +
      `the table). CPU figures: ${cpu.what}.`,
    curve
      ? `A request's µs with more than 2 workers grows as it grew on a many-core box (${curve.source}): ` +
        `${curveText(curve)}. A box's µs is the 2 workers' above times that growth from 2 to its count, ` +
        `interpolated between counts measured; past ${curve.workers.at(-1)}, taken as at ` +
        `${curve.workers.at(-1)} (the row says so). The page, not in that run, grows as options does; the ` +
        "primary's µs as measured with 2."
      : "A request's µs with more than 2 workers taken as measured with 2: no curve by worker count was given.",
  ];
}

/**
 * Which boxes are weighed: those sold in the market of the Region priced (and where, by provider), the seed's
 * reference, and the list's others, sold only elsewhere; or every market's, where none is sold in that one.
 */
function offersLine({ offers }: CostReport): string {
  const { region, market, tiers, elsewhere } = offers;
  if (offers.everyMarket)
    return (
      `No box on the list is sold in ${region}'s market (${market}): every market's are weighed, each at its ` +
      'own price and allowance.'
    );
  const sold = tiers.filter((tier) => tier.markets !== 'any');
  const where = [...new Map(sold.map((tier) => [tier.provider, `${tier.provider} (${tier.locations})`])).values()];
  const names = (list: VpsTier[]) => list.map((tier) => tier.name).join(', ');
  return (
    `The boxes weighed are those sold in ${region}'s market, ${market}, at their prices and allowances there: ` +
    `${where.join('; ')}; and the seed's $15 box, its reference. Sold only elsewhere, left out: ` +
    `${names(elsewhere)}. Hetzner's CPX and Arm CAX are not listed: no price of theirs after Hetzner's 2026 ` +
    'raises was found to cite (docs/sources.md).'
  );
}

/** The curve, route by route: "options 17.2 / 17.7 / 20.1 µs at 2 / 4 / 8 workers". */
const curveText = (curve: WorkerCurve) =>
  (Object.entries(curve.micros) as [string, number[]][])
    .map(([route, row]) => `${route} ${row.join(' / ')} µs`)
    .join(', ') + ` at ${curve.workers.join(' / ')} workers`;

/** The seed documents' own figures beside the rows: their program, their machine, their conditions. */
export const referenceHead = ['Their figure (not this app; not used for sizing)', 'req/s', 'Monthly', 'Conditions'];

export const referenceRows = () =>
  CAPACITY_REFERENCES.map((ref) => [
    ref.name,
    quantity(ref.requestsPerSecond),
    'monthlyUsd' in ref ? usd(ref.monthlyUsd) : '—',
    `${ref.conditions} (${ref.source})`,
  ]);

/**
 * Each VPS row: its load, its capacity and one ratio of the two (the verdict's); the prose under the table
 * says why a row does not carry.
 */
export const vpsRows = (report: CostReport) =>
  report.vps.map((v) => [
    v.name,
    processesOf(v),
    quantity(v.loadRps),
    capacityText(v),
    `${v.carries ? 'yes' : 'no'} (${percent(v.utilisation)})`,
    `${quantity(v.transferGb)} GB${v.overageUsd > 0 ? `, ${usd(v.overageUsd)} overage` : ''}` +
      (v.cdn && v.cdn.plan.usdPerGb > 0 ? `; the CDN ${quantity(v.cdn.gb)} GB, ${usd(v.cdn.usd)}` : ''),
    money(v.totalUsd, report.profile.currency),
    usdSmall(v.usdPerMillionAtCeiling),
  ]);

/** A row's capacity, and what bounds or qualifies it: the writer, a count of workers past the curve. */
const capacityText = (v: VpsCost) => {
  const notes = [v.box.binds === 'writer' ? 'writer' : '', pastCurveText(v)].filter(Boolean);
  return `${quantity(v.box.requestsPerSecond)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
};

/** A VPS row in words: its month, what reaches it at the peak, and what its vCPUs serve of that. */
function vpsSentence(report: CostReport, v: VpsCost): string {
  const measured = report.vpsCapacity.measurement;
  return (
    `${money(v.totalUsd, report.profile.currency)} a month on ${v.name}: ${quantity(v.loadRps)} req/s reach the ` +
    'box at the peak; ' +
    `it serves that mix at ${quantity(v.box.requestsPerSecond)} req/s on ${processesOf(v)}` +
    `${v.box.pastCurve ? ` (its µs a request ${pastCurveText(v)}, the most measured)` : ''}, ` +
    `${pricedTls(measured).says} (the CPU a request costs, npm run bench:vps on ${measured.date}, ` +
    `${measured.machine.model}), ` +
    (v.carries ? `loaded ${percent(v.utilisation)}` : `loaded ${percent(v.utilisation)}: ${v.why}`)
  );
}

/**
 * The VPS answer: the cheapest box that carries the peak; else the cheapest whose vCPUs would, held back
 * by this edition's writer (the edition's limit, said so); else plainly that no box on the list does,
 * the largest falling short on its cores.
 */
export function vpsLine(report: CostReport): string {
  const { vps, vpsCarries } = report.answer;
  if (vpsCarries) return `On a VPS: ${vpsSentence(report, vps)}.`;
  const aws = report.recommended.carries ? 'the AWS edition does' : 'nor does any AWS design';
  // Of the cheapest boxes whose cores carry it, the one nearest to carrying (behind a CDN, if one is).
  const cores = report.vps.filter((v) => v.coresCarry).sort((a, b) => a.totalUsd - b.totalUsd || a.needs - b.needs)[0];
  if (cores)
    return (
      `On a VPS: a box has the cores for this peak of ${quantity(report.designRps)} req/s, but this edition ` +
      `does not carry it (${aws}). ${vpsSentence(report, cores)}.`
    );
  const largest = [...report.vps].sort(
    (a, b) => b.box.coresRequestsPerSecond / b.loadRps - a.box.coresRequestsPerSecond / a.loadRps,
  )[0];
  return (
    `On a VPS: no single box on the list carries this peak of ${quantity(report.designRps)} req/s on its cores` +
    ` (${aws}). The nearest: ${vpsSentence(report, largest)}.`
  );
}

/** This app's measured capacity on a VPS, route by route, and other programs' figures as references. */
export const capacityLines = (report: CostReport) => {
  const { measurement, source } = report.vpsCapacity;
  const { machine, routes: r } = measurement;
  return [
    `This app's capacity (${source}, ${measurement.date}, ${machine.cpus} cores of ${machine.model}, ` +
      `Node ${machine.node}, ${measurement.command}): options ${quantity(r.options.requestsPerSecond)} req/s, ` +
      `page ${quantity(r.page.requestsPerSecond)}, vote ${quantity(r.vote.requestsPerSecond)} ` +
      `(on disk before each answer), results ${quantity(r.results.requestsPerSecond)}; ` +
      `a bare node:http server ${quantity(measurement.bare.requestsPerSecond)} in the same run.`,
    ...CDN_PLANS.map(
      (plan) =>
        `CDN in front of the VPS edition: ${plan.name}, $${plan.monthlyUsd} a month, $${plan.usdPerGb} per GB, ` +
        `$${plan.usdPerMillionRequests} per million requests, at least ${usd(plan.minimumMonthlyUsd)} a month ` +
        `(${plan.priceSource}; checked ${plan.checked}${plan.assumption ? '; assumption *' : ''}).`,
    ),
  ];
};
