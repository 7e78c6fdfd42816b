/** Every command's reading of its command line (node/command-line.ts): paths from the caller's folder; negatives. */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  badContextPair,
  contextOf,
  helpText,
  parseCommandLine,
  type CommandSpec,
  type OptionSpec,
} from '../../../node/command-line';
import { callerPath } from '../../../node/folders';
import { calledFrom } from '../../support/npm-run';

const SPEC = {
  command: 'npm run example --',
  summary: 'An example.',
  options: {
    out: { type: 'string', default: 'out', value: '<folder>', path: true, description: 'a folder' },
    file: { type: 'string', value: '<file>', multiple: true, path: true, description: 'files' },
    name: { type: 'string', value: '<name>', description: 'not a path' },
  },
} satisfies CommandSpec<Record<string, OptionSpec>>;

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('a path on the command line', () => {
  it('is read from the folder npm run was called in (INIT_CWD), not the root npm runs the script in', () => {
    calledFrom('/home/someone/polls');
    const { values } = parseCommandLine(SPEC, ['--out', 'report', '--file', 'a.json', '--file', '/abs/b.json']);
    expect(values.out).toBe('/home/someone/polls/report');
    expect(values.file).toEqual(['/home/someone/polls/a.json', '/abs/b.json']);
  });

  it('keeps a default as it is, and a value that is no path', () => {
    calledFrom('/home/someone/polls');
    const { values } = parseCommandLine(SPEC, ['--name', 'x/y']);
    expect(values.out).toBe('out');
    expect(values.name).toBe('x/y');
  });

  it('is read from the current folder when no npm run says another, or npm ran another script', () => {
    calledFrom(undefined);
    expect(callerPath('a/b')).toBe(join(process.cwd(), 'a/b'));
    // A server a test starts under `npm test` inherits INIT_CWD, but npm did not start it from there.
    vi.stubEnv('INIT_CWD', '/home/someone/polls');
    vi.stubEnv('npm_lifecycle_script', 'vitest run');
    expect(callerPath('a/b')).toBe(join(process.cwd(), 'a/b'));
  });
});

describe('a negative number after an option that takes a value', () => {
  it('is its value, for the command to check, not an option of its own', () => {
    const { values } = parseCommandLine(SPEC, ['--name', '-1', '--file', '-2.5']);
    expect(values.name).toBe('-1');
    expect(values.file).toEqual([callerPath('-2.5')]);
  });
});

describe('the help', () => {
  it('keeps within 100 columns, a description going on under where it starts', () => {
    const long = 'word '.repeat(40).trim();
    const help = helpText({ ...SPEC, options: { out: { ...SPEC.options.out, description: long } }, details: [long] });
    const lines = help.split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100);
    const start = lines.findIndex((line) => line.startsWith('  --out <folder>'));
    const column = lines[start].indexOf('word');
    expect(lines[start + 1]).toMatch(new RegExp(`^ {${column}}word`));
    expect(help).toContain(`\n\n${long.slice(0, 95)}`);
  });
});

describe('CDK context on the command line (-c key=value)', () => {
  it('is read as cdk reads it: the value is all after the first =, the last of a key given twice', () => {
    expect(badContextPair(['results=api', 'rateLimits'])).toBe('rateLimits');
    expect(contextOf(['key=a=b', 'empty=', 'results=api', 'results=function-url'])).toEqual({
      key: 'a=b',
      empty: '',
      results: 'function-url',
    });
  });
});
