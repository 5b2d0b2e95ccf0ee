/**
 * The password strength rules of schemas/password-policy.json (spec, section 5), the same file
 * the server checks against, so the live checklist and the server never disagree.
 */
import policy from '../../schemas/password-policy.json';

/** One rule and whether a password meets it. */
export interface PasswordRuleResult {
  id: string;
  /** Message key of the rule's wording. */
  message: string;
  met: boolean;
}

// Patterns are data, compiled once with RegExp (no eval, so the page's CSP allows it). The `u`
// flag counts characters, not UTF-16 units, which is never laxer than the server's count.
const rules = policy.rules.map((rule) => ({ id: rule.id, message: rule.message, pattern: new RegExp(rule.pattern, 'u') }));

/** Message key of the line shown once every rule is met. */
export const strongPasswordMessage: string = policy.strong;

/** Message key of the line shown when every rule is met but the password is on the common-password list. */
export const commonPasswordMessage: string = policy.common;

/** Every rule, in the policy's order, with whether `password` meets it. */
export function checkPassword(password: string): PasswordRuleResult[] {
  return rules.map((rule) => ({ id: rule.id, message: rule.message, met: rule.pattern.test(password) }));
}

/** Message key of the first rule `password` does not meet, or undefined when it is strong. */
export function firstUnmetRule(password: string): string | undefined {
  return checkPassword(password).find((rule) => !rule.met)?.message;
}
