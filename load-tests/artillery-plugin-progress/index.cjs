// An artillery plugin (CommonJS: artillery loads plugins with require()). In artillery's main
// thread, where its workers' metrics meet, it writes each period's counters as one JSON line to
// file descriptor 3, which npm run load (load-tests/run.ts) opens for it and turns into a progress line.
const { writeSync } = require('node:fs');
const { isMainThread } = require('node:worker_threads');

/** The descriptor run.ts gives artillery for the stats (0-2 are its stdin, stdout and stderr). */
const STATS_FD = 3;

class Plugin {
  constructor(_script, events) {
    if (!isMainThread) return;
    events.on('stats', (stats) => writeSync(STATS_FD, `${JSON.stringify(stats.counters ?? {})}\n`));
  }
}

// The current metrics format: `counters` by name, as in the report's aggregate.
module.exports = { Plugin, LEGACY_METRICS_FORMAT: false };
