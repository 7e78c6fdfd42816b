/**
 * bin/ is the commands (bench/bin/ the benchmarks'): every file in it is one that package.json's scripts or
 * cdk.json's app runs, every one of those runs a file in it, and nothing imports from it (what a command shares
 * with another lives in node/ or its feature's folder, where a test or the other command can reach it).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importsOf, target } from '../support/imports';

interface Tree {
  /** Tracked files, repository-relative. */
  files: string[];
  /** package.json's scripts and cdk.json's app, by name. */
  commands: Record<string, string>;
  read: (file: string) => string;
}

/** The commands' folders, bin/ and the benchmarks' bench/bin/, and a file one of them may run. */
const IN_BIN = /^(bench\/)?bin\//;
const COMMAND_FILE = /^(bench\/)?bin\/[^/]+\.ts$/;

/** The .ts files a command line runs (`tsx <file>`, `npx tsx <file>`). */
const runFiles = (command: string) => [...command.matchAll(/\btsx\s+(\S+\.ts)\b/g)].map((m) => m[1]);

export function entryPointProblems({ files, commands, read }: Tree): string[] {
  const problems: string[] = [];
  const run = new Set(Object.values(commands).flatMap(runFiles));
  for (const [name, command] of Object.entries(commands))
    for (const file of runFiles(command))
      if (!COMMAND_FILE.test(file)) problems.push(`${name} runs ${file}, not a file of bin/`);
  for (const file of files.filter((f) => IN_BIN.test(f)))
    if (!run.has(file)) problems.push(`${file} is in bin/ but no script or cdk.json's app runs it`);
  for (const file of files.filter((f) => /\.(ts|mts|cts)$/.test(f)))
    for (const { specifier } of importsOf(read(file)))
      if (specifier.startsWith('.') && IN_BIN.test(`${target(file, specifier)}/`))
        problems.push(`${file} imports ${specifier}: nothing imports from bin/`);
  return problems;
}

describe('bin/', () => {
  it('holds what package.json and cdk.json run, and nothing imports from it', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean);
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    const { app } = JSON.parse(readFileSync('cdk.json', 'utf8')) as { app: string };
    const commands = { ...scripts, 'cdk.json app': app };
    expect(Object.values(commands).flatMap(runFiles).length).toBeGreaterThan(10);
    expect(entryPointProblems({ files, commands, read: (file) => readFileSync(file, 'utf8') })).toEqual([]);
  });

  it('catches a script outside it, a file in it nothing runs, and an import of it', () => {
    const sources: Record<string, string> = {
      'bin/start.ts': "import { listen } from '../node/server-shell';",
      'bin/helpers.ts': '',
      'vps/server.ts': "import { startOrExit } from '../bin/start';",
      'test/x.test.ts': "const { SPEC } = await import('../bin/start');",
      'bench/bin/helpers.ts': '',
      'bench/vps-capacity.ts': "import { SPEC } from './bin/vps';",
    };
    expect(
      entryPointProblems({
        files: Object.keys(sources),
        commands: { start: 'tsx bin/start.ts', vps: 'tsx vps/cli.ts', 'cdk.json app': 'npx tsx bin/start.ts' },
        read: (file) => sources[file],
      }),
    ).toEqual([
      'vps runs vps/cli.ts, not a file of bin/',
      "bin/helpers.ts is in bin/ but no script or cdk.json's app runs it",
      "bench/bin/helpers.ts is in bin/ but no script or cdk.json's app runs it",
      'vps/server.ts imports ../bin/start: nothing imports from bin/',
      'test/x.test.ts imports ../bin/start: nothing imports from bin/',
      'bench/vps-capacity.ts imports ./bin/vps: nothing imports from bin/',
    ]);
  });
});
