/**
 * The busiest second of a profile's month, derived from when things happen: how many polls are
 * open at once in the busiest hour, and the hottest poll at its busiest minute. What a design must
 * carry (cost/estimate/capacity.ts) and what a VPS is sized for (cost/estimate/compare.ts) start here. Pure.
 */
import { DAYS_PER_MONTH, resultsRequestsPerViewer, type TrafficProfile } from './traffic-profile';

/**
 * Requests a second, route by route, as browsers send them (CORS preflights are the design's:
 * cost/estimate/capacity.ts).
 */
export interface RouteRates {
  /** Visits to the site: the page. */
  pages: number;
  /** The poll read each visit of a voter or watcher makes. */
  pollReads: number;
  votes: number;
  results: number;
  creates: number;
}

export interface Peak {
  /** Every route together at the busiest second: the derived peak, or the profile's override when higher. */
  requestsPerSecond: number;
  /** What the profile's own fields give. */
  derivedRequestsPerSecond: number;
  /** Each route at the peak (scaled up with the override, if any). */
  routes: RouteRates;
  /** Polls open at once in the busiest hour, on average (below 1: most of the time, none). */
  pollsOpenAtOnce: number;
  hottestPoll: {
    votesPerSecond: number;
    resultsRequestsPerSecond: number;
    /** The visits (and poll reads) that come with its votes. */
    pageLoadsPerSecond: number;
    viewersAtOnce: number;
    /** Seconds between a viewer's results requests, on average over the watch. */
    refreshSeconds: number;
  };
}

const HOUR = 3600;
const sum = (r: RouteRates) => r.pages + r.pollReads + r.votes + r.results + r.creates;
const scale = (r: RouteRates, by: number): RouteRates => ({
  pages: r.pages * by,
  pollReads: r.pollReads * by,
  votes: r.votes * by,
  results: r.results * by,
  creates: r.creates * by,
});
const add = (a: RouteRates, b: RouteRates): RouteRates => ({
  pages: a.pages + b.pages,
  pollReads: a.pollReads + b.pollReads,
  votes: a.votes + b.votes,
  results: a.results + b.results,
  creates: a.creates + b.creates,
});
const fmt = (n: number, digits = 3) =>
  n >= 100 ? Math.round(n).toLocaleString('en-US') : Number(n.toPrecision(digits)).toString();

/** One poll's requests a second averaged over its window (creates aside). */
function pollAverage(profile: TrafficProfile): RouteRates {
  const window = profile.votingMinutes * 60;
  const watchersWhoDoNotVote = Math.max(0, profile.resultsViewersPerPoll - profile.votesPerPoll);
  const visits = profile.votesPerPoll * profile.pageLoadsPerVoter + watchersWhoDoNotVote;
  return {
    pages: visits / window,
    pollReads: visits / window,
    votes: profile.votesPerPoll / window,
    results: (profile.resultsViewersPerPoll * resultsRequestsPerViewer(profile)) / window,
    creates: 0,
  };
}

/**
 * The people watching a poll's results at the end of its busiest minute: those who arrived within one watch of
 * it. They arrive as its votes do: busiestMinuteFactor times the poll's average in that minute, the average
 * before it; never more than the poll's viewers.
 */
function arrivalsWithinAWatch(profile: TrafficProfile): number {
  const perMinute = profile.resultsViewersPerPoll / profile.votingMinutes;
  const busiest = Math.min(profile.watchMinutes, 1) * profile.busiestMinuteFactor;
  return perMinute * (busiest + Math.max(0, profile.watchMinutes - 1));
}
const watchersAtOnce = (profile: TrafficProfile) =>
  Math.min(profile.resultsViewersPerPoll, arrivalsWithinAWatch(profile));

/**
 * The busiest second: the hottest poll at its busiest minute (its votes, the visits that bring them
 * and the viewers arriving, at busiestMinuteFactor times the average; its results from those watching
 * at once over their refresh interval), plus the other polls open at once at their average, plus creates.
 */
export function derivePeak(profile: TrafficProfile): Peak {
  const average = pollAverage(profile);
  const pollsOpenAtOnce = ((profile.pollsPerDay * profile.busyHourFactor) / 24) * (profile.votingMinutes / 60);
  const f = profile.busiestMinuteFactor;
  // No polls, no peak: the hottest poll exists only when polls do.
  const some = profile.pollsPerDay > 0 ? 1 : 0;
  const watchSeconds = profile.watchMinutes * 60;
  const viewersAtOnce = watchersAtOnce(profile) * some;
  const requestsPerViewer = resultsRequestsPerViewer(profile);
  const refreshSeconds = requestsPerViewer > 0 ? watchSeconds / requestsPerViewer : 0;
  const results = refreshSeconds > 0 ? viewersAtOnce / refreshSeconds : 0;
  const hottest: RouteRates = { ...scale(average, f * some), results, creates: 0 };
  const creates = (profile.pollsPerDay * profile.busyHourFactor) / (24 * HOUR);
  const others = scale(average, Math.max(0, pollsOpenAtOnce - 1));
  const derived = add(hottest, { ...others, creates });
  const derivedRequestsPerSecond = sum(derived);
  const override = profile.peakRequestsPerSecond;
  const raise = override !== undefined && override > derivedRequestsPerSecond && derivedRequestsPerSecond > 0;
  // Each route's share of the derived peak, times the override: finite however small the derived peak.
  const shareOf = (route: number) => (route / derivedRequestsPerSecond) * override!;
  const routes = raise
    ? {
        pages: shareOf(derived.pages),
        pollReads: shareOf(derived.pollReads),
        votes: shareOf(derived.votes),
        results: shareOf(derived.results),
        creates: shareOf(derived.creates),
      }
    : derived;
  const requestsPerSecond = raise ? override : derivedRequestsPerSecond;
  const hottestPoll = {
    votesPerSecond: hottest.votes,
    resultsRequestsPerSecond: hottest.results,
    pageLoadsPerSecond: hottest.pages,
    viewersAtOnce,
    refreshSeconds,
  };
  return { requestsPerSecond, derivedRequestsPerSecond, routes, pollsOpenAtOnce, hottestPoll };
}

/**
 * The derivation in words and numbers, as the report prints it, so a reader can check it. Apart from
 * derivePeak: the model derives peaks at many volumes (break-evens, the chart) and prints one.
 */
export function peakWorking(profile: TrafficProfile, peak: Peak): string[] {
  const { hottestPoll: hot, routes } = peak;
  const override = peak.requestsPerSecond > peak.derivedRequestsPerSecond;
  return [
    `Polls open at once in the busiest hour: ${fmt(profile.pollsPerDay)} a day × ${profile.busyHourFactor} ` +
      `(busy hour) ÷ 24 h × ${profile.votingMinutes} min open ÷ 60 = ${fmt(peak.pollsOpenAtOnce)}.`,
    `Hottest poll, busiest minute: ${fmt(profile.votesPerPoll)} votes ÷ ${profile.votingMinutes * 60} s × ` +
      `${profile.busiestMinuteFactor} = ${fmt(hot.votesPerSecond)} votes/s, with ${fmt(hot.pageLoadsPerSecond)} ` +
      'visits/s (each a page and a poll read).',
    hot.resultsRequestsPerSecond > 0
      ? `Its results: ${watchersWorking(profile, hot.viewersAtOnce)} watching at once, each asking every ` +
        `${fmt(hot.refreshSeconds)} s = ${fmt(hot.resultsRequestsPerSecond)} req/s.`
      : 'Its results: nobody watches them (no viewers, or none for long enough to ask): 0 req/s.',
    `Busiest second, the other polls open at once at their average added: pages ${fmt(routes.pages)}, ` +
      `poll reads ${fmt(routes.pollReads)}, votes ${fmt(routes.votes)}, results ${fmt(routes.results)}, ` +
      `creates ${fmt(routes.creates)}: ${fmt(peak.requestsPerSecond)} req/s` +
      (override
        ? ` (the profile's peakRequestsPerSecond, above the derived ${fmt(peak.derivedRequestsPerSecond)})`
        : '') +
      `; the month's average is ${fmt(monthAverage(profile))} req/s. A design whose API needs CORS also gets a ` +
      'preflight per voting visit (a browser keeps its answer for the max-age) and per create: its stages count them.',
  ];
}

/** Who is watching, as watchersAtOnce counts them: arrivals within one watch of the busiest minute's end. */
function watchersWorking(profile: TrafficProfile, atOnce: number): string {
  const perMinute = profile.resultsViewersPerPoll / profile.votingMinutes;
  const watch = profile.watchMinutes;
  const busiest = `${fmt(perMinute)} × ${profile.busiestMinuteFactor} × ${fmt(Math.min(watch, 1))} min`;
  const before = watch > 1 ? ` + ${fmt(perMinute)} × ${fmt(watch - 1)} min before it` : '';
  const capped = arrivalsWithinAWatch(profile) > profile.resultsViewersPerPoll;
  return (
    `${fmt(profile.resultsViewersPerPoll)} viewers arrive over ${profile.votingMinutes} min ` +
    `(${fmt(perMinute)} a minute), as its votes do; those who came within one watch (${fmt(watch)} min) of ` +
    `the busiest minute's end: ${busiest}${before} = ${fmt(atOnce)}` +
    (capped ? ` (at most the poll's ${fmt(profile.resultsViewersPerPoll)} viewers)` : '')
  );
}

/** Requests a second over the whole month, the same routes. */
export function monthAverage(profile: TrafficProfile): number {
  const polls = profile.pollsPerDay * DAYS_PER_MONTH;
  return (sum(pollAverage(profile)) * profile.votingMinutes * 60 * polls + polls) / (DAYS_PER_MONTH * 24 * HOUR);
}
