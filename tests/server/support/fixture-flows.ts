import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PROJECT = path.resolve(import.meta.dirname, '../../..');

/** A JSON file of a fixture's flows/ or schemas/, by its path there (`flows/registration.json`). */
export type FixtureFiles = Record<string, (json: Record<string, unknown>) => unknown>;

/**
 * A copy of the project's flows/ and schemas/ in a temporary folder, with `edits` applied to the JSON files they name
 * (a file not in the project is made from `{}`), and `adds` copied over as they are: a root for loadFlowRegistry,
 * buildApp's `flowsRoot` and flows:check. Removed by `remove`.
 */
export function fixtureFlows(edits: FixtureFiles = {}, adds: Record<string, string> = {}): { root: string; remove(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-flows-'));
  for (const folder of ['flows', 'schemas']) fs.cpSync(path.join(PROJECT, folder), path.join(root, folder), { recursive: true });
  for (const [file, source] of Object.entries(adds)) fs.cpSync(source, path.join(root, file), { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const target = path.join(root, file);
    const json = fs.existsSync(target) ? (JSON.parse(fs.readFileSync(target, 'utf8')) as Record<string, unknown>) : {};
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, `${JSON.stringify(edit(json) ?? json, null, 2)}\n`);
  }
  return { root, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}
