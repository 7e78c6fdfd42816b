/**
 * The templates committed under test/fixtures/templates/ (synthesized once from this app: the default design and
 * results=function-url), each read fresh, so a test may change its copy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TEMPLATES_DIR = join(__dirname, '..', 'fixtures', 'templates');

/** The committed template's path, by its name: `default` or `function-url`. */
export const templatePath = (name: 'default' | 'function-url') => join(TEMPLATES_DIR, `${name}.template.json`);

export const committedTemplate = (name: 'default' | 'function-url'): any =>
  JSON.parse(readFileSync(templatePath(name), 'utf8'));
