/**
 * The fixture recorder (loaded on demand by recorder-switch.ts): watches the screens the app
 * shows, what the user types and does, and every API exchange, keeps the walk in session storage
 * so it survives the trips through the OIDC provider, and offers it as a fixture file. Every value
 * passes the scrubber first, so no secret is ever stored or downloaded.
 */
import { config } from '../config.ts';
import { apiObservers } from '../services/api-client.ts';
import { stepRegistry } from '../engine/step-registry.ts';
import type { FixtureLocation } from './fixture-types.ts';
import { fieldFacts, fieldValue, formField, shownHeadline, shownMessages, spokenName } from './page-reading.ts';
import { createScrubber } from './placeholders.ts';
import { mountRecorderPanel } from './recorder-panel.ts';
import {
  createRecordingState,
  recordAction,
  recordArrival,
  recordRequest,
  recordScreen,
  recordTyping,
  toFixture,
  type RecordingState,
} from './recording.ts';
import { createRouteOf } from './route-of.ts';
import { watchScreens } from './screen-watch.ts';
import { PROVIDER_RETURN_QUERY } from './volatile-values.ts';

/**
 * Values the record CLI names before typing them (placeholder -> value), and the values its script wrote itself
 * (kept as written), set on `window` by its init scripts.
 */
type HintedWindow = Window & { ssoRecorderHints?: Record<string, string>; ssoRecorderLiterals?: string[] };

const routeOf = createRouteOf([...stepRegistry.steps.values()], config.basePath, stepRegistry.get(config.notFoundStep).route);
// Looked up live: a flow file loads when its first step shows, and only then does the step say which fields it encrypts.
const stepAt = (route: string) => [...stepRegistry.steps.values()].find((step) => step.route === route);

/** The page's path and query, without the switch that turned the recorder on. */
function here(): FixtureLocation {
  const query = new URLSearchParams(location.search);
  query.delete(config.recorder.query);
  return { path: location.pathname, query: Object.fromEntries(query) };
}

/**
 * A new walk from the page at `landed`. A page the provider sent the browser back to (its address names the
 * interaction) was reached from a client's link, which the server forwarded into the provider before any page loaded:
 * the walk starts at that link, and its first step says where the browser arrived.
 */
function newWalk(landed: FixtureLocation): RecordingState {
  const { [PROVIDER_RETURN_QUERY]: interaction, ...query } = landed.query;
  if (interaction === undefined) return createRecordingState(landed);
  const state = createRecordingState({ path: landed.path, query });
  state.open.arrive = landed;
  return state;
}

/** The walk so far in this tab, if any. */
function saved(): RecordingState | undefined {
  const text = sessionStorage.getItem(config.recorder.walkKey);
  return text ? (JSON.parse(text) as RecordingState) : undefined;
}

/** Starts recording on this page: a new walk when `fresh`, else the tab's walk goes on. Returns the stop function. */
export function startRecorder(options: { fresh: boolean }): () => void {
  const previous = options.fresh ? undefined : saved();
  if (!previous) {
    // A recording starts from a clean tab: no cached client name, no values from an earlier walk.
    localStorage.removeItem(config.clientInfo.storageKey);
    sessionStorage.removeItem(config.submittedStorageKey);
    sessionStorage.removeItem(config.draftStorageKey);
  }
  const scrubber = createScrubber({
    origin: location.origin,
    hints: () => (window as HintedWindow).ssoRecorderHints ?? {},
    literals: () => (window as HintedWindow).ssoRecorderLiterals ?? [],
    addresses: previous?.addresses,
  });
  const state = previous ?? newWalk(scrubber.scrub(here()));
  if (previous) recordArrival(state, scrubber.scrub(here()), (route) => stepAt(route)?.navigate !== undefined);
  const root = document.getElementById('root') ?? document.body;

  const fixture = () => {
    const ending = { messages: messages(), headline: headline(), left: false };
    const walk = toFixture(state, ending, `Recorded in the browser from ${state.start.path}.`);
    const flow = stepAt(walk.steps[0]?.route ?? '')?.flowId ?? 'flow';
    return { name: `${flow}-${new Date().toISOString().slice(0, 16).replace(/:/g, '-')}.json`, json: `${JSON.stringify(walk, null, 2)}\n` };
  };
  const panel = mountRecorderPanel(fixture);
  const save = () => {
    state.addresses = scrubber.addresses();
    sessionStorage.setItem(config.recorder.walkKey, JSON.stringify(state));
    const requests = [...state.steps, state.open].reduce((total, step) => total + step.requests.length, 0);
    panel.update(`${state.steps.length + 1} steps, ${requests} requests`);
  };

  /** The recorded values of the typed fields on show. */
  const inputs = (fields: readonly string[]): Record<string, string> => {
    const encrypted = stepAt(state.open.route ?? '')?.call?.encrypt ?? [];
    return Object.fromEntries(
      fields.flatMap((name) => {
        const field = formField(Array.from(root.querySelectorAll('[name]')).find((element) => element.getAttribute('name') === name) ?? null, root);
        return field ? [[name, scrubber.field(fieldFacts(field, encrypted), fieldValue(field, root))]] : [];
      }),
    );
  };
  const messages = () => scrubber.scrub(shownMessages(root));
  const headline = () => scrubber.scrub(shownHeadline(root));

  const onInput = (event: Event) => {
    const field = panel.owns(event.target) ? undefined : formField(event.target, root);
    if (!field) return;
    recordTyping(state, field.name);
    save();
  };
  const onSubmit = (event: SubmitEvent) => {
    if (!(event.target instanceof HTMLFormElement) || !root.contains(event.target)) return;
    const button = event.submitter ?? event.target.querySelector('[type="submit"]');
    recordAction(state, { type: 'submit', label: button ? spokenName(button) : '' }, inputs, messages(), headline());
    save();
  };
  const onClick = (event: MouseEvent) => {
    // A step's action (its own call, going back, the frame's "← Back" too, copying what the screen shows) is a button
    // marked as one; other plain buttons (show the password) only change how the screen looks.
    const target = event.target instanceof Element ? event.target.closest('a[href], button[data-step-action]') : null;
    if (!target || !root.contains(target) || panel.owns(target) || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const type = target instanceof HTMLButtonElement ? 'button' : 'link';
    recordAction(state, { type, label: spokenName(target) }, inputs, messages(), headline());
    save();
  };

  const stopScreens = watchScreens((path, title) => {
    recordScreen(state, routeOf(path), title);
    save();
  });
  const stopApi = apiObservers.add((request) => {
    const { method, path, params, body } = request;
    const query = params && Object.keys(params).length > 0 ? { query: { ...params } } : {};
    const exchange = recordRequest(state, scrubber.scrub({ method, path, ...query, ...(body === undefined ? {} : { body }) }));
    save();
    return (outcome) => {
      exchange.response = scrubber.scrub({ status: outcome.status ?? 0, ...(outcome.body === undefined ? {} : { body: outcome.body }) });
      save();
    };
  });
  document.addEventListener('input', onInput, true);
  document.addEventListener('submit', onSubmit, true);
  document.addEventListener('click', onClick, true);
  save();

  return () => {
    stopScreens();
    stopApi();
    document.removeEventListener('input', onInput, true);
    document.removeEventListener('submit', onSubmit, true);
    document.removeEventListener('click', onClick, true);
    panel.remove();
  };
}
