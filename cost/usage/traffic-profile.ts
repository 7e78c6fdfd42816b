/**
 * What a traffic profile is (its fields: cost/usage/profiles.ts has the presets and the validator), the
 * month the model bills, and the requests one results viewer makes: what the profile's walk
 * (cost/usage/peaks.ts) and the bill (cost/estimate/model.ts) both start from. A leaf of the estimator: it
 * imports settings, a region's edge group and the page's refresh schedule, nothing of cost/.
 */
import type { EdgeLocation } from '../../pricing/regions';
import { refreshRequests } from '../../domain/results-refresh';

/** A box the user has (or would buy): its name, its monthly price in its currency, its vCPUs, where it is. */
export interface OwnBox {
  name: string;
  /** A month's price, in `currency`. */
  price: number;
  currency: string;
  vcpus: number;
  /** Shared vCPUs (a Basic Droplet, a Hetzner CX) or dedicated ones (CPU-Optimized, CCX, a server). */
  cpu: 'shared' | 'dedicated';
  location?: string;
}

export interface TrafficProfile {
  name: string;
  description: string;
  pollsPerDay: number;
  votesPerPoll: number;
  /** Minutes a poll is open: the window its votes arrive in. */
  votingMinutes: number;
  /** The busiest hour of the day brings this multiple of the day's average polls. */
  busyHourFactor: number;
  /** A poll's busiest minute brings this multiple of its window's average votes. */
  busiestMinuteFactor: number;
  /** Visits to the site per vote (each: the page and a poll read). */
  pageLoadsPerVoter: number;
  /** People per poll watching live results (voters who stay, plus people who only watch). */
  resultsViewersPerPoll: number;
  /** Minutes each of them keeps the results on screen, while the poll is open. */
  watchMinutes: number;
  /**
   * How often a viewer's page asks for results: `busy` (votes keep arriving, the page
   * refreshes at its fastest), `quiet` (it backs off), or a fixed number of seconds.
   */
  refresh: 'busy' | 'quiet' | number;
  oneVotePerVoter: boolean;
  /** The AWS Region to price (pricing/books/<region>.json), unless the command line names another. */
  region?: string;
  /**
   * Where the page's viewers are, as CloudFront bills them (pricing/regions.ts EDGE_LOCATIONS, "Europe"): by
   * default near the region priced.
   */
  viewersIn?: EdgeLocation;
  /** The currency the answer is shown in, AWS's dollars beside (pricing/exchange-rates.json), unless --currency. */
  currency?: string;
  /** The user's own box, set beside AWS in the answer (cost/usage/own-box.ts), unless --vps says another. */
  vps?: OwnBox;
  /** Raises the derived busiest second (cost/usage/peaks.ts), all routes; never lowers it. */
  peakRequestsPerSecond?: number;
  /** Bytes a visit transfers (the page, compressed): see docs/architecture.md "The site". */
  pageBytes: number;
  /** Bytes of one API response on the wire, headers included. */
  apiResponseBytes: number;
}

/** The month the model bills: 30 days, and its seconds. */
export const DAYS_PER_MONTH = 30;
export const SECONDS_PER_MONTH = DAYS_PER_MONTH * 24 * 3600;

/** A schedule's requests by window: walking it is the model's costliest step, asked at every volume it prices. */
const scheduleRequests = new Map<string, number>();

/** Requests one results viewer makes while watching. */
export function resultsRequestsPerViewer(profile: Pick<TrafficProfile, 'watchMinutes' | 'refresh'>): number {
  const windowMs = profile.watchMinutes * 60_000;
  if (typeof profile.refresh === 'number') return Math.ceil(windowMs / (profile.refresh * 1000));
  const key = `${profile.refresh} ${windowMs}`;
  let requests = scheduleRequests.get(key);
  if (requests === undefined) {
    // Bounded: the explorer asks for a new window at each value typed.
    if (scheduleRequests.size >= 256) scheduleRequests.clear();
    requests = refreshRequests(windowMs, profile.refresh);
    scheduleRequests.set(key, requests);
  }
  return requests;
}
