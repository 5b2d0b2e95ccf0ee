import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MESSAGES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../flows/messages');

/** The languages the screens speak: one per message catalogue (flows/messages/*.json), English first. */
export function screenLanguages(): string[] {
  const others = fs
    .readdirSync(MESSAGES)
    .filter((name) => name.endsWith('.json') && name !== 'en.json')
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
  return ['en', ...others];
}
