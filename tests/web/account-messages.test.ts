import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import english from '../../flows/messages/account/en.json';
import german from '../../flows/messages/account/de.json';
import { SECURITY_EVENT_KINDS } from '../../server/store/security-events.ts';

const ACCOUNT_SOURCES = join(import.meta.dirname, '../../src/account');

describe('the account page words', () => {
  it('are in English and German, key for key', () => {
    expect(Object.keys(german).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(german)) expect(text.match(/\{\w+\}/g) ?? [], key).toEqual((english as Record<string, string>)[key]!.match(/\{\w+\}/g) ?? []);
  });

  it('cover every account.* key the page names', () => {
    const used = readdirSync(ACCOUNT_SOURCES)
      .filter((name) => name.endsWith('.tsx'))
      .flatMap((name) => [...readFileSync(join(ACCOUNT_SOURCES, name), 'utf8').matchAll(/t\('(account\.[\w.]+)'/g)].map((match) => match[1]!));
    expect(used.length).toBeGreaterThan(50);
    expect(used.filter((key) => !(key in english))).toEqual([]);
  });

  it('name every security event the activity list can show, in English and German', () => {
    const missing = (catalogue: Record<string, string>) => SECURITY_EVENT_KINDS.filter((kind) => !(`account.activity.kind.${kind}` in catalogue));
    expect(missing(english)).toEqual([]);
    expect(missing(german)).toEqual([]);
    expect(german['account.activity.kind.app_access_revoked']).toBe('App-Zugriff entzogen');
  });
});
