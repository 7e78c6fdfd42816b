/** Reads a setting the stack gives every function; a missing one is a deploy bug, so fail loudly at cold start. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set: the stack (or the local runtime) must set it.`);
  return value;
}
