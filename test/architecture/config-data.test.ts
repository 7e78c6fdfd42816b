/**
 * config/ holds settings and contracts, as data: a reader looking for a setting finds no behaviour there. Rules
 * that compute from them live with their owners (sizing/ for the vote path and the quotas a Region has, domain/
 * for errors and the CAPTCHA's checks, pricing/ for the price a line is billed at), so config/ exports no class
 * and no function. A table whose entries carry a function (a flag's `parse`) is data: rules as data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from '../support/source-files';

const exported = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** `x as T`, `x satisfies T`, `(x)`: the value under them. */
function unwrapped(node: ts.Expression): ts.Expression {
  if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))
    return unwrapped(node.expression);
  return node;
}

const isCode = (node: ts.Expression) =>
  ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isClassExpression(node);

/** The names of a source's exported functions and classes, however declared. */
function exportedCode(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  // Every function and class the file declares at its top, exported or not, by name.
  const code: Array<{ name: string; exported: boolean }> = [];
  for (const statement of sf.statements) {
    if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement))
      code.push({ name: statement.name?.text ?? 'default', exported: exported(statement) });
    if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations)
        if (declaration.initializer && isCode(unwrapped(declaration.initializer)))
          code.push({ name: declaration.name.getText(sf), exported: exported(statement) });
  }
  // `export { f }`: a local function exported by a list.
  const listed = sf.statements.flatMap((statement) =>
    ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause
      ? ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements.map((element) => (element.propertyName ?? element.name).text)
        : []
      : [],
  );
  return code.filter((c) => c.exported || listed.includes(c.name)).map((c) => `${file}: ${c.name}`);
}

describe('config/', () => {
  it('exports no class and no function: its rules live with their owners', () => {
    const files = sourceFiles('config');
    expect(files.length).toBeGreaterThan(15);
    expect(files.flatMap((path) => exportedCode(path, readFileSync(join(ROOT, path), 'utf8')))).toEqual([]);
  });

  it('would catch each way of exporting code, and lets a table of rules through', () => {
    const source = [
      'export function quota(id: string) { return 1; }',
      'export class UsageError extends Error {}',
      'export const autoWorkers = (vcpus: number): number => vcpus;',
      'export const pick = (<T>(x: T) => x) as unknown as Picker;',
      'export const old = function () {};',
      'export const Named = class {};',
      'export const FLAGS = { rate: { parse: (value: unknown) => value } } as const;',
      'export const LIMIT = 3;',
      'function local() {}',
      'const listed = () => 1;',
      'export { listed, LIMIT as MAX };',
      'export type Id = string;',
    ].join('\n');
    expect(exportedCode('config/x.ts', source)).toEqual([
      'config/x.ts: quota',
      'config/x.ts: UsageError',
      'config/x.ts: autoWorkers',
      'config/x.ts: pick',
      'config/x.ts: old',
      'config/x.ts: Named',
      'config/x.ts: listed',
    ]);
  });
});
