/**
 * Reads everything flows:check looks at from a project folder: the flow files, the meta-schema,
 * the form schemas, the catalogues, and the message keys src/ and the password policy name.
 * The contract (challenge kinds, error codes) and the app's config are imported, not read,
 * so the check sees exactly what runs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { CHALLENGE_KINDS, SERVER_CHALLENGE_KINDS } from '../../contract/challenges.ts';
import { ERROR_CODES } from '../../contract/error-codes.ts';
import { FLAG_DEFAULTS } from '../../contract/product.ts';
import { config } from '../../src/config.ts';
import type { RouteTable } from '../../src/engine/route-table.ts';
import { ROUTE_TABLE_FILE } from './check-shell-routes.ts';
import { sourceMessageKeys } from './source-keys.ts';
import type { Catalogue, FormSchema, KeyReference, Project, RawFlow } from './types.ts';

/** The project as read: flow files still unchecked, plus everything else the checks need. */
export interface LoadedProject {
  raw: readonly RawFlow[];
  metaSchema: Record<string, unknown>;
  base: Omit<Project, 'flows'>;
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

/** A flow file, or the line its JSON breaks at (reported as a problem rather than a crash). */
function readFlow(root: string, name: string): RawFlow {
  const text = readFileSync(join(root, 'flows', name), 'utf8');
  try {
    return { file: `flows/${name}`, data: JSON.parse(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    const line = text.slice(0, position).split('\n').length;
    return { file: `flows/${name}`, data: undefined, syntaxError: { line, message } };
  }
}

/** The `.json` files of a folder, sorted so output is stable; none when the folder is missing. */
function jsonFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')).sort() : [];
}

/** Every .ts/.tsx file under `dir`, skipping generated code, sorted. */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
      return /\.tsx?$/.test(entry.name) ? [path] : [];
    });
}

/** The message keys the password policy names: each rule's wording, the "strong" line and the common-password refusal. */
function policyKeys(root: string): KeyReference[] {
  const path = join(root, 'schemas', 'password-policy.json');
  if (!existsSync(path)) return [];
  const policy = readJson(path) as { rules?: Array<{ message?: string }>; strong?: string; common?: string };
  const file = 'schemas/password-policy.json';
  const rules = (policy.rules ?? []).flatMap((rule, index) => (rule.message ? [{ file, path: `rules[${index}].message`, key: rule.message }] : []));
  const named = (['strong', 'common'] as const).flatMap((name) => {
    const key = policy[name];
    return key ? [{ file, path: name, key }] : [];
  });
  return [...rules, ...named];
}

/** Event name -> flow, from the event catalogue; empty when the file is missing (every event is then reported). */
function eventCatalogue(root: string): Map<string, string> {
  const path = join(root, 'flows', 'shell', 'events.json');
  if (!existsSync(path)) return new Map();
  const catalogue = readJson(path) as { flows?: Record<string, Record<string, string>> };
  return new Map(Object.entries(catalogue.flows ?? {}).flatMap(([flow, events]) => Object.keys(events).map((event) => [event, flow] as [string, string])));
}

/** Loads the project under `root`. */
export function loadProject(root: string): LoadedProject {
  const metaSchema = readJson(join(root, 'schemas', 'flow.schema.json')) as Record<string, unknown>;
  const definitions = metaSchema.definitions as { challengeKind?: { enum?: string[] }; messageKey?: { pattern?: string } } | undefined;
  const raw = jsonFiles(join(root, 'flows')).map((name) => readFlow(root, name));
  const formSchemas = new Map<string, FormSchema>(
    jsonFiles(join(root, 'schemas', 'forms')).map((name) => [name, readJson(join(root, 'schemas', 'forms', name)) as FormSchema]),
  );
  // English first: it is the source the other catalogues follow, and problem lines list it first.
  const languages = jsonFiles(join(root, 'flows', 'messages')).map((name) => name.replace(/\.json$/, '')).sort((a, b) => Number(b === 'en') - Number(a === 'en'));
  // A flow's word set (flows/messages/<set>/<language>.json) is checked as part of its language's catalogue; the
  // account page's words are checked with its sources (check-referenced-keys.ts).
  const wordSets = readdirSync(join(root, 'flows', 'messages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'account')
    .map((entry) => join(root, 'flows', 'messages', entry.name));
  const withWordSets = (language: string): Catalogue =>
    Object.assign(
      {},
      readJson(join(root, 'flows', 'messages', `${language}.json`)) as Catalogue,
      ...wordSets.map((folder) => (existsSync(join(folder, `${language}.json`)) ? (readJson(join(folder, `${language}.json`)) as Catalogue) : {})),
    );
  const catalogues = new Map<string, Catalogue>(languages.map((language) => [language, withWordSets(language)]));
  const englishKeys = (file: string): Set<string> => new Set(existsSync(file) ? Object.keys(readJson(file) as Catalogue) : []);
  const wordPlaces = {
    main: englishKeys(join(root, 'flows', 'messages', 'en.json')),
    sets: new Map(wordSets.map((folder) => [basename(folder), englishKeys(join(folder, 'en.json'))])),
  };
  const sourceKeys = sourceFiles(join(root, 'src')).flatMap((path) =>
    sourceMessageKeys(readFileSync(path, 'utf8')).map(({ line, key }) => ({ file: relative(root, path).split('\\').join('/'), path: String(line), key })),
  );
  return {
    raw,
    metaSchema,
    base: {
      formSchemas,
      catalogues,
      wordPlaces,
      contractChallenges: CHALLENGE_KINDS,
      serverChallenges: SERVER_CHALLENGE_KINDS,
      messageKeyPattern: new RegExp(definitions?.messageKey?.pattern ?? '^.+$'),
      challengeKinds: definitions?.challengeKind?.enum ?? [],
      apiErrors: ERROR_CODES,
      featureFlags: Object.keys(FLAG_DEFAULTS),
      carriedQuery: config.carriedQuery,
      appSteps: (['entryStep', 'errorStep', 'notFoundStep', 'notAvailableStep'] as const).map((name) => ({ name, step: config[name] })),
      keyReferences: [...sourceKeys, ...policyKeys(root)],
      routeTable: existsSync(join(root, ROUTE_TABLE_FILE)) ? (readJson(join(root, ROUTE_TABLE_FILE)) as RouteTable) : undefined,
      eventCatalogue: eventCatalogue(root),
    },
  };
}
