/**
 * The shape of a flow file (flows/*.json): the flow and its steps. Generated from schemas/flow.schema.json by npm run contract:generate.
 * Do not edit: change the meta-schema and run the command (npm run flows:check reports this file when it is stale).
 */
import type { Examples, Form } from './form.ts';
import type { Action, BackToApp, Call, Events, Guard, Link, Rule, Variant } from './moves.ts';
import type { ChallengeKind, FieldPath, MessageKey, TitleKeys, ValueSources } from './values.ts';

/**
 * A flow maps server challenge kinds to steps. Each step is a screen: route, title, headline, an optional form, the API call it makes, analytics events and next-step rules.
 */
export interface FlowDefinition {
  /**
   * The meta-schema's path, for editors.
   */
  $schema?: string;
  /**
   * The flow's name, the same as its file name (login.json holds the flow login).
   */
  id: string;
  /**
   * What it is for, in a sentence or two, for the people who edit flows.
   */
  description?: string;
  /**
   * A word set of its own, flows/messages/<words>/<language>.json, for words only this flow names: fetched alongside the flow's file rather than carried by the login screen's download (every flow's but the login screen's and the error pages'). Its keys are checked like the catalogues'.
   */
  words?: string;
  /**
   * step id -> step. A step id is unique across every flow, so rules and links of any flow can name it.
   */
  steps: {
    [k: string]: Step;
  };
}
/**
 * One screen: its route and title, its words, an optional form and the call it makes, links and actions, analytics events, and the rules that pick the next step.
 *
 * This interface was referenced by `FlowDefinition`'s JSON-Schema
 * via the `definition` "step".
 */
export interface Step {
  /**
   * What it is for, in a sentence or two, for the people who edit flows.
   */
  description?: string;
  /**
   * The challenge kinds this step answers: the app shows it when the server answers one of them and no `next` rule of the step that made the call holds. A challenge kind belongs to exactly one step.
   */
  challenges?: ChallengeKind[];
  /**
   * Challenges at which the server also admits this step's calls, though the step does not claim them: a step reached by a link or its address rather than by the server's answer (register, reached from login while the sign-in waits at LOGIN_REQUIRED).
   */
  admits?: ChallengeKind[];
  /**
   * API error codes (contract/error-codes.ts) an entry call may fail with that this step shows instead of the error step: a used or finished sign-in gets its own honest screen. An error code belongs to at most one step; a claiming step with an `init` makes that call at once.
   */
  errors?: string[];
  guard?: Guard;
  /**
   * Path under /auth/; :name marks a parameter, a trailing ? an optional one.
   */
  route: string;
  /**
   * Other paths that render this step too (the spec's recover-password shares forgot-password's screen). Navigation always uses `route`.
   */
  aliases?: string[];
  /**
   * Fixed values of the route's `:name` segments, in place of the answer's parameters of that name: `delivery_destination: sms` keeps a phone number or an email address (even masked) out of the address bar, history and logs.
   */
  routeValues?: {
    [k: string]: string;
  };
  /**
   * The document title, in the spec's words.
   */
  title: string;
  titleKeys: TitleKeys;
  headline?: MessageKey;
  body?: MessageKey;
  /**
   * The line naming the client app above the headline, `{client}` its name: a message key (by default `app.signingInTo`, "Signing in to …"), or false where no such line is true (terms, failures, a finished sign-up).
   */
  clientBanner?: MessageKey | false;
  /**
   * The frame's "← Back" button, shown while the browser has an earlier page of the app to go back to; false on a step that cannot be undone, where going back could only find the sign-in past the screen before (the recovery codes a first second factor just made).
   */
  backButton?: boolean;
  /**
   * Headed paragraphs under the body, for a page of words such as the built-in help page.
   */
  sections?: {
    headline: MessageKey;
    body: MessageKey;
  }[];
  /**
   * Values for the `{name}` placeholders of the step's words, from value sources, in place of the answer's parameter of the same name: the code screen of registration names the address the person just typed, not the masked one the server repeats.
   */
  placeholders?: {
    [k: string]: ValueSources;
  };
  form?: Form;
  init?: Call;
  initFailure?: MessageKey;
  /**
   * A step that starts a client app's sign-in, entered with no client app named (no client_id, interaction or invitation: a mail's link, the help page, an old address), belongs to the product's own account page: the browser goes there instead of making the `init` call, and the account page signs in as a client of the provider like any other.
   */
  withoutClient?: {
    /**
     * Fixed query values the account page's own sign-in carries (`prompt: create` opens the register screen).
     */
    query?: {
      [k: string]: string;
    };
    /**
     * Page query values passed on to that sign-in (the email typed on the screen before).
     */
    carry?: string[];
  };
  /**
   * The step's form is guarded by the bot check when it is switched on (src/config.ts botCheck, server BOT_CHECK_SECRET): the widget's token goes with the submit as botCheckToken and the server verifies it.
   */
  botCheck?: boolean;
  call?: Call;
  navigate?: FieldPath;
  backToApp?: BackToApp;
  /**
   * A plain-text file in public/legal/ shown as the step's text, paragraph by paragraph; operators replace the file (in dist/web/legal/ after a build) to change it.
   */
  document?: string;
  /**
   * Links shown under the form.
   */
  links?: Link[];
  events?: Events;
  /**
   * Buttons that make a call without leaving the step.
   */
  actions?: Action[];
  /**
   * A panel from the panel registry (src/ui/panels/registry.ts), loaded on demand and shown with the answer's parameters: above the form, or below a form without a button of its own (whose choices go with the panel's answer, so they come first); a panel may submit the step's call itself (the passkey ceremony).
   */
  panel?: 'totp-setup' | 'passkey' | 'passkey-autofill' | 'recovery-codes';
  /**
   * name -> a call the step's panel makes itself, admitted like the step's own calls (the passkey autofill asks for a challenge, then sends the browser's answer, whose reply moves the flow on like a submit's).
   */
  panelCalls?: {
    [k: string]: Call;
  };
  /**
   * Read top to bottom; the first whose `when` holds for the answer that led here applies.
   */
  variants?: Variant[];
  /**
   * Where the answer of the step's call leads, read top to bottom; when no rule holds, the step claiming the answer's challenge shows, else the error step.
   */
  next?: Rule[];
  examples?: Examples;
  /**
   * An end screen the app shows by itself (failures, unknown addresses, unbuilt challenges): it needs no link in or out; the app adds a way back to the start.
   */
  terminal?: boolean;
}
