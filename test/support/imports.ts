/**
 * A TypeScript file's imports, read from its text: what the architecture tests check (which folder
 * may import what: boundaries.test.ts; cost/'s rooms and cycles: cost-layout.test.ts).
 */
import { posix } from 'node:path';

export interface Import {
  specifier: string;
  typeOnly: boolean;
}

/** The imports of a TypeScript file: static, re-exports and dynamic `import()`. */
export function importsOf(source: string): Import[] {
  const found: Import[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?[^;'"]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(statement))
    found.push({ specifier: match[3] ?? match[4], typeOnly: Boolean(match[2]) });
  for (const match of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g))
    found.push({ specifier: match[1], typeOnly: false });
  return found;
}

/**
 * Where an import points: a project path (`lambdas/adapters/x`) for a relative one, else the package
 * name as written.
 */
export function target(file: string, specifier: string): string {
  return specifier.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), specifier)) : specifier;
}
