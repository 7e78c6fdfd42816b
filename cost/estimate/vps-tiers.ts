/**
 * The boxes the VPS side is priced on, as dated price data with their sources (docs/sources.md): shared
 * and dedicated vCPUs, each counted at its share of the vCPU npm run bench:vps measured; and the seed
 * documents' own figures, shown beside them, never used to size this app.
 */
import { EXCHANGE_RATES, rateText, toUsd } from '../../pricing/exchange-rates';
import { DEFAULT_REGION, type EdgeLocation, REGIONS } from '../../pricing/regions';
import type { OwnBox } from '../usage/traffic-profile';

/** How much of a vCPU the box's processes get at the peak, with where that comes from: data, like a price. */
export interface VcpuShare {
  kind: string;
  /** The share of a vCPU counted on: capacity is vCPUs × this × what the measured vCPU served. */
  factor: number;
  source: string;
  checked: string;
  assumption: string;
}

/** A Basic Droplet's (or a Hetzner CX's) vCPU: shared with other machines on its host. */
export const SHARED_VCPU: VcpuShare = {
  kind: 'shared vCPU',
  factor: 0.5,
  source:
    'https://docs.digitalocean.com/products/droplets/concepts/choosing-a-plan/ (shared CPU: the hyperthread may be ' +
    'shared with other Droplets, which "could receive fractions of hyperthreads" when their neighbours are busy)',
  checked: '2026-11-26',
  assumption:
    'a shared vCPU counted as half a dedicated one: no provider states a share, and a peak is when neighbours ' +
    'may be busy too; half is a stated assumption, not a measurement (set SHARED_VCPU.factor to yours)',
};

/** A CPU-Optimized Droplet's, a Hetzner CCX's or a dedicated server's vCPU: a hyperthread of its own. */
export const DEDICATED_VCPU: VcpuShare = {
  kind: 'dedicated vCPU',
  factor: 1,
  source:
    'https://docs.digitalocean.com/products/droplets/concepts/choosing-a-plan/ ("Dedicated CPU Droplets have ' +
    'guaranteed access to the full hyperthread at all times")',
  checked: '2026-11-26',
  assumption: 'a dedicated vCPU counted as one, the vCPU bench:vps measured on',
};

/**
 * Where an offer is sold at its price and allowance: a market, named as an AWS Region's viewers are grouped
 * (pricing/regions.ts), so that a Region's answer weighs the boxes sold near it.
 */
export type Market = EdgeLocation;

export interface VpsTier {
  name: string;
  provider: string;
  /**
   * The markets it is sold in at this price and allowance; 'any' for the seed's reference and the user's own box.
   * A plan whose price or allowance differs by location is one tier per market.
   */
  markets: readonly Market[] | 'any';
  /** Its locations in that market, in words. */
  locations: string;
  monthlyUsd: number;
  vcpu: number;
  vcpuShare: VcpuShare;
  /** Not given for the user's own box. */
  memoryGb?: number;
  /** Transfer included per month, in GB; overage is charged per GB. */
  includedTransferGb: number;
  overageUsdPerGb: number;
  priceSource: string;
  checked: string;
  /** The user's own box (--vps, a profile's vps): the one the answer sets beside AWS. */
  yours?: true;
}

/** The user's box as a tier: its price in dollars at the ECB's rate, its vCPUs counted as the list's are. */
export function ownTier(box: OwnBox): VpsTier {
  const cpu = `${box.vcpus} ${box.cpu} vCPU${box.vcpus > 1 ? 's' : ''}`;
  const converted =
    box.currency === 'USD' ? '' : `, at ${rateText(box.currency)} (the ECB's reference rate of ${EXCHANGE_RATES.date})`;
  return {
    name: `your ${box.name} (${cpu}${box.location ? `, ${box.location}` : ''})`,
    provider: 'yours',
    markets: 'any',
    locations: box.location ?? 'as given',
    monthlyUsd: toUsd(box.price, box.currency),
    vcpu: box.vcpus,
    vcpuShare: box.cpu === 'shared' ? SHARED_VCPU : DEDICATED_VCPU,
    // Its plan's allowance is not given: the transfer of the month is taken as included.
    includedTransferGb: Number.MAX_VALUE,
    overageUsdPerGb: 0,
    priceSource:
      `yours (--vps, or the profile's vps): ${box.currency} ${box.price} a month${converted}; ` +
      'transfer taken as included',
    checked: 'as given',
    yours: true,
  };
}

const DO_PRICES = 'DigitalOcean Basic droplets 2026 (docs/sources.md); overage $0.01/GiB';
/**
 * DigitalOcean's datacenters (its API's regions: New York, San Francisco, Toronto; London, Amsterdam, Frankfurt;
 * Singapore; Bangalore), at one price list whatever the datacenter.
 */
const DO_MARKETS: readonly Market[] = ['United States', 'Europe', 'Asia Pacific', 'India'];
const DO_LOCATIONS = 'NYC, SFO, TOR; LON, AMS, FRA; SGP; BLR';

const droplet = (monthlyUsd: number, vcpu: number, memoryGb: number, transferTb: number): VpsTier => ({
  name: `DO $${monthlyUsd} (${vcpu} vCPU, ${memoryGb} GB)`,
  provider: 'DigitalOcean',
  markets: DO_MARKETS,
  locations: DO_LOCATIONS,
  monthlyUsd,
  vcpu,
  vcpuShare: SHARED_VCPU,
  memoryGb,
  includedTransferGb: transferTb * 1000,
  overageUsdPerGb: 0.01,
  priceSource: DO_PRICES,
  checked: '2026-11',
});

/** Hetzner's prices in euros, in dollars at the ECB's reference rate of the day pricing/exchange-rates.json holds. */
const eur = (amount: number) => toUsd(amount, 'EUR');
/** How a tier's source says the rate it was converted at. */
export const EURO_RATE = `USD ${toUsd(1, 'EUR')} a euro (the ECB's reference rate of ${EXCHANGE_RATES.date})`;
/** Hetzner's gross prices include 19% German VAT; the tiers use the net price, as DigitalOcean's are quoted. */
const GERMAN_VAT = 1.19;
/** Hetzner Cloud raised prices on 2026-04-01: the CCX63 from EUR 343.30 to 359.40 gross; the others taken as alike. */
const HETZNER_2026_04 = 359.4 / 343.3;
/**
 * And again on 2026-06-15 (a third-party note, docs/sources.md): the CCX13 from EUR 15.99 to 42.99 net,
 * "the dedicated-CPU line went up over 200%"; the other CCX sizes taken as alike.
 */
const HETZNER_CCX_2026_06 = 42.99 / 15.99;

/**
 * Hetzner Cloud's locations by market, from a per-location price table of 2025-10-21 (docs/sources.md): in its
 * US locations a CCX cost more (CCX33 EUR 50.49 net against 48.49 in Germany and Finland) and included less
 * traffic; CX, CAX and the dedicated servers are sold in Germany and Finland only.
 */
const HETZNER_EU = 'Falkenstein, Nuremberg, Helsinki';
const HETZNER_US = 'Ashburn, Hillsboro';

/**
 * A Hetzner Cloud CCX in one market: dedicated vCPUs, priced from its gross EUR price in Germany before 2026-04,
 * and both raises; in the US, times the US locations' price over Germany's of 2025-10-21, with their allowance.
 */
function ccx(
  name: string,
  vcpu: number,
  memoryGb: number,
  grossEurBefore2026_04: number,
  us?: { netEur2025_10: number; euNetEur2025_10: number; transferTb: number },
): VpsTier {
  const transferTb = us?.transferTb ?? 20;
  const usPremium = us ? us.netEur2025_10 / us.euNetEur2025_10 : 1;
  const where = us ? `US locations (${HETZNER_US})` : `EU locations (${HETZNER_EU})`;
  return {
    name: `Hetzner ${name}${us ? ' US' : ''} (${vcpu} dedicated)`,
    provider: 'Hetzner',
    markets: [us ? 'United States' : 'Europe'],
    locations: us ? HETZNER_US : HETZNER_EU,
    monthlyUsd: round2(eur((grossEurBefore2026_04 / GERMAN_VAT) * HETZNER_2026_04 * HETZNER_CCX_2026_06 * usPremium)),
    vcpu,
    vcpuShare: DEDICATED_VCPU,
    memoryGb,
    includedTransferGb: transferTb * 1000,
    overageUsdPerGb: eur(1) / 1000,
    priceSource:
      `Hetzner Cloud ${name} (docs/sources.md): EUR ${grossEurBefore2026_04} gross before 2026-04, net of 19% VAT, ` +
      `raised as the CCX63 was on 2026-04-01 (x${HETZNER_2026_04.toFixed(3)}) and as the CCX13 was on 2026-06-15 ` +
      `(x${HETZNER_CCX_2026_06.toFixed(2)}) *` +
      (us
        ? `, x${usPremium.toFixed(3)} in its US locations (EUR ${us.netEur2025_10} net there against ` +
          `${us.euNetEur2025_10} in Germany on 2025-10-21) *`
        : '') +
      `, at ${EURO_RATE}; ${transferTb} TB included in ${where}${us ? ' *' : ''}, EUR 1 a TB over`,
    checked: '2026-11-27',
  };
}

const round2 = (usd: number) => Math.round(usd * 100) / 100;

/** A Hetzner Cloud CX: shared vCPUs, sold in Germany and Finland only, 20 TB included. */
const cx = (name: string, vcpu: number, memoryGb: number, netEur: number, priced: string): VpsTier => ({
  name: `Hetzner ${name} (${vcpu} vCPU)`,
  provider: 'Hetzner',
  markets: ['Europe'],
  locations: HETZNER_EU,
  monthlyUsd: round2(eur(netEur)),
  vcpu,
  vcpuShare: SHARED_VCPU,
  memoryGb,
  includedTransferGb: 20_000,
  overageUsdPerGb: eur(1) / 1000,
  priceSource: `Hetzner Cloud ${name} (docs/sources.md): ${priced}, at ${EURO_RATE}; 20 TB included (EU locations)`,
  checked: '2026-11-27',
});

/** The CX23's raise for new orders on 2026-06-15 (EUR 3.99 to 5.49 net): the CX33's taken as alike. */
const HETZNER_CX_2026_06 = 5.49 / 3.99;

/** The VPS tiers the report can price the month on, every market's, cheapest first. */
export const VPS_TIERS: VpsTier[] = (
  [
    cx('CX23', 2, 4, 5.49, 'EUR 5.49 net since 2026-06-15 (3.99 from 2026-04)'),
    cx(
      'CX33',
      4,
      8,
      6.49 * HETZNER_CX_2026_06,
      `EUR 6.49 net from 2026-04 (read 2026-04-15 and from Hetzner's API on 2026-05-27), raised for new orders as ` +
        `the CX23 was on 2026-06-15 (x${HETZNER_CX_2026_06.toFixed(3)}) *`,
    ),
    droplet(6, 1, 1, 1),
    droplet(12, 1, 2, 2),
    {
      name: 'Seed’s $15 VPS (3 vCPU)',
      provider: 'any',
      markets: 'any',
      locations: 'any',
      monthlyUsd: 15,
      vcpu: 3,
      vcpuShare: SHARED_VCPU,
      memoryGb: 1,
      includedTransferGb: 3000,
      overageUsdPerGb: 0.01,
      priceSource: 'the seed platform: "But why not AWS?" (docs/sources.md)',
      checked: '2026-11',
    },
    droplet(24, 2, 4, 4),
    {
      name: 'DO CPU-Opt. c-2 (2 dedicated)',
      provider: 'DigitalOcean',
      markets: DO_MARKETS,
      locations: DO_LOCATIONS,
      monthlyUsd: 42,
      vcpu: 2,
      vcpuShare: DEDICATED_VCPU,
      memoryGb: 4,
      includedTransferGb: 4000,
      overageUsdPerGb: 0.01,
      priceSource:
        'DigitalOcean CPU-Optimized droplet c-2 (docs/sources.md): about $42 a month; transfer allowance ' +
        'assumed 4 TB *',
      checked: '2026-11-26',
    },
    droplet(48, 4, 8, 5),
    ccx('CCX33', 8, 32, 57.7),
    ccx('CCX33', 8, 32, 57.7, { netEur2025_10: 50.49, euNetEur2025_10: 48.49, transferTb: 3 }),
    ccx('CCX43', 16, 64, 114.82),
    ccx('CCX43', 16, 64, 114.82, { netEur2025_10: 100.49, euNetEur2025_10: 96.49, transferTb: 4 }),
    {
      name: 'Hetzner AX52 (16 threads)',
      provider: 'Hetzner',
      markets: ['Europe'],
      locations: HETZNER_EU,
      monthlyUsd: round2(eur(59)),
      vcpu: 16,
      vcpuShare: DEDICATED_VCPU,
      memoryGb: 64,
      // Unmetered: a petabyte a month stands for it (a finite figure, so that the report's JSON keeps it).
      includedTransferGb: 1e6,
      overageUsdPerGb: 0,
      priceSource:
        `Hetzner dedicated server AX52, 8 cores / 16 threads (docs/sources.md): about EUR 59 a month net, ` +
        `2026-08, at ${EURO_RATE}; its one-off setup fee not counted; traffic unmetered; Germany and Finland only`,
      checked: '2026-11-26',
    },
  ] satisfies VpsTier[]
).sort((a, b) => a.monthlyUsd - b.monthlyUsd);

/** The seed's headline comparison: the $15 box. */
export const BASELINE_VPS = VPS_TIERS.find((tier) => tier.monthlyUsd === 15)!;

/** The offers a Region's answer weighs (offersFor). */
export interface Offers {
  /** The AWS Region priced, whose viewers' group is the market. */
  region: string;
  market: Market;
  /** The offers sold in that market, and the seed's reference, cheapest first. */
  tiers: VpsTier[];
  /** The list's offers sold only in other markets: left out, and named in the working. */
  elsewhere: VpsTier[];
  /** No offer on the list is sold in that market: every market's are weighed, and the working says so. */
  everyMarket: boolean;
}

/**
 * The boxes a person near `region` would buy: the offers sold in its market (Europe for eu-*, the United States
 * for us-*, as pricing/regions.ts groups a Region's viewers), with the seed's $15 box kept as its reference.
 */
export function offersFor(region: string): Offers {
  const market = (REGIONS[region] ?? REGIONS[DEFAULT_REGION]).viewers;
  const sold = (tier: VpsTier) => tier.markets === 'any' || tier.markets.includes(market);
  const everyMarket = !VPS_TIERS.some((tier) => tier.markets !== 'any' && sold(tier));
  return {
    region,
    market,
    tiers: everyMarket ? VPS_TIERS : VPS_TIERS.filter(sold),
    elsewhere: everyMarket ? [] : VPS_TIERS.filter((tier) => !sold(tier)),
    everyMarket,
  };
}

/**
 * The seed documents' published figures, with their conditions: shown beside this app's own, never
 * used to size it (another program, another machine, other durability).
 */
export const CAPACITY_REFERENCES = [
  {
    name: 'GO Poll (Go + Redis), DigitalOcean $5 droplet, 1 vCPU 1.8 GHz',
    requestsPerSecond: 5_800,
    monthlyUsd: 5,
    conditions: 'votes; plain HTTP, Redis AOF every second, wrk with 10,000-20,000 connections, 2018',
    source: 'docs/sources.md, GO Poll',
  },
  {
    name: 'GO Poll (Go + Redis), DigitalOcean $15 droplet, 3 vCPU',
    requestsPerSecond: 12_000,
    monthlyUsd: 15,
    conditions: 'votes; plain HTTP, Redis AOF every second, wrk with 10,000-15,000 connections, 2018',
    source: 'docs/sources.md, GO Poll',
  },
  {
    name: 'GO Poll (Go + Redis), DigitalOcean $80 droplet, 6 vCPU',
    requestsPerSecond: 68_630,
    monthlyUsd: 80,
    conditions:
      'votes, its best of three runs (30,500 in the other two); plain HTTP, Redis AOF every second, wrk with ' +
      '70,000 connections, 2018',
    source: 'docs/sources.md, GO Poll',
  },
  {
    name: 'the seed platform’s Node server, one process, 2x Xeon E5-2450 v2 (32 threads)',
    requestsPerSecond: 18_671,
    conditions: 'options route (live counts); plain HTTP on localhost, in Docker, autocannon -c 100 -d 10',
    source: 'docs/sources.md, the seed',
  },
  {
    name: 'the seed platform’s Rust/axum server, 8 threads, the same Xeons',
    requestsPerSecond: 140_000,
    conditions: 'in memory (no Redis, nothing on disk); plain HTTP on localhost, autocannon',
    source: 'docs/sources.md, the seed',
  },
] as const;
