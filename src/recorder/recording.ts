/**
 * The walk being recorded, as plain data the recorder keeps in session storage between pages.
 * A step begins when a screen appears (or when the user acts again on a screen that stayed) and
 * ends with the user's action, the next screen, or the page being left. DOM-free: the recorder
 * feeds it what it reads, already scrubbed of secrets.
 */
import type { Fixture, FixtureAction, FixtureExchange, FixtureLocation, FixtureStep } from './fixture-types.ts';

/** The user's own actions, the ones recorded with the screen's inputs and messages. */
export type UserAction = Extract<FixtureAction, { type: 'submit' | 'button' | 'link' }>;

/** An exchange whose answer may not have arrived yet. */
export type RecordedExchange = Omit<FixtureExchange, 'response'> & { response?: FixtureExchange['response'] };

/** A step as recorded: its exchanges may still be waiting for answers. */
export type RecordedStep = Omit<FixtureStep, 'requests'> & { requests: RecordedExchange[] };

/** The step on screen: what is known of it so far. */
export interface OpenStep {
  arrive?: FixtureLocation;
  sameScreen?: boolean;
  route?: string;
  title?: string;
  /** Fields the user typed in, by name. */
  touched: string[];
  action?: UserAction;
  inputs?: Record<string, string>;
  messages: string[];
  headline?: string;
  requests: RecordedExchange[];
}

/** The whole recording. */
export interface RecordingState {
  start: FixtureLocation;
  steps: RecordedStep[];
  open: OpenStep;
  /** Addresses and volatile ids named so far ([placeholder, value]); not secret, kept so later pages name them alike. */
  addresses: Array<[string, string]>;
}

/** How the recording ends when it is turned into a fixture. */
export interface Ending {
  /** The messages on show now (for the last step). */
  messages: string[];
  /** The headline on show now. */
  headline?: string;
  /** True when the browser has left the app (the last step handed it on). */
  left: boolean;
}

const emptyStep = (from: Partial<OpenStep> = {}): OpenStep => ({ touched: [], messages: [], requests: [], ...from });

/** A new recording of a walk starting at `start`. */
export function createRecordingState(start: FixtureLocation): RecordingState {
  return { start, steps: [], open: emptyStep(), addresses: [] };
}

/** Ends the open step with `action` (its own if the user acted); a step never shown is dropped. */
function close(state: RecordingState, fallback: FixtureAction | undefined): void {
  const { open } = state;
  if (open.route === undefined || open.title === undefined) return;
  const action = open.action ?? fallback;
  const acted = open.action !== undefined;
  const read = acted || !action;
  state.steps.push({
    ...(open.arrive ? { arrive: open.arrive } : {}),
    ...(open.sameScreen ? { sameScreen: true } : {}),
    route: open.route,
    title: open.title,
    // Only a screen the user acted on, or the last one, stays long enough for its messages to mean anything.
    messages: read ? open.messages : [],
    ...(read && open.headline ? { headline: open.headline } : {}),
    ...(acted && open.inputs && Object.keys(open.inputs).length > 0 ? { inputs: open.inputs } : {}),
    ...(action ? { action } : {}),
    requests: open.requests,
  });
}

/** The user does something more on a screen they already acted on: that is a new step on the same screen. */
function continueOnScreen(state: RecordingState): void {
  if (!state.open.action) return;
  const { route, title } = state.open;
  close(state, undefined);
  state.open = emptyStep({ route, title, sameScreen: true });
}

/** The app shows a screen. */
export function recordScreen(state: RecordingState, route: string, title: string): void {
  const { open } = state;
  if (open.title === undefined) {
    Object.assign(open, { route, title });
    return;
  }
  // React's development mode mounts each step twice: the same screen again, untouched, is no new step.
  if (!open.action && open.route === route && open.title === title && open.touched.length === 0) return;
  close(state, { type: 'auto' });
  state.open = emptyStep({ route, title });
}

/** The browser came back into the app at `location`; `navigates` says whether a route hands the browser on. */
export function recordArrival(state: RecordingState, location: FixtureLocation, navigates: (route: string) => boolean): void {
  const route = state.open.route;
  close(state, route !== undefined && navigates(route) ? { type: 'leave' } : { type: 'reload' });
  state.open = emptyStep({ arrive: location });
}

/** The user typed in `field`. */
export function recordTyping(state: RecordingState, field: string): void {
  continueOnScreen(state);
  if (!state.open.touched.includes(field)) state.open.touched.push(field);
}

/** The user acted; `inputs` reads the typed fields' recorded values, `messages` and `headline` what was on show. */
export function recordAction(
  state: RecordingState,
  action: UserAction,
  inputs: (fields: readonly string[]) => Record<string, string>,
  messages: string[],
  headline?: string,
): void {
  continueOnScreen(state);
  Object.assign(state.open, { action, inputs: inputs(state.open.touched), messages, headline });
}

/** A request starts; fill in the returned exchange's `response` when it ends. */
export function recordRequest(state: RecordingState, request: Omit<RecordedExchange, 'response'>): RecordedExchange {
  const exchange: RecordedExchange = { ...request };
  state.open.requests.push(exchange);
  return exchange;
}

const answered = (steps: readonly RecordedStep[]): FixtureStep[] =>
  steps.map((step) => ({
    ...step,
    requests: step.requests.flatMap(({ response, ...request }) => (response ? [{ ...request, response }] : [])),
  }));

/** The recording as a fixture, with the step on screen as the last one. Leaves `state` as it was. */
export function toFixture(state: RecordingState, ending: Ending, description: string): Fixture {
  const copy: RecordingState = { ...state, steps: [...state.steps], open: { ...state.open } };
  if (ending.left) {
    close(copy, { type: 'leave' });
  } else {
    continueOnScreen(copy);
    copy.open.messages = ending.messages;
    copy.open.headline = ending.headline;
    close(copy, undefined);
  }
  return {
    $schema: '../../../../schemas/fixture.schema.json',
    description,
    start: state.start,
    steps: answered(copy.steps),
  };
}
