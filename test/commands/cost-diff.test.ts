/**
 * npm run cost -- --compare-to as a person and the pull request's workflow run it (bin/cost.ts,
 * .github/cost-diff.sh): the workflow's comparison on two committed templates gives one markdown comment under
 * GitHub's limit with its marker first; a base or head that is not this app's template is one line and exit 2;
 * a gate passed prints the comparison, then one line, and exits 1.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../cost/report/compare-lines';
import { templatePath } from '../support/templates';

type Answer = { code: number; stdout: string; stderr: string };

async function run(file: string, args: string[], env: Record<string, string> = {}): Promise<Answer> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, {
      timeout: 120_000,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as Answer;
    return { code, stdout, stderr };
  }
}

const cost = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'bin/cost.ts', ...args]);
const BASE = templatePath('default');
const HEAD = templatePath('function-url');
const WORKFLOW = readFileSync('.github/workflows/cost-diff.yml', 'utf8');

function tempFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cost-diff-')), name);
  writeFileSync(file, text);
  return file;
}

describe('npm run cost -- --compare-to', () => {
  it('runs as the workflow runs it: one markdown comment per pull request, its marker first, under 64 KB', async () => {
    // The workflow's step, as it is written there: the script, the base's cdk.out, the head's template.
    expect(WORKFLOW).toContain(
      '.github/cost-diff.sh ../base/cdk.out cdk.out/ServerlessPoll.template.json ../cost-diff',
    );
    const out = mkdtempSync(join(tmpdir(), 'cost-diff-out-'));
    const answer = await run('bash', ['.github/cost-diff.sh', BASE, HEAD, out], { COST_PROFILES: 'club, seed' });
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    const comment = readFileSync(join(out, 'comment.md'), 'utf8');
    expect(comment.split('\n')[0]).toBe(COMMENT_MARKER);
    expect(comment.split(COMMENT_MARKER).length).toBe(2);
    expect(comment.length).toBeLessThan(65_536);
    // The seed first, then the repository's profiles, each once.
    const titles = comment.split('\n').filter((line) => line.startsWith('### Cost of this change'));
    expect(titles.map((t) => /, (\w+) profile/.exec(t)?.[1])).toEqual(['seed', 'club']);
    expect(comment).toContain('results design api → function-url');
  });

  it('pins every action to a full commit', () => {
    const workflows = [WORKFLOW, readFileSync('.github/workflows/cost-diff-comment.yml', 'utf8')];
    const uses = workflows.flatMap((w) => [...w.matchAll(/uses: (\S+)/g)].map((m) => m[1]));
    expect(uses.length).toBeGreaterThan(4);
    expect(uses.filter((u) => !/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/.test(u))).toEqual([]);
  });

  it('refuses what is not a template of this app in one line, exit 2', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'not-cdk-out-'));
    mkdirSync(join(folder, 'asset.1'));
    const other = tempFile('other.template.json', JSON.stringify({ Resources: { B: { Type: 'AWS::S3::Bucket' } } }));
    const stranger = tempFile(
      'stranger.template.json',
      JSON.stringify({
        Resources: { Table: { Type: 'AWS::DynamoDB::Table', Properties: {} }, Q: { Type: 'AWS::SQS::Queue' } },
      }),
    );
    const cases: Array<[string[], RegExp]> = [
      [['--compare-to', tempFile('notes.txt', 'not json')], /is not a template/],
      [['--compare-to', folder], /is not a cdk\.out folder of this app/],
      [['--compare-to', other], /Not a template of this app: it has no DynamoDB table/],
      [['--compare-to', stranger], /templates of two different apps/],
      [['--compare-to', BASE, '--format', 'html'], /--format html: use text, markdown, json/],
      [['--fail-above', '10'], /--fail-above is an option of --compare-to/],
      [['--compare-to', BASE, '--fail-below', 'ten'], /--fail-below ten: give dollars/],
    ];
    for (const [args, message] of cases) {
      const answer = await cost(...args, '--template', HEAD);
      expect([args, answer.code, answer.stdout]).toEqual([args, 2, '']);
      expect(answer.stderr.trim().split('\n')).toHaveLength(1);
      expect(answer.stderr).toMatch(message);
    }
  });

  it('prints the comparison, then the gate it passed in one line, and exits 1', async () => {
    const answer = await cost('--compare-to', BASE, '--template', HEAD, '--fail-below', '-5%');
    expect(answer.code).toBe(1);
    expect(answer.stdout).toContain('[~] API Gateway HTTP API requests');
    expect(answer.stderr.trim()).toMatch(/^The monthly bill moves -72\.\d% \(.*\), past --fail-below -5%\.$/);
    const json = JSON.parse((await cost('--compare-to', BASE, '--template', HEAD, '--format', 'json')).stdout);
    expect(json.total.delta).toBeCloseTo(json.total.new - json.total.old, 9);
    const quiet = await cost('--compare-to', BASE, '--template', BASE, '--quiet-if-unchanged');
    expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);
  });
});
