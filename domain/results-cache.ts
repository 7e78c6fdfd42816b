/**
 * A poll's counts, kept in the function's memory for at most the results max-age: viewers of a
 * busy poll then cost one table read (one Query of its counter items) per container per max-age
 * instead of one per request.
 */
import type { PollCounts } from './results';
import { TimedCache } from './timed-cache';

/** Counts per poll id for at most the max-age given, at most `maxEntries` of them. */
export class ResultsCache extends TimedCache<PollCounts> {}
