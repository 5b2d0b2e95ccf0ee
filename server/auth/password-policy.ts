import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dictionary } from '@zxcvbn-ts/language-common';
import type { ProblemDetail } from '../../contract/error-codes.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface PolicyFile {
  maxLength: number;
  rules: Array<{ id: string; pattern: string; message: string }>;
  common: string;
}

/** Checks a new password against schemas/password-policy.json, the same rules the web app's checklist shows. */
export type PasswordPolicy = (password: string) => ProblemDetail | undefined;

/**
 * The bundled list of common and breached passwords (about 49,000, lower case, no network): a password that is
 * one of them, ignoring case, is refused however many rules it meets ("Password1!" meets all five).
 */
function loadCommonPasswords(): ReadonlySet<string> {
  return new Set(dictionary['passwords-common'].map((entry) => String(entry).toLowerCase()));
}

/** Loads the policy; the checker returns the first unmet rule (its catalogue key and English words), or undefined. */
export function loadPasswordPolicy(root: string = ROOT): PasswordPolicy {
  const policy = JSON.parse(fs.readFileSync(path.join(root, 'schemas/password-policy.json'), 'utf8')) as PolicyFile;
  const catalogue = JSON.parse(fs.readFileSync(path.join(root, 'flows/messages/en.json'), 'utf8')) as Record<string, string>;
  const detail = (key: string): ProblemDetail => ({ key, message: catalogue[key] ?? key });
  const rules = policy.rules.map((rule) => ({ test: new RegExp(rule.pattern, 'u'), problem: detail(rule.message) }));
  const common = loadCommonPasswords();
  const commonProblem = detail(policy.common);
  return (password) => {
    if (password.length > policy.maxLength) return { message: `at most ${policy.maxLength} characters` };
    const unmet = rules.find((rule) => !rule.test.test(password))?.problem;
    if (unmet !== undefined) return unmet;
    return common.has(password.toLowerCase()) ? commonProblem : undefined;
  };
}
