/** How the CDK app reads a flag given as context (`-c name=value`): the flag's own parse (config/flags.ts). */
import { type Flag, INVALID } from '../config/flags';
import { UsageError } from '../domain/errors';

/** `-c name=value`: the value read, or a UsageError in cdk's words (with an example to run). */
export function fromContext<T>(flag: Flag<T>, value: unknown): T {
  const read = flag.parse(value);
  if (read !== INVALID) return read;
  const example = flag.example ? `; e.g. npx cdk synth ${flag.example}` : '';
  throw new UsageError(`${flag.name} ${flag.mustBe} (got ${JSON.stringify(value)})${example}`);
}
