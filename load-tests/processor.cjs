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

/**
 * Counts every accepted vote (202) per poll and option as a custom counter in the
 * report: the vote-conservation check compares these with the counts the API reports.
 */
function recordVote(_requestParams, response, context, events, next) {
  if (response.statusCode === 202)
    events.emit('counter', `votes.accepted.${context.vars.pollId}.${context.vars.option}`, 1);
  next();
}

module.exports = { pickOption, pickPoll, recordVote };
