/**
 * The shape of a flow file (flows/*.json): a step's form and its example inputs. Generated from schemas/flow.schema.json by npm run contract:generate.
 * Do not edit: change the meta-schema and run the command (npm run flows:check reports this file when it is stale).
 */
import type { Condition, FieldPath, MessageKey, ValueSources } from './values.ts';

/**
 * The step's form: a JSON Schema of schemas/forms/ rendered by rjsf, with its labels, validation messages, starting values, choices and checks.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "form".
 */
export interface Form {
  /**
   * A file in schemas/forms/.
   */
  schema: string;
  /**
   * An rjsf uiSchema; widgets are named from the widget registry.
   */
  ui?: {
    [k: string]: unknown;
  };
  submit?: MessageKey;
  /**
   * field -> message key of its label, so labels follow the language (the schema's `title` is the English fallback).
   */
  labels?: {
    [k: string]: MessageKey;
  };
  /**
   * field -> validation keyword -> message key.
   */
  messages?: {
    [k: string]: {
      [k: string]: MessageKey;
    };
  };
  /**
   * field -> where its starting value comes from.
   */
  prefill?: {
    [k: string]: ValueSources;
  };
  /**
   * field -> a list in the answer's parameters offered as the field's choices (to a widget that shows choices, in ui:options.choices as { value, label }).
   */
  choices?: {
    [k: string]: {
      [k: string]: unknown;
    } & {
      parameter: FieldPath;
      value: FieldPath;
      label?: FieldPath;
      /**
       * value -> message key of its text, so the text follows the language; the item's text fields fill its {placeholders}. Items whose value has no entry are not offered.
       */
      labels?: {
        [k: string]: MessageKey;
      };
    };
  };
  /**
   * field -> a condition on the answer that led to the step; while it holds, the field is neither shown nor sent (a client's shared-device hint hides "Don't ask for a code on this device").
   */
  hide?: {
    [k: string]: Condition;
  };
  /**
   * field -> a named client-side check run before submit (src/engine/field-checks.ts); the first problem shows under the field. The server applies the same rule.
   */
  checks?: {
    [k: string]: 'password-policy';
  };
}
/**
 * Example inputs of the step's form: values it accepts, which the tests' walks submit, and values it refuses with the message each shows. npm run flows:check checks them against the form's schema and messages.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "examples".
 */
export interface Examples {
  /**
   * Form values the step accepts (an encrypted field is given in plain text; the walks encrypt it).
   */
  valid: {
    [k: string]: unknown;
  };
  /**
   * Values the step refuses, each with the message it shows.
   */
  invalid?: {
    /**
     * Form values the step refuses.
     */
    values: {
      [k: string]: unknown;
    };
    message: MessageKey;
  }[];
}
