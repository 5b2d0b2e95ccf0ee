/**
 * The condition vocabulary of the flows (`challenge`, `exists`, `equals`, `in`, `flag`; schemas/flow.schema.json
 * `definitions.condition`) and the next-rule semantics, defined once for the web app's engine, the server and the checks.
 */
import { readPath } from './read-path.ts';

/** A condition of a next rule or a variant: every key given must hold. */
export interface Condition {
  challenge?: string;
  exists?: string;
  equals?: { field: string; value: string | number | boolean | null };
  in?: { field: string; values: ReadonlyArray<string | number | boolean> };
  /** "name" holds when the flag is on, "!name" when it is off. */
  flag?: string;
}

/** Feature flags that `flag` conditions read: the flags in force, not merely their defaults. */
export type Flags = Readonly<Record<string, boolean>>;

/** The server's answer a condition is read against: `challenge` and any fields `exists`, `equals` and `in` name. */
export type Answer = object;

/** Whether every key of `condition` holds for `answer` under `flags`. */
export function conditionHolds(condition: Condition, answer: Answer, flags: Flags): boolean {
  if (condition.challenge !== undefined && readPath(answer, 'challenge') !== condition.challenge) return false;
  if (condition.exists !== undefined && readPath(answer, condition.exists) == null) return false;
  if (condition.equals && readPath(answer, condition.equals.field) !== condition.equals.value) return false;
  if (condition.in) {
    const value = readPath(answer, condition.in.field);
    if (!condition.in.values.some((candidate) => candidate === value)) return false;
  }
  if (condition.flag !== undefined) {
    const negated = condition.flag.startsWith('!');
    const on = flags[negated ? condition.flag.slice(1) : condition.flag] === true;
    if (on === negated) return false;
  }
  return true;
}

/** The first rule that holds for `answer` (a rule without `when` always holds); rules are read top to bottom. */
export function firstMatchingRule<Rule extends { when?: Condition }>(rules: readonly Rule[] | undefined, answer: Answer, flags: Flags): Rule | undefined {
  return rules?.find((rule) => !rule.when || conditionHolds(rule.when, answer, flags));
}
