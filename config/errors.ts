/**
 * The base of the project's errors, and the command line's two, which the CDK app (lib/) throws
 * as well as the commands (bin/). Here because config/ is what everything may import and it
 * imports nothing of ours: the domain, lib/ and bin/ can all reach it without reaching each other.
 */

/**
 * An error that says which it is: each class states its `name` (class names do not survive the
 * minified bundles). The error it replaces goes in `cause` (ES2022 `{ cause }`), for the log only.
 */
export abstract class NamedError extends Error {
  abstract override readonly name: string;
}

/** A mistake in how a command (or `cdk synth -c`) was called: printed as one line, exit code 2. */
export class UsageError extends NamedError {
  override readonly name: string = 'UsageError';
}

/** Called right, but it could not do its work (nothing answers, a file is missing): one line, exit code 1. */
export class CommandFailure extends NamedError {
  override readonly name: string = 'CommandFailure';
}
