/** The local runtime's kept template: made again when the context or any source it is made from changes. */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { cachedTemplate, KEPT_TEMPLATES, SOURCE_FOLDERS, templateCachePath } from '../../../local/template-cache';

let root: string;
let synths: number;
const synth = async () => ({ Resources: { Made: { n: ++synths } } });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'template-cache-'));
  for (const folder of [...SOURCE_FOLDERS, 'frontend/src']) mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, 'lib', 'stack.ts'), 'export const a = 1;');
  writeFileSync(join(root, 'frontend', 'src', 'page.ts'), 'export const b = 1;');
  writeFileSync(join(root, 'cdk.json'), '{}');
  synths = 0;
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the kept template', () => {
  it('is made once for the same context and sources, and read back as it was made', async () => {
    const first = await cachedTemplate(root, { apiKind: 'rest' }, synth);
    const again = await cachedTemplate(root, { apiKind: 'rest' }, synth);
    expect(synths).toBe(1);
    expect(again).toEqual(first);
    expect(JSON.parse(readFileSync(templateCachePath(root, { apiKind: 'rest' }), 'utf8'))).toEqual(first);
  });

  it('is made again for another context', async () => {
    await cachedTemplate(root, { apiKind: 'rest' }, synth);
    await cachedTemplate(root, { apiKind: 'http' }, synth);
    expect(synths).toBe(2);
  });

  it.each([
    ['an edited source', 'frontend/src/page.ts', 'export const b = 2;'],
    ['a new source', 'lambdas/handler.ts', 'export const c = 1;'],
    ['an edited cdk.json', 'cdk.json', '{"context":{}}'],
  ])('is made again after %s', async (_, file, text) => {
    await cachedTemplate(root, {}, synth);
    writeFileSync(join(root, file), text);
    await cachedTemplate(root, {}, synth);
    expect(synths).toBe(2);
  });

  it('ignores files it is not made from', async () => {
    await cachedTemplate(root, {}, synth);
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'notes.md'), 'x');
    await cachedTemplate(root, {}, synth);
    expect(synths).toBe(1);
  });

  it(`keeps only the newest ${KEPT_TEMPLATES}`, async () => {
    for (let i = 0; i < KEPT_TEMPLATES; i++) await cachedTemplate(root, { variant: i }, synth);
    const folder = dirname(templateCachePath(root, {}));
    const anHourAgo = Date.now() / 1000 - 3600;
    for (const name of readdirSync(folder)) utimesSync(join(folder, name), anHourAgo, anHourAgo);
    await cachedTemplate(root, { variant: 'newest' }, synth);
    expect(readdirSync(folder)).toHaveLength(KEPT_TEMPLATES);
    expect(existsSync(templateCachePath(root, { variant: 'newest' }))).toBe(true);
  });

  it('is kept by every folder of ours the CDK app imports', async () => {
    const project = join(__dirname, '..', '..', '..');
    const { metafile } = await build({
      entryPoints: [join(project, 'bin', 'poll-app.ts')],
      bundle: true,
      platform: 'node',
      packages: 'external',
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    const folders = new Set(Object.keys(metafile.inputs).map((input) => input.split('/')[0]));
    folders.delete('bin');
    expect(folders.size).toBeGreaterThan(3);
    expect([...folders].filter((folder) => !SOURCE_FOLDERS.includes(folder))).toEqual([]);
  });
});
