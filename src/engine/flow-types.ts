/**
 * The web app's names for the parts of a flow file. The shape itself is generated from schemas/flow.schema.json into
 * contract/flow-file.ts (npm run contract:generate), so it is written once for the web app, the server and the scripts.
 */

import type * as FlowFile from '../../contract/flow-file.ts';

/** One next rule: go to `go` when `when` holds (or always, without `when`). */
export type NextRule = FlowFile.Rule;
/** An API call a step makes, relative to /api/sso/v3/. */
export type StepCall = FlowFile.Call;
/** Where a value comes from: exactly one key (the meta-schema enforces it). */
export type ValueSource = FlowFile.ValueSource;
/** One source, or a list tried in order. */
export type ValueSources = FlowFile.ValueSources;
/** A link to another step, shown under the step's form. */
export type StepLink = FlowFile.Link;
/** A button that makes a call without leaving the step (ask for a new code); its answer goes through `next`. */
export type StepAction = FlowFile.Action;
/** A step's example inputs. */
export type StepExamples = FlowFile.Examples;
/** The step as shown after an answer for which `when` holds: the keys given replace the step's own. */
export type StepVariant = FlowFile.Variant;
/** Where a step may be entered from, and where it sends the user otherwise. */
export type StepGuard = FlowFile.Guard;
/** Where a step that starts a client app's sign-in goes when entered with no client app named: the account page. */
export type WithoutClient = NonNullable<FlowFile.Step['withoutClient']>;
/** A button that leaves the app for the URL in an answer field. */
export type StepBackToApp = FlowFile.BackToApp;
/** The form of a step: a JSON Schema in schemas/forms/ plus its rjsf ui schema. */
export type StepForm = FlowFile.Form;
/** Where a field's choices come from: a list in the parameters, and which item keys are value and label. */
export type ChoiceSource = NonNullable<FlowFile.Form['choices']>[string];
/** Analytics event names a step fires. */
export type StepEvents = FlowFile.Events;
/** A headed paragraph of a step: message keys. */
export type StepSection = NonNullable<FlowFile.Step['sections']>[number];
/** One screen of a flow, as written in flows/*.json. */
export type StepDefinition = FlowFile.Step;
/** A whole flow file. */
export type FlowDefinition = FlowFile.FlowDefinition;

/** A step together with its id and the flow it belongs to. */
export interface Step extends StepDefinition {
  id: string;
  flowId: string;
}

/** What a step API call answers on success (the server protocol). */
export interface StepResponse {
  challenge?: string;
  parameters?: Record<string, unknown>;
  redirect_to?: string;
  [field: string]: unknown;
}
