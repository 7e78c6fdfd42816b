/**
 * cost/ reads in the order its data flows: where usage comes from (cost/usage/), what it costs and
 * carries (cost/estimate/, buildReport's assembly included), how it is shown (cost/report/), and
 * the commands at the top (cost/*.ts). A file imports only from its own room or an earlier one, and
 * no import, type-only ones included, goes round in a circle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, target } from '../support/imports';

const ROOT = join(__dirname, '..', '..');

/** The rooms in the order the data flows through them; cost/'s own files (the commands) come last. */
export const ROOMS = ['usage', 'estimate', 'report'] as const;

interface Source {
  path: string;
  source: string;
}

/** A file's place in the flow: its room's index, the commands after every room; undefined outside any. */
export function roomOf(path: string): number | undefined {
  const parts = path.split('/');
  if (parts[0] !== 'cost') return undefined;
  if (parts.length === 2) return ROOMS.length;
  const room = ROOMS.indexOf(parts[1] as (typeof ROOMS)[number]);
  return room < 0 ? undefined : room;
}

const describeRoom = (room: number) => (room === ROOMS.length ? 'cost/' : `cost/${ROOMS[room]}/`);

/** Each file's imports of other files of cost/ (paths as given, with .ts). */
export function importGraph(files: Source[]): Map<string, string[]> {
  const paths = new Set(files.map((f) => f.path));
  return new Map(
    files.map(({ path, source }) => [
      path,
      importsOf(source)
        .map((i) => target(path, i.specifier))
        .flatMap((to) => [`${to}.ts`, `${to}/index.ts`, to].filter((p) => paths.has(p)).slice(0, 1)),
    ]),
  );
}

/** Files outside every room, and imports from an earlier room (or a room) to a later one. */
export function backwardImports(files: Source[]): string[] {
  const out = files.filter((f) => roomOf(f.path) === undefined).map((f) => `${f.path} is in no room`);
  for (const [from, imports] of importGraph(files)) {
    const room = roomOf(from);
    for (const to of imports) {
      const toRoom = roomOf(to);
      if (room !== undefined && toRoom !== undefined && toRoom > room)
        out.push(`${from} (${describeRoom(room)}) imports ${to}, of a later room (${describeRoom(toRoom)})`);
    }
  }
  return out;
}

/** Every circle of imports, once each, as "a -> b -> a" (depth-first: an edge back to the path is one). */
export function importCycles(files: Source[]): string[] {
  const graph = importGraph(files);
  const done = new Set<string>();
  const found = new Set<string>();
  const walk = (path: string, stack: string[]) => {
    const at = stack.indexOf(path);
    if (at >= 0) {
      const cycle = stack.slice(at);
      // The same circle entered elsewhere is the same circle: start it at its first path.
      const first = cycle.indexOf([...cycle].sort()[0]);
      found.add([...cycle.slice(first), ...cycle.slice(0, first), cycle[first]].join(' -> '));
      return;
    }
    if (done.has(path)) return;
    for (const next of graph.get(path) ?? []) walk(next, [...stack, path]);
    done.add(path);
  };
  for (const path of graph.keys()) walk(path, []);
  return [...found].sort();
}

function costFiles(dir = 'cost'): Source[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return costFiles(path);
    return entry.name.endsWith('.ts') ? [{ path, source: readFileSync(join(ROOT, path), 'utf8') }] : [];
  });
}

describe("cost/'s layout", () => {
  const files = costFiles();

  it('has every file in a room, and imports only from its own room or an earlier one', () => {
    expect(files.length).toBeGreaterThan(25);
    for (const room of ROOMS)
      expect(
        files.some((f) => f.path.startsWith(`cost/${room}/`)),
        room,
      ).toBe(true);
    expect(backwardImports(files)).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(importCycles(files)).toEqual([]);
  });

  it('catches an import of a later room, a file in no room, and a cycle, types and re-exports too', () => {
    const fixture: Source[] = [
      { path: 'cost/usage/profiles.ts', source: "import { DAYS } from '../estimate/model';" },
      { path: 'cost/estimate/model.ts', source: "import type { Report } from '../report/report';" },
      { path: 'cost/report/report.ts', source: "export { estimate } from '../estimate/model';" },
      { path: 'cost/report/chart.ts', source: "import { profiles } from '../usage/profiles';" },
      { path: 'cost/cli.ts', source: "import { render } from './report/report';" },
      { path: 'cost/misc/helper.ts', source: '' },
    ];
    expect(backwardImports(fixture)).toEqual([
      'cost/misc/helper.ts is in no room',
      'cost/usage/profiles.ts (cost/usage/) imports cost/estimate/model.ts, of a later room (cost/estimate/)',
      'cost/estimate/model.ts (cost/estimate/) imports cost/report/report.ts, of a later room (cost/report/)',
    ]);
    expect(importCycles(fixture)).toEqual([
      'cost/estimate/model.ts -> cost/report/report.ts -> cost/estimate/model.ts',
    ]);
    // Earlier rooms and the commands importing every room are the flow's direction: no finding.
    expect(backwardImports(fixture.slice(3, 5))).toEqual([]);
  });
});
