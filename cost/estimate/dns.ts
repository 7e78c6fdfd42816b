/**
 * A real site has a domain: what its DNS costs on each side, as dated price data. On AWS a Route 53
 * hosted zone (the region's price book), whose alias records to the stack's CloudFront distribution are answered at
 * no charge; on the VPS side the DNS of the provider that rents the box.
 */
import type { PriceBook } from '../../pricing/price-book';
import { listRate, tieredCost } from '../../pricing/tiers';
import { money } from './format';

/** The VPS side's DNS: the box's provider's name servers, or the CDN's where one fronts the box. */
export const VPS_DNS = {
  name: "its provider's or CDN's DNS",
  monthlyUsd: 0,
  source: 'docs.digitalocean.com/products/networking/dns (records on ns1-3.digitalocean.com; no price listed)',
  checked: '2026-11-26',
  assumption:
    "no charge: DigitalOcean prices no DNS item, and Hetzner's and Cloudflare's free DNS are taken as alike " +
    '(the research notes do not cover them)',
} as const;

/**
 * A domain's DNS a month on each side: one hosted zone and free alias queries on AWS; the provider's DNS. The
 * months in `currency`, dollars beside; AWS's per-query price in dollars, as AWS bills it.
 */
export function domainDns(book: PriceBook, currency = 'USD'): { awsUsd: number; vpsUsd: number; text: string } {
  const zone = tieredCost(1, book.prices.route53HostedZone);
  const queries = listRate(book.prices.route53Queries) * 1e6;
  return {
    awsUsd: zone,
    vpsUsd: VPS_DNS.monthlyUsd,
    text:
      `AWS ${money(zone, currency)} a month (a Route 53 hosted zone; alias queries to CloudFront free, others ` +
      `$${queries.toFixed(2)} a million), the VPS ${money(VPS_DNS.monthlyUsd, currency)} ` +
      `(${VPS_DNS.name})`,
  };
}
