/**
 * The shape of a flow file (flows/*.json): how a step leads on: its guard, call, links, actions, variants and next rules. Generated from schemas/flow.schema.json by npm run contract:generate.
 * Do not edit: change the meta-schema and run the command (npm run flows:check reports this file when it is stale).
 */
import type { Form } from './form.ts';
import type { Condition, FieldPath, MessageKey, TitleKeys, ValueSources } from './values.ts';

/**
 * The step may only be entered from the steps in `from` (by their answer or link); entered any other way (a typed address, a reload, another step) the app goes to `otherwise` instead. The server refuses the step's call out of order on its own.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "guard".
 */
export interface Guard {
  /**
   * The step ids that may lead here; absent, any step's answer or link may (a reload, Back or a typed address may not, unless this tab reached the step before).
   *
   * @minItems 1
   */
  from?: string[];
  /**
   * A step id in any flow.
   */
  otherwise: string;
}
/**
 * An API call a step makes: its submit, its init, or an action's.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "call".
 */
export interface Call {
  /**
   * The HTTP method.
   */
  method: 'GET' | 'POST';
  /**
   * Relative to /api/sso/v3.
   */
  path: string;
  /**
   * Query values of the page carried into the call.
   */
  query?: string[];
  /**
   * Query values the call sends when the page has none of that name (a client's link to register asks for prompt=create).
   */
  defaultQuery?: {
    [k: string]: string;
  };
  /**
   * Form fields sent encrypted to the server's credential key.
   */
  encrypt?: string[];
  /**
   * required: the server admits the call only within a sign-in transaction that has reached this step. none: no transaction is needed (password recovery may start from anywhere).
   */
  transaction?: 'required' | 'none';
}
/**
 * The screen's main button leaves the app for the URL in an answer field (back to the client app), firing `event` as it goes.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "backToApp".
 */
export interface BackToApp {
  label: MessageKey;
  navigate: FieldPath;
  /**
   * The analytics event tracked as the user leaves.
   */
  event?: string;
}
/**
 * A link to another step, shown under the step's form. It carries the page query, plus the values `query` names.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "link".
 */
export interface Link {
  label: MessageKey;
  /**
   * A step id in any flow; its :name route segments are filled from this step's route and answer parameters.
   */
  go: string;
  when?: Condition;
  /**
   * query name -> where its value comes from; a source without a value leaves the carried page value as it is.
   */
  query?: {
    [k: string]: ValueSources;
  };
  /**
   * Carried query names the link leaves behind: a dead invitation's token must not follow "Log in" back to the same dead end.
   */
  without?: string[];
  /**
   * button: the screen's main action, drawn as the primary button.
   */
  style?: 'link' | 'button';
  /**
   * Open the target in a new tab, so this step keeps what the user typed (terms to read while registering).
   */
  newTab?: boolean;
  /**
   * Return rather than go (the terms page opened by a form's newTab link): in a tab whose only page this is, a button with `label` closes the tab, and `hint` shows once it was pressed, for a browser that keeps the tab open; otherwise the link goes Back in the same tab, to the form with what was typed. `go` names the step returned to.
   */
  closeTab?: {
    label: MessageKey;
    hint: MessageKey;
  };
  wait?: FieldPath;
  /**
   * An analytics event tracked when the link is followed (cancelling a verification).
   */
  event?: string;
  /**
   * The target step shows with this step's answer, as if the answer had led there: the code screen after "Check your email" knows when the code went and how long to wait before another.
   */
  keepAnswer?: boolean;
}
/**
 * Analytics events, each a name listed in flows/shell/events.json.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "events".
 */
export interface Events {
  /**
   * Sent when the step shows.
   */
  view?: string;
  /**
   * Sent when the call answers.
   */
  success?: string;
  /**
   * Sent when the call fails.
   */
  error?: string;
  /**
   * Sent when the step's init call fails.
   */
  initError?: string;
}
/**
 * A button under the form that makes a call without leaving the step (ask for a new code); the answer goes through the step's `next` rules like a submit's. With `wait` it is disabled, counting down, until the server's cooldown has run out.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "action".
 */
export interface Action {
  label: MessageKey;
  call: Call;
  wait?: FieldPath;
  events?: Events;
  toast?: MessageKey;
  /**
   * The call is that of a bot-checked step (a new password-reset code): with the bot check on, the widget shows on this step too and its token goes with the call.
   */
  botCheck?: boolean;
  /**
   * field -> where its value comes from: what the call sends (the address submitted earlier, for a new password-reset code).
   */
  values?: {
    [k: string]: ValueSources;
  };
}
/**
 * The step as shown after an answer for which `when` holds: the keys given replace the step's own. One route can so serve several challenges (setting up and signing in), each with its title, words, form and call; the server admits a variant's call at the challenge its `when` names (or at all the step's).
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "variant".
 */
export interface Variant {
  when: Condition;
  /**
   * Replaces the step's title.
   */
  title?: string;
  titleKeys?: TitleKeys;
  headline?: MessageKey;
  body?: MessageKey;
  form?: Form;
  call?: Call;
  /**
   * Replaces the step's links.
   */
  links?: Link[];
  events?: Events;
}
/**
 * A next rule: after the step's call answers, the rules are read top to bottom and the first whose `when` holds picks the next step.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "rule".
 */
export interface Rule {
  when?: Condition;
  /**
   * A step id in any flow.
   */
  go: string;
}
