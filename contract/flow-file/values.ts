/**
 * The shape of a flow file (flows/*.json): the values it names: challenge kinds, message keys, value sources and conditions. Generated from schemas/flow.schema.json by npm run contract:generate.
 * Do not edit: change the meta-schema and run the command (npm run flows:check reports this file when it is stale).
 */
/**
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "challengeKind".
 */
export type ChallengeKind =
  | 'LOGIN_REQUIRED'
  | 'NEW_PASSWORD_REQUIRED'
  | 'RESET_PASSWORD'
  | 'MFA_SETUP'
  | 'SMS_MFA'
  | 'SETUP_SMS_MFA'
  | 'VERIFY_SETUP_SMS_MFA'
  | 'SETUP_SOFTWARE_TOKEN_MFA'
  | 'SOFTWARE_TOKEN_MFA'
  | 'SMS_TOKEN_MFA'
  | 'PASSWORD_RECOVERY'
  | 'SELECT_MFA_TYPE'
  | 'RESEND_OTP'
  | 'PRE_REGISTRATION'
  | 'EMAIL_MFA'
  | 'SUCCESS_REGISTRATION'
  | 'SUCCESS_PASSWORD_RESET'
  | 'MULTIPLE_COMPANIES_REGISTRATION'
  | 'PASSKEY_MFA'
  | 'SETUP_PASSKEY_MFA'
  | 'PASSKEY_SIGN_IN'
  | 'CONSENT_REQUIRED'
  | 'SAVE_RECOVERY_CODES';
/**
 * One key of the titles word set (flows/messages/titles/<language>.json) per part of the title, in order; npm run flows:check checks each is in every language and that the English words are the title's.
 *
 * @minItems 1
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "titleKeys".
 */
export type TitleKeys = string[];
/**
 * A key of every catalogue in flows/messages/ (en.json, de.json, ...).
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "messageKey".
 */
export type MessageKey = string;
/**
 * One source, or a list tried in order: the first that has a value wins.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "valueSources".
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "prefill".
 */
export type ValueSources = ValueSource | ValueSource[];
/**
 * A dot path into an answer or into form values (parameters.delivery_destination).
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "fieldPath".
 */
export type FieldPath = string;
/**
 * Where a value comes from; exactly one key. query: the page query. parameter: the parameters of the answer that led to the step (a dot path). submitted: a field the user submitted on an earlier step of the same flow. field: the current value of a field of the step's own form (for links).
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "valueSource".
 */
export interface ValueSource {
  /**
   * A query value of the page.
   */
  query?: string;
  parameter?: FieldPath;
  submitted?: FieldPath;
  field?: FieldPath;
}
/**
 * A small vocabulary, never an expression: all keys given must hold.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "condition".
 */
export interface Condition {
  challenge?: ChallengeKind;
  exists?: FieldPath;
  /**
   * Holds when the answer's field equals value.
   */
  equals?: {
    field: FieldPath;
    value: string | number | boolean | null;
  };
  /**
   * Holds when the answer's field is one of values.
   */
  in?: {
    field: FieldPath;
    /**
     * @minItems 1
     */
    values: (string | number | boolean)[];
  };
  /**
   * Holds while the feature flag is on (name) or off (!name).
   */
  flag?: string;
}
