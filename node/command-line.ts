/**
 * Every command's command line: `--help` (or `-h`) prints its usage and exits 0; a usage
 * mistake prints one line saying what is wrong and how to get help, and exits 2, never a
 * stack trace. A thin layer over node:util parseArgs.
 */
import { parseArgs } from 'node:util';
import { CommandFailure, UsageError } from '../domain/errors';
import { callerPath } from './folders';
import { wrap } from './wrap';

// Where every command gets them; they live in domain/errors.ts so that lib/ (the CDK app) throws them too.
export { CommandFailure, UsageError };

// The AWS SDK's notice that its releases after January 2027 need Node 22: seven lines, before a command's
// one-line answer, from the first client made in any process on Node 20 (which package.json's engines take on
// purpose), cdk's and cdklocal's included. Every command imports this module: it sets the SDK's documented
// switch (aws/aws-sdk-js-v3#7983) for itself and what it starts; a person who set it themselves is heard.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** May be given more than once: the value is then a list. */
  multiple?: boolean;
  default?: string | boolean;
  /** What the value looks like, for the help: `<port>`. */
  value?: string;
  /** A file or folder: a relative one given is read from the caller's folder (callerPath); a default as it is. */
  path?: true;
  description: string;
}

export interface CommandSpec<O extends Record<string, OptionSpec>> {
  /** How a person runs it, e.g. `npm run cost --`. */
  command: string;
  /** The positional arguments as the usage line shows them, e.g. `<scenario>`. */
  positionals?: string;
  summary: string;
  options: O;
  /** Lines after the options: positional values, examples, where to read more. */
  details?: readonly string[];
}

/** `-c key=value` (may be repeated), as cdk takes it: for the commands that pass CDK context on to it. */
export const contextOption = (description: string) => ({
  type: 'string' as const,
  short: 'c',
  multiple: true as const,
  value: '<key=value>',
  description,
});

/** A `-c` value that is not key=value, if any. */
export const badContextPair = (pairs: string[]) => pairs.find((pair) => !/^[\w:.-]+=.*$/.test(pair));

/** `-c` key=value pairs as cdk reads them: the value is all after the first `=`, the last of a key given twice. */
export const contextOf = (pairs: string[]): Record<string, string> =>
  Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));

type Values<O extends Record<string, OptionSpec>> = {
  [K in keyof O]: O[K]['type'] extends 'boolean'
    ? boolean
    : O[K]['multiple'] extends true
      ? string[] | undefined
      : O[K]['default'] extends string
        ? string
        : string | undefined;
};

export function helpText<O extends Record<string, OptionSpec>>(spec: CommandSpec<O>): string {
  const rows = Object.entries(spec.options).map(([name, option]) => {
    const short = option.short ? `-${option.short}, ` : '';
    const value = option.type === 'string' ? ` ${option.value ?? '<value>'}` : '';
    const flag = `${short}--${name}${value}`;
    const fallback = option.default !== undefined && option.default !== false ? ` (default: ${option.default})` : '';
    return [flag, option.description + fallback];
  });
  rows.push(['-h, --help', 'this help']);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return [
    `Usage: ${spec.command} ${spec.positionals ? `${spec.positionals} ` : ''}[options]`,
    spec.summary,
    '',
    'Options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    ...(spec.details?.length ? ['', ...spec.details] : []),
  ]
    .map(helpLine)
    .join('\n');
}

/** A line of help within 100 columns, going on under where its text starts (a table's second column). */
function helpLine(line: string): string {
  const column = /^(\s*\S.*?\s{2,})\S/.exec(line)?.[1].length ?? /^\s*/.exec(line)![0].length + 2;
  return wrap(line, 100, ' '.repeat(column));
}

/** Prints the mistake and the way to help, then exits 2. */
export function exitWithUsageError(
  spec: Pick<CommandSpec<Record<string, OptionSpec>>, 'command'>,
  message: string,
): never {
  const sentence = message.trim().replace(/([^.!?])$/, '$1.');
  console.error(`${sentence} Run ${spec.command} --help for the usage.`);
  process.exit(2);
}

/**
 * Parses argv by the spec. Exits 0 after printing the help when asked, 2 on a mistake; a
 * `check` may throw UsageError for mistakes only the command can see (a port out of range).
 */
export function parseCommandLine<O extends Record<string, OptionSpec>>(
  spec: CommandSpec<O>,
  argv: string[] = process.argv.slice(2),
): { values: Values<O>; positionals: string[] } {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(helpText(spec));
    process.exit(0);
  }
  const parsed = parsedOrExit(spec, withNegativeValues(spec, argv));
  // parseArgs keeps the last of an option given twice: a mistake that would pass unseen.
  const given = parsed.tokens.flatMap((t) => (t.kind === 'option' && !spec.options[t.name]?.multiple ? [t.name] : []));
  const twice = given.find((name, i) => given.indexOf(name) !== i);
  if (twice) exitWithUsageError(spec, `--${twice} is given more than once: give it once`);
  const values: Record<string, unknown> = parsed.values;
  for (const token of parsed.tokens)
    if (token.kind === 'option' && spec.options[token.name]?.path) {
      const value = values[token.name] as string | string[];
      values[token.name] = Array.isArray(value) ? value.map(callerPath) : callerPath(value);
    }
  return { values: values as Values<O>, positionals: parsed.positionals };
}

/**
 * `--port -1` as `--port=-1`: a negative number after an option that takes a value is that value (which the
 * command then refuses as out of range), not an option of its own that parseArgs would call ambiguous.
 */
function withNegativeValues(spec: CommandSpec<Record<string, OptionSpec>>, argv: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = /^--([\w-]+)$/.exec(argv[i])?.[1];
    const takesValue = name !== undefined && spec.options[name]?.type === 'string';
    joined.push(takesValue && /^-\d/.test(argv[i + 1] ?? '') ? `${argv[i]}=${argv[++i]}` : argv[i]);
  }
  return joined;
}

/** node:util parseArgs by the spec, with its tokens; a mistake is one line and exit 2. */
function parsedOrExit<O extends Record<string, OptionSpec>>(spec: CommandSpec<O>, argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: spec.positionals !== undefined,
      strict: true,
      tokens: true,
      options: Object.fromEntries(
        Object.entries(spec.options).map(([name, { type, short, multiple, default: fallback }]) => [
          name,
          {
            type,
            ...(short ? { short } : {}),
            ...(multiple ? { multiple } : {}),
            ...(fallback !== undefined ? { default: fallback } : {}),
          },
        ]),
      ),
    });
  } catch (error) {
    // parseArgs says what is wrong in one sentence (unknown option, missing value, stray argument)
    // and adds its own hints.
    const [first] = (error as Error).message.split('\n');
    const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous\.$/.exec(first);
    const message = ambiguous
      ? `${ambiguous[1]} needs a value, and what follows it starts with a dash ` +
        `(write ${ambiguous[1]}=<value> if that is the value).`
      : first.replace(/\. To specify a positional argument.*$/, '.');
    exitWithUsageError(spec, message);
  }
}

/**
 * Runs a command's main part: a UsageError becomes the one-line answer and exit 2, a CommandFailure
 * its line and exit 1.
 */
export async function runCommand(
  spec: Pick<CommandSpec<Record<string, OptionSpec>>, 'command'>,
  main: () => Promise<void> | void,
): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (error instanceof UsageError) exitWithUsageError(spec, error.message);
    if (error instanceof CommandFailure) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
