/**
 * Which folder may import what. The domain stays free of AWS, HTTP and Lambda's code (so the browser
 * and the VPS edition reuse it, and do: each imports it), the handlers free of AWS (so they are tested
 * with fakes), the cost model free of the stack, the runtime and the page at run time (so it loads in
 * a blink), the stack free of the Lambda adapters (so a synth does not load an SDK client) and of the
 * command line (the CDK app is not a command of ours), the template's model free of both its readers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, target } from '../support/imports';
import { ROOT, sourceFiles } from '../support/source-files';

interface Rule {
  /** Files under this folder... */
  from: string;
  /** ...may not import these (project folders end with a slash; anything else is a package prefix). */
  forbidden: string[];
  /** Type-only imports are erased at build time: allowed unless this is set. */
  evenTypes?: boolean;
  /** Project files under a forbidden folder that may be imported all the same (each rule says why). */
  except?: string[];
  why: string;
}

/** The folders of ours above config/ (they read it): config/, template/ and sizing/ read none of them. */
const ABOVE_CONFIG = [
  'lib/',
  'lambdas/',
  'domain/',
  'local/',
  'cost/',
  'frontend/',
  'vps/',
  'bin/',
  'node/',
  'sizing/',
  'bench/',
];

export const RULES: Rule[] = [
  {
    from: 'domain/',
    forbidden: ['@aws-sdk/', '@aws-lambda-powertools/', 'aws-lambda', 'node:http', 'node:fs'],
    evenTypes: true,
    why: 'the domain is plain TypeScript: no AWS, no HTTP, no files',
  },
  {
    from: 'domain/',
    forbidden: ['lambdas/'],
    evenTypes: true,
    why: "the page and the VPS edition import the domain: it leans on nothing of Lambda's",
  },
  {
    from: 'lambdas/handlers/',
    forbidden: ['lambdas/adapters/', '@aws-sdk/', '@aws-lambda-powertools/'],
    why: 'handlers get AWS through their ports',
  },
  {
    from: 'cost/',
    forbidden: ['lib/', 'local/', 'frontend/', 'vps/', 'load-tests/', 'aws-cdk-lib', '@aws-sdk/'],
    why: 'the cost model reads data, not the stack, the runtime or the page',
  },
  {
    from: 'cost/report/explorer/',
    forbidden: ['node:', 'esbuild'],
    evenTypes: true,
    // It sits in cost/report/ because it is the cost model's page: cost/report/explorer.ts (node) bundles it.
    why: 'the cost explorer runs in a browser, from a file',
  },
  {
    from: 'lib/',
    forbidden: ['lambdas/adapters/', 'lambdas/handlers/', '@aws-sdk/'],
    why: 'a synth must not load Lambda code',
  },
  {
    from: 'lib/',
    forbidden: ['bin/', 'node/'],
    why: 'the CDK app depends on no command line: its settings come from config/, its errors from domain/',
  },
  {
    from: 'lib/',
    forbidden: ['cost/'],
    evenTypes: true,
    why: 'the stack stands on its own: what it shares with the estimator is in config/, sizing/ and pricing/',
  },
  {
    from: 'frontend/src/',
    forbidden: ['lambdas/adapters/', 'lambdas/handlers/', '@aws-sdk/', 'node:'],
    evenTypes: true,
    why: 'the page runs in a browser',
  },
  {
    from: 'config/',
    forbidden: [...ABOVE_CONFIG, 'template/'],
    evenTypes: true,
    why: 'config is read by everything, so it reads nothing of ours',
  },
  {
    from: 'sizing/',
    forbidden: ABOVE_CONFIG.filter((folder) => folder !== 'sizing/'),
    evenTypes: true,
    why: 'the stack and the estimator size a design with the same rules: they read config/ and nothing above it',
  },
  {
    from: 'template/',
    forbidden: [...ABOVE_CONFIG, 'aws-cdk-lib'],
    evenTypes: true,
    why: "the template's one model is read by the local runtime and the estimator alike: it reads the JSON, not them",
  },
  {
    from: 'vps/',
    forbidden: ['lambdas/adapters/', 'local/', 'lib/', '@aws-sdk/', '@aws-lambda-powertools/'],
    // It calls the CAPTCHA provider with fetch: no AWS in it.
    except: ['lambdas/adapters/captcha-verifier'],
    why: 'the VPS edition runs without AWS',
  },
];

export function violations(files: Array<{ path: string; source: string }>, rules: Rule[] = RULES): string[] {
  const out: string[] = [];
  for (const { path, source } of files) {
    for (const rule of rules.filter((r) => path.startsWith(r.from))) {
      for (const imported of importsOf(source)) {
        if (imported.typeOnly && !rule.evenTypes) continue;
        const to = target(path, imported.specifier);
        if (rule.except?.includes(to)) continue;
        const hit = rule.forbidden.find((f) =>
          f.endsWith('/') ? `${to}/`.startsWith(f) : to === f || to.startsWith(f),
        );
        if (hit) out.push(`${path} imports ${imported.specifier} (${rule.why})`);
      }
    }
  }
  return out;
}

describe('import boundaries', () => {
  it('hold across the project', () => {
    const folders = ['domain', 'lambdas', 'cost', 'lib', 'frontend', 'config', 'sizing', 'vps', 'template'].filter(
      (dir) => {
        try {
          return readdirSync(join(ROOT, dir)).length > 0;
        } catch {
          return false;
        }
      },
    );
    const files = folders.flatMap(sourceFiles).map((path) => ({
      path: relative(ROOT, join(ROOT, path)).split('\\').join('/'),
      source: readFileSync(join(ROOT, path), 'utf8'),
    }));
    expect(files.length).toBeGreaterThan(40);
    expect(violations(files)).toEqual([]);
  });

  it('leave domain/ where all three runtimes reach it: lambdas/, frontend/ and vps/ each import it', () => {
    const importsDomain = (path: string) =>
      importsOf(readFileSync(join(ROOT, path), 'utf8')).some(({ specifier }) =>
        `${target(path, specifier)}/`.startsWith('domain/'),
      );
    const apart = ['lambdas', 'frontend', 'vps'].filter((dir) => !sourceFiles(dir).some(importsDomain));
    expect(apart).toEqual([]);
  });

  it('catch a forbidden import of each kind, and let through a type-only one where allowed and an exception', () => {
    const found = violations([
      { path: 'domain/poll.ts', source: "import type { PollTable } from '../lambdas/adapters/poll-table';" },
      { path: 'domain/vote.ts', source: "import type { SQSEvent } from 'aws-lambda';" },
      { path: 'lambdas/handlers/cast-vote.ts', source: "import { SQSClient } from '@aws-sdk/client-sqs';" },
      { path: 'cost/estimate/model.ts', source: "const { synthesizeTemplate } = await import('../../lib/app');" },
      { path: 'cost/usage/measured.ts', source: "import type { Usage } from '../../local/metering';" },
      { path: 'lib/poll-stack.ts', source: "export { VOTER } from '../lambdas/adapters/poll-table';" },
      { path: 'lib/app.ts', source: "import { UsageError } from '../node/command-line';" },
      { path: 'sizing/vote-path.ts', source: "import type { StackConfig } from '../cost/estimate/stack-config';" },
      { path: 'vps/server.ts', source: "import { PollTable } from '../lambdas/adapters/poll-table';" },
      { path: 'vps/server.ts', source: "import { captchaVerifier } from '../lambdas/adapters/captcha-verifier';" },
      { path: 'frontend/src/main.ts', source: "import './app.css';\nimport { x } from '../../domain/poll';" },
      { path: 'template/model.ts', source: "import type { FunctionRole } from '../cost/usage/unit-costs';" },
    ]);
    expect(found).toEqual([
      'domain/poll.ts imports ../lambdas/adapters/poll-table ' +
        "(the page and the VPS edition import the domain: it leans on nothing of Lambda's)",
      'domain/vote.ts imports aws-lambda (the domain is plain TypeScript: no AWS, no HTTP, no files)',
      'lambdas/handlers/cast-vote.ts imports @aws-sdk/client-sqs (handlers get AWS through their ports)',
      'cost/estimate/model.ts imports ../../lib/app ' +
        '(the cost model reads data, not the stack, the runtime or the page)',
      'lib/poll-stack.ts imports ../lambdas/adapters/poll-table (a synth must not load Lambda code)',
      'lib/app.ts imports ../node/command-line ' +
        '(the CDK app depends on no command line: its settings come from config/, its errors from domain/)',
      'sizing/vote-path.ts imports ../cost/estimate/stack-config ' +
        '(the stack and the estimator size a design with the same rules: they read config/ and nothing above it)',
      'vps/server.ts imports ../lambdas/adapters/poll-table (the VPS edition runs without AWS)',
      'template/model.ts imports ../cost/usage/unit-costs ' +
        "(the template's one model is read by the local runtime and the estimator alike: it reads the JSON, not them)",
    ]);
  });
});
