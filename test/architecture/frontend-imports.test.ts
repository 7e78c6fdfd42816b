/**
 * The page's modules only declare: loading one touches no document, so a module can be read, tested or
 * reordered on its own, and the page's work starts in one place, the entry (frontend/src/main.ts). Node has
 * no `document` or `window`: a module that used either while loading would throw here.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..', '..', 'frontend', 'src');
/** The entry is what starts the page when the bundle runs: its import is meant to do the work. */
const ENTRY = 'main.ts';
const modules = readdirSync(SRC).filter((name) => name.endsWith('.ts') && name !== ENTRY);

describe("the page's modules", () => {
  it('run where there is no DOM, so a use of one while loading would throw', () => {
    expect('document' in globalThis || 'window' in globalThis).toBe(false);
    expect(modules).toContain('dom.ts');
  });

  it.each(modules)('%s loads without touching the document', async (name) => {
    await expect(import(join(SRC, name))).resolves.toBeTypeOf('object');
  });
});
