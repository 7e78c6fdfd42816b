/**
 * README.md and docs/ send people to scripts, pages and sections: every `npm run <script>` they show
 * is a script of package.json, and every relative link leads to a file (and to a heading of it, for
 * a link with an #anchor). The flags shown with each command are checked against its --help in
 * test/commands/help.test.ts, which runs every command.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandsIn, DOCUMENTS, shownCommands } from '../support/docs';

const scripts = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).scripts);

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as dashes. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => anchorOf(line.replace(/^#+ /, '')));

/** The relative links of a Markdown text (not http(s) or mail): [text](target), [text](#anchor). */
const linksIn = (text: string) =>
  [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^[a-z]+:/.test(target));

describe('README.md and docs/', () => {
  it('find the commands and links they show', () => {
    expect(commandsIn('npm run load -- smoke --target aws && npm start -- --port 0 # --not-this')).toEqual([
      { script: 'load', flags: ['--target'] },
      { script: 'start', flags: ['--port'] },
    ]);
    expect(anchorOf('Results delivery: three deployable designs')).toBe('results-delivery-three-deployable-designs');
    expect(anchorOf("The client's part: one key per ballot (idempotency)")).toBe(
      'the-clients-part-one-key-per-ballot-idempotency',
    );
    expect(linksIn('[a](docs/cost.md#quotas), [b](https://x.org), [c](#here)')).toEqual([
      'docs/cost.md#quotas',
      '#here',
    ]);
  });

  it('show only scripts package.json has', () => {
    const shown = shownCommands();
    expect(shown.length).toBeGreaterThan(50);
    expect(shown.filter(({ script }) => !scripts.includes(script))).toEqual([]);
  });

  it('link to files that exist, and to headings they have', () => {
    const links = DOCUMENTS.flatMap((file) =>
      linksIn(readFileSync(file, 'utf8')).map((link) => {
        const [path, anchor] = link.split('#');
        return { file, link, target: path ? join(dirname(file), path) : file, anchor };
      }),
    );
    expect(links.length).toBeGreaterThan(30);
    const broken = links.filter(
      ({ target, anchor }) =>
        !existsSync(target) || (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).includes(anchor)),
    );
    expect(broken).toEqual([]);
  });
});
