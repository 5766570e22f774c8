import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No runtime import cycles. In a cycle one module is evaluated before the other has finished, so whichever reads the
 * other's exports first reads them uninitialised (a `const` throws, a table is undefined), and which one that is
 * depends on which file happened to be imported first. A cycle is cut along its seam: what both sides need moves to
 * a module of its own.
 *
 * Counted as dpdm counts them (`npx dpdm -T --skip-dynamic-imports circular`, which gives the same cycles but takes
 * half a minute over this repository): static imports and re-exports between our own files. Type-only imports do not
 * count (they vanish when the code is compiled), nor do dynamic `import()`s (a lazily loaded page that imports its
 * router runs after the router has).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = ['server', 'src', 'workers', 'machines', 'contract', 'plugin', 'tools'];
const ALIASES: Record<string, string> = { '@/': 'src/', '@contract/': 'contract/', '@machines/': 'machines/', '@workers/': 'workers/' };
const SUFFIXES = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'node_modules' || entry === 'dist' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry) && !/\.(test|d)\.tsx?$/.test(entry) ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
  let base: string;
  if (specifier.startsWith('.')) base = resolve(from, '..', specifier);
  else if (alias) base = join(ROOT, ALIASES[alias]!, specifier.slice(alias.length));
  else return null;
  for (const suffix of SUFFIXES) {
    const path = base + suffix;
    if (/\.tsx?$/.test(path) && existsSync(path) && statSync(path).isFile()) return path;
  }
  return null;
}

/** The files a file imports at run time: type-only imports and exports left out. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specifiers: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && !node.isTypeOnly) {
      const clause = node.exportClause;
      if (!(clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly))) specifiers.push(node.moduleSpecifier.text);
    }
  }
  return specifiers.map((specifier) => resolveImport(file, specifier)).filter((path): path is string => path !== null);
}

/** Each cycle once (Tarjan's strongly connected components of more than one file, or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.map((path) => relative(ROOT, path)).sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('imports', () => {
  it('form no runtime cycle', () => {
    const graph = new Map<string, string[]>();
    for (const file of FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)))) graph.set(file, runtimeImports(file));
    expect(cycles(graph)).toEqual([]);
  });
});
