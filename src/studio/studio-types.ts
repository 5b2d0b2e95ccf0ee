/**
 * What the studio's page reads from its dev server (scripts/studio/): every flow and step of the compiled flow graph,
 * each step's example inputs and validation messages, the flows:check problems beside the step they concern, and the
 * flow diagrams.
 */

/** One flows:check problem, as `npm run flows:check` prints it. */
export interface StudioProblem {
  file: string;
  path: string;
  message: string;
  fix: string;
}

/** One way the step's form shows: its example inputs, or values it refuses with the message they show. */
export interface StudioSample {
  /** `example` (the valid example, or an empty form when the step declares none), `invalid-<n>`, `empty-submit`. */
  id: string;
  label: string;
  values: Readonly<Record<string, unknown>>;
  /** Whether the frame presses the form's submit button, so the renderer shows its validation messages. */
  submit: boolean;
  /** The message key the flow says these values are refused with. */
  expected?: string;
}

/** A form's validation message: which field, which rule, and its words in each language. */
export interface StudioValidationMessage {
  field: string;
  rule: string;
  key: string;
  words: Readonly<Record<string, string>>;
}

/** One step, as the studio lists it. */
export interface StudioStep {
  id: string;
  flow: string;
  route: string;
  /** The step's headline, in English (its key when the catalogue has no words for it). */
  headline: string;
  hasForm: boolean;
  /** Steps its answer may lead to, and steps its links go to (the compiled flow graph). */
  leadsTo: readonly string[];
  linksTo: readonly string[];
  samples: readonly StudioSample[];
  validation: readonly StudioValidationMessage[];
  problems: readonly StudioProblem[];
}

/** One flow file. */
export interface StudioFlow {
  id: string;
  file: string;
  description: string;
  steps: readonly StudioStep[];
  /** Problems of the flow's file that concern no one step. */
  problems: readonly StudioProblem[];
  /** The flow diagram (scripts/flows-diagram), whose step boxes are `<g id="step-<id>">`. */
  diagram: string;
  /** The committed fixtures of the flow (tests/fixtures/flows/<flow>/), by case name. */
  fixtures: readonly string[];
  /** The walk scripts of the flow (tests/fixtures/walks/<flow>/), by case name. */
  walks: readonly string[];
}

/** The whole studio state. */
export interface StudioState {
  flows: readonly StudioFlow[];
  /** Problems of files no flow owns (a catalogue key no step names, a form schema). */
  otherProblems: readonly StudioProblem[];
  /** The languages the catalogues speak, English first. */
  languages: readonly string[];
  /** When the state was read (ms since the epoch). */
  readAt: number;
}

/** One screen a walk reached. */
export interface StudioScreen {
  url: string;
  title: string;
  headline: string;
  /** What the walk did on it before going on. */
  did: string;
  /** A PNG, as a data: URL. */
  image: string;
}

/** The outcome of "Walk this flow". */
export interface StudioWalk {
  flow: string;
  walk: string;
  screens: readonly StudioScreen[];
  /** Set when the walk could not go on. */
  error?: string;
}

/** The outcome of "Replay fixtures": one line per fixture, as `npm run replay` prints it. */
export interface StudioReplay {
  flow: string;
  lines: readonly { fixture: string; passed: boolean; skipped: boolean; text: string }[];
  /** The replay report's address in the studio, when a fixture diverged. */
  report?: string;
  error?: string;
}

/** The dev server's custom HMR event: a flow, schema or word file was saved (the frames render it again). */
export const STUDIO_FILES_EVENT = 'studio:files';
/** The dev server's custom HMR event: the state (problems, diagrams) is read again after a save. */
export const STUDIO_CHANGED_EVENT = 'studio:changed';
