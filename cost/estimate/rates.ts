/**
 * The CORS preflights a vote brings, derived from the visits and the stack: the bill (cost/estimate/model.ts) and
 * the capacity verdict (cost/estimate/stages.ts) both read them here, so they cannot disagree; the vote path's
 * own rates are sizing/vote-rates.ts. Pure.
 */

/** What a voter's visits look like in a profile: visits a vote, and how long a poll is open. */
export interface VoterVisits {
  pageLoadsPerVoter: number;
  votingMinutes: number;
}

/** Where the API needs CORS, and how long a browser keeps a preflight's answer. */
export interface CorsShape {
  corsPreflight: boolean;
  corsMaxAgeSeconds: number;
}

/**
 * CORS preflights a vote brings: a browser asks once per URL (a poll's vote route) and keeps the
 * answer for the max-age, so a visit that casts many votes sends one, and a visit longer than the
 * max-age one more per max-age. No visits (an API client, not a page): none.
 */
export function preflightsPerVote(visits: VoterVisits, cors: CorsShape): number {
  if (!cors.corsPreflight || !(visits.pageLoadsPerVoter > 0)) return 0;
  // No max-age: every POST is asked about.
  if (!(cors.corsMaxAgeSeconds > 0)) return 1;
  const perVisit = Math.max(1, Math.ceil((visits.votingMinutes * 60) / cors.corsMaxAgeSeconds));
  return Math.min(1, visits.pageLoadsPerVoter * perVisit);
}

/** The results function's traffic: requests a second over every open poll, how many are open, its time a request. */
export interface ResultsTraffic {
  requestsPerSecond: number;
  pollsOpen: number;
  billedMs: number;
}

/**
 * Table reads a results request brings where the results function keeps each poll's counts for
 * `cacheSeconds`: Lambda spreads requests over its environments, so each reads each open poll once a
 * period; and it runs at least an environment per `requestsPerConcurrency` requests a second (its
 * quota per unit of concurrency), or requests × time, whichever is more. A quiet poll on one
 * environment reads at most once a request; a crowd on thousands of environments reads thousands of times a period.
 */
export function resultsReadsPerRequest(
  traffic: ResultsTraffic,
  cacheSeconds: number,
  requestsPerConcurrency: number,
): number {
  const { requestsPerSecond: rps } = traffic;
  if (!(rps > 0)) return 0;
  const environments = resultsEnvironments(traffic, requestsPerConcurrency);
  return Math.min(rps, (environments * Math.max(1, traffic.pollsOpen)) / cacheSeconds) / rps;
}

/** The results function's environments at that traffic: a request's time each, and at least one per quota's rate. */
export const resultsEnvironments = (traffic: ResultsTraffic, requestsPerConcurrency: number): number =>
  Math.max(
    1,
    traffic.requestsPerSecond / requestsPerConcurrency,
    (traffic.requestsPerSecond * traffic.billedMs) / 1000,
  );
