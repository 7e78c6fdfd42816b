// Artillery hooks for the poll scenarios. CommonJS, because artillery loads processors with require().

/** Picks an option of the poll at random, as a voter would. */
function pickOption(context, _events, next) {
  context.vars.option = Math.floor(Math.random() * Number(context.vars.optionCount || 2));
  next();
}

/** Picks one of the polls the `before` flow created. */
function pickPoll(context, _events, next) {
  const ids = Object.keys(context.vars)
    .filter((name) => /^poll\d+$/.test(name))
    .map((name) => context.vars[name]);
  context.vars.pollId = ids[Math.floor(Math.random() * ids.length)];
  next();
}

/** Counts every vote sent, per poll and option: no more than these may be counted. */
function countSent(_requestParams, context, events, next) {
  events.emit('counter', `votes.sent.${context.vars.pollId}.${context.vars.option}`, 1);
  next();
}

/**
 * Counts every accepted vote (202) per poll and option, and every refused one (4xx: nothing is
 * stored), as custom counters in the report: the vote-conservation check compares them with the
 * counts the API reports. A vote with no answer or a 5xx may or may not have been counted.
 */
function recordVote(_requestParams, response, context, events, next) {
  const kind = response.statusCode === 202 ? 'accepted' : response.statusCode < 500 ? 'refused' : undefined;
  if (kind) events.emit('counter', `votes.${kind}.${context.vars.pollId}.${context.vars.option}`, 1);
  next();
}

/**
 * Waits a random 0-1 s. artillery starts users on an even grid and `think` is a fixed pause, so
 * with fixed pauses each kind of request keeps its place between the others: against a token
 * bucket refilling every few tens of milliseconds, the one placed just after another would nearly
 * always find it empty. Real clients are not phase-locked: a random pause makes them not.
 */
function randomPause(_context, _events, next) {
  setTimeout(next, Math.random() * 1000);
}

module.exports = { countSent, pickOption, pickPoll, randomPause, recordVote };
