import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface PolicyFile {
  maxLength: number;
  rules: Array<{ id: string; pattern: string; message: string }>;
}

/** Checks a new password against schemas/password-policy.json, the same rules the web app's checklist shows. */
export type PasswordPolicy = (password: string) => string | undefined;

/** Loads the policy; the checker returns the first unmet rule in the catalogue's words, or undefined. */
export function loadPasswordPolicy(root: string = ROOT): PasswordPolicy {
  const policy = JSON.parse(fs.readFileSync(path.join(root, 'schemas/password-policy.json'), 'utf8')) as PolicyFile;
  const catalogue = JSON.parse(fs.readFileSync(path.join(root, 'flows/messages/en.json'), 'utf8')) as Record<string, string>;
  const rules = policy.rules.map((rule) => ({ test: new RegExp(rule.pattern, 'u'), message: catalogue[rule.message] ?? rule.message }));
  return (password) => {
    if (password.length > policy.maxLength) return `at most ${policy.maxLength} characters`;
    return rules.find((rule) => !rule.test.test(password))?.message;
  };
}
