/**
 * Types for the flow files in flows/*.json, mirroring schemas/flow.schema.json.
 * The flow files are the source of truth; these types only describe their shape.
 */

import type { Condition } from '../../contract/conditions.ts';

/** One next rule: go to `go` when `when` holds (or always, without `when`). */
export interface NextRule {
  when?: Condition;
  go: string;
}

/** An API call a step makes, relative to /api/sso/v3/. */
export interface StepCall {
  method: 'GET' | 'POST';
  path: string;
  /** Page query values sent along with the call. */
  query?: readonly string[];
  /** Query values sent when the page has none of that name. */
  defaultQuery?: Readonly<Record<string, string>>;
  /** Form fields sent encrypted to the server's credential key. */
  encrypt?: readonly string[];
  /** Whether the server needs a sign-in transaction at this step ("required", the default) or none. */
  transaction?: 'required' | 'none';
}

/** Where a value comes from: exactly one key (the meta-schema enforces it). */
export interface ValueSource {
  /** A page query value. */
  query?: string;
  /** A parameter of the answer that led to the step (dot path). */
  parameter?: string;
  /** A field the user submitted on an earlier step of the same flow. */
  submitted?: string;
  /** A field of the step's own form, as currently typed. */
  field?: string;
}

/** One source, or a list tried in order. */
export type ValueSources = ValueSource | readonly ValueSource[];

/** A link to another step, shown under the step's form. */
export interface StepLink {
  label: string;
  go: string;
  /** query name -> where its value comes from, added to the carried page query. */
  query?: Record<string, ValueSources>;
  style?: 'link' | 'button';
  /** Opens the target in a new tab, so the step keeps what was typed. */
  newTab?: boolean;
  /**
   * Returns instead of going: in a tab opened by a form's new-tab link (this page its only one) a button with this
   * label closes the tab, and `hint` says what to do if the browser keeps it open; otherwise the link goes Back.
   */
  closeTab?: { label: string; hint: string };
  /** An answer field with the seconds to wait before the link may be followed (a resend cooldown). */
  wait?: string;
  /** Tracked when the link is followed. */
  event?: string;
  /** The target shows with this step's answer (where a code went, the wait before another), as if it had led there. */
  keepAnswer?: boolean;
}

/** A button that makes a call without leaving the step (ask for a new code); its answer goes through `next`. */
export interface StepAction {
  label: string;
  call: StepCall;
  /** An answer field with the seconds before the action may be used. */
  wait?: string;
  events?: StepEvents;
  /** Message key of a success toast shown once the call succeeded ("Code sent"). */
  toast?: string;
  /** Fields the call sends, from value sources (the address submitted earlier, for a new reset code). */
  values?: Record<string, ValueSources>;
  /** The call is a bot-checked step's (a new reset code asks again): the widget shows, and its token goes along. */
  botCheck?: boolean;
}

/** The step as shown after an answer for which `when` holds: the keys given replace the step's own. */
export interface StepVariant {
  when: Condition;
  title?: string;
  headline?: string;
  body?: string;
  form?: StepForm;
  call?: StepCall;
  links?: readonly StepLink[];
  events?: StepEvents;
}

/** Where a step may be entered from, and where it sends the user otherwise. */
export interface StepGuard {
  /** The step ids that may lead here; absent, any step's answer may (only a reload, Back or a typed address may not). */
  from?: readonly string[];
  otherwise: string;
}

/** A button that leaves the app for the URL in an answer field. */
export interface StepBackToApp {
  label: string;
  navigate: string;
  event?: string;
}

/** The form of a step: a JSON Schema in schemas/forms/ plus its rjsf ui schema. */
export interface StepForm {
  schema: string;
  ui?: Record<string, unknown>;
  /** The submit button's text. A form without one has no button: its values go with the step panel's submit. */
  submit?: string;
  /** field -> message key of its label (the schema's `title` is the fallback). */
  labels?: Record<string, string>;
  /** field -> ajv keyword -> message key. */
  messages?: Record<string, Record<string, string>>;
  prefill?: Record<string, ValueSources>;
  /** field -> named client-side check (src/engine/field-checks.ts). */
  checks?: Record<string, string>;
  /** field -> a list in the answer's parameters offered as the field's choices. */
  choices?: Record<string, ChoiceSource>;
  /** field -> a condition on the answer that led to the step; while it holds, the field is neither shown nor sent. */
  hide?: Record<string, Condition>;
}

/** Where a field's choices come from: a list in the parameters, and which item keys are value and label. */
export interface ChoiceSource {
  parameter: string;
  value: string;
  /** The item field holding its text... */
  label?: string;
  /** ...or value -> message key of its text, its placeholders filled from the item. */
  labels?: Readonly<Record<string, string>>;
}

/** Analytics event names a step fires. */
export interface StepEvents {
  view?: string;
  success?: string;
  error?: string;
  /** Sent when the step's init call fails. */
  initError?: string;
}

/** A headed paragraph of a step: message keys. */
export interface StepSection {
  headline: string;
  body: string;
}

/** One screen of a flow, as written in flows/*.json. */
export interface StepDefinition {
  description?: string;
  challenges?: readonly string[];
  /** API error codes an entry call may fail with that this step shows instead of the error step (a finished sign-in). */
  errors?: readonly string[];
  /** Challenges at which the server also admits the step's calls (the app ignores them). */
  admits?: readonly string[];
  /** Entered from any other step than `from`, the app goes to `otherwise`. */
  guard?: StepGuard;
  route: string;
  /** Other paths that render this step. */
  aliases?: readonly string[];
  title: string;
  headline?: string;
  body?: string;
  /** The client line's message key (`{client}`: the app's name), or false for none; by default "Signing in to …". */
  clientBanner?: string | false;
  /** Headed paragraphs under the body (the help page's topics). */
  sections?: readonly StepSection[];
  /** `{name}` placeholders of the step's words taken from value sources rather than the answer's parameters. */
  placeholders?: Record<string, ValueSources>;
  form?: StepForm;
  init?: StepCall;
  /** The message key shown when `init` fails without an error of the server's own. */
  initFailure?: string;
  /** The form is guarded by the bot check when it is switched on. */
  botCheck?: boolean;
  call?: StepCall;
  navigate?: string;
  backToApp?: StepBackToApp;
  /** A plain-text file in public/legal/ shown as the step's text. */
  document?: string;
  links?: readonly StepLink[];
  events?: StepEvents;
  /** Buttons making a call without leaving the step. */
  actions?: readonly StepAction[];
  /** A panel of the panel registry shown above the form with the answer's parameters. */
  panel?: string;
  /** name -> a call the step's panel makes itself; a call's answer moves the flow on like a submit's. */
  panelCalls?: Readonly<Record<string, StepCall>>;
  /** Alternatives of the step by the answer that led to it; the first that holds applies. */
  variants?: readonly StepVariant[];
  next?: readonly NextRule[];
  /** An end screen the app shows by itself; it needs no link in or out. */
  terminal?: boolean;
}

/** A step together with its id and the flow it belongs to. */
export interface Step extends StepDefinition {
  id: string;
  flowId: string;
}

/** A whole flow file. */
export interface FlowDefinition {
  id: string;
  description?: string;
  /** A word set of its own (flows/messages/<words>/<language>.json), loaded with the flow. */
  words?: string;
  steps: Record<string, StepDefinition>;
}

/** What a step API call answers on success (the server protocol). */
export interface StepResponse {
  challenge?: string;
  parameters?: Record<string, unknown>;
  redirect_to?: string;
  [field: string]: unknown;
}
