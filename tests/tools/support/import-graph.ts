/**
 * The import graph of the source tree, read with TypeScript's own import scanner (`ts.preProcessFile`,
 * which sees static, type-only, re-export and dynamic imports), and the two questions the architecture
 * test asks of it: which imports form a cycle, and which cross a layer boundary.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/** One import of a file: another file of the tree (repo-relative path), or a package. */
export type ImportTarget = { readonly file: string } | { readonly package: string };

/** Each source file (repo-relative, `/`-separated) and what it imports, in source order. */
export type ImportGraph = ReadonlyMap<string, readonly ImportTarget[]>;

/** A rule of the layering: files under `files` never import what `forbidden` names. */
export interface LayerRule {
  /** What the rule keeps apart, in a reader's words. */
  readonly name: string;
  /** Path prefixes of the files the rule binds (`server/auth/`). */
  readonly files: readonly string[];
  /** Path prefixes of files they may not import, and packages (a name, or a scope ending in `/`). */
  readonly forbidden: { readonly files?: readonly string[]; readonly packages?: readonly string[] };
}

const SOURCE_FILE = /\.tsx?$/;

/** Where a relative specifier points; the file as written or with a TypeScript extension, whichever exists. */
function resolveRelative(from: string, specifier: string, known: ReadonlySet<string>): string {
  const path = posix.normalize(posix.join(posix.dirname(from), specifier.replace(/\?.*$/, '')));
  return [path, `${path}.ts`, `${path}.tsx`, `${path}/index.ts`, `${path}/index.tsx`].find((candidate) => known.has(candidate)) ?? path;
}

/** The package a bare specifier names: `@scope/name` or `name` (`react-dom/client` is `react-dom`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/**
 * The graph of the given files (path → source text). Other paths in `assets` (stylesheets, JSON)
 * count as existing import targets without being scanned.
 */
export function importGraphOf(sources: Readonly<Record<string, string>>, assets: readonly string[] = []): ImportGraph {
  const known = new Set([...Object.keys(sources), ...assets]);
  return new Map(
    Object.entries(sources).map(([file, text]) => {
      const targets = ts.preProcessFile(text, true, true).importedFiles.map(({ fileName }): ImportTarget =>
        fileName.startsWith('.') ? { file: resolveRelative(file, fileName, known) } : { package: packageOf(fileName) },
      );
      return [file, targets];
    }),
  );
}

/** Every file under `dirs` of `root`, repo-relative and `/`-separated; a missing folder has none. */
function filesUnder(root: string, dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** The import graph of the TypeScript files under `dirs` of the project at `root`. */
export function readImportGraph(root: string, dirs: readonly string[]): ImportGraph {
  const files = dirs.flatMap((dir) => filesUnder(root, dir)).sort();
  const sources = Object.fromEntries(files.filter((file) => SOURCE_FILE.test(file)).map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  return importGraphOf(sources, files);
}

/**
 * Each import cycle, one per strongly connected group of files (Tarjan), written as the shortest path
 * that closes it from the group's first file, `a.ts → b.ts → a.ts`, followed by the group's other
 * files when the group is larger than that path. Only imports between scanned files count.
 */
export function findCycles(graph: ImportGraph): string[] {
  const next = (file: string): string[] =>
    (graph.get(file) ?? []).flatMap((target) => ('file' in target && graph.has(target.file) ? [target.file] : []));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of next(file)) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || next(file).includes(file)) groups.push(group);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return groups
    .map((group) => {
      const members = group.sort();
      const cycle = cyclePath(members[0]!, new Set(members), next);
      const rest = members.filter((file) => !cycle.includes(file));
      const knot = rest.length > 0 ? ` (${members.length} files in one knot: also ${rest.join(', ')})` : '';
      return `${cycle.join(' → ')}${knot}`;
    })
    .sort();
}

/** The shortest path from `start` back to itself inside `group` (breadth first), `start` at both ends. */
function cyclePath(start: string, group: ReadonlySet<string>, next: (file: string) => string[]): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of next(file)) {
      if (!group.has(target)) continue;
      if (target === start) {
        const between: string[] = [];
        for (let at = file; at !== start; at = cameFrom.get(at)!) between.unshift(at);
        return [start, ...between, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start];
}

/** The files a rule binds in this graph. */
export function filesBoundBy(graph: ImportGraph, rule: LayerRule): string[] {
  return [...graph.keys()].filter((file) => rule.files.some((prefix) => file.startsWith(prefix)));
}

/** Every import that breaks the rule, as `file imports target`. */
export function ruleViolations(graph: ImportGraph, rule: LayerRule): string[] {
  const forbiddenFile = (file: string) => (rule.forbidden.files ?? []).some((prefix) => file.startsWith(prefix));
  const forbiddenPackage = (name: string) => (rule.forbidden.packages ?? []).some((banned) => (banned.endsWith('/') ? name.startsWith(banned) : name === banned));
  const lines = filesBoundBy(graph, rule).flatMap((file) =>
    (graph.get(file) ?? []).flatMap((target) => {
      const broken = 'file' in target ? forbiddenFile(target.file) : forbiddenPackage(target.package);
      return broken ? [`${file} imports ${'file' in target ? target.file : target.package}`] : [];
    }),
  );
  return [...new Set(lines)];
}
