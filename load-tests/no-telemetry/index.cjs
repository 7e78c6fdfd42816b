// Stands in for posthog-node, the telemetry client of artillery 2.0.21 and its only user here
// (package.json: a devDependency on this folder, and "overrides" that give it to artillery).
// With ARTILLERY_DISABLE_TELEMETRY set, artillery still sends an event as each run ends and waits
// for it: on a machine without network, 10 s after every run. With no PostHog class here,
// artillery's telemetry is its no-op (lib/telemetry.js catches the failed construction).
module.exports = {};
