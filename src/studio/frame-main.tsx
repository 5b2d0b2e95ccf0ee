/**
 * One frame of the flow studio: a step rendered by the web app's own renderer (StepScreen, rjsf forms), in the
 * language and with the form values its address names, with no server behind it. The step and the words come from
 * the studio's dev server as the files hold them now, and again after every save. `submit=1` presses the form's
 * button once it shows, so the renderer shows its validation messages. The address:
 * /studio/frame?step=<id>&lang=<language>&values=<JSON>&submit=1
 */
import { Component, type ReactNode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { applyVariants } from '../../contract/step-variants.ts';
import type { Step } from '../engine/flow-types.ts';
import { loadLanguage } from '../services/languages.ts';
import { activateCatalogue, currentLanguage } from '../services/messages.ts';
import { activeFlags } from '../services/feature-flags/active-flags.ts';
import { StepScreen } from '../ui/step-view.tsx';
import type { FormValues } from '../ui/step-form.tsx';
import type { StepFlow } from '../ui/use-step-flow.ts';
import { STUDIO_FILES_EVENT } from './studio-types.ts';
import '../ui/theme.css';

/** How often the frame looks for the form's button to press, and for how long. */
const SUBMIT_POLL_MS = 50;
const SUBMIT_WAIT_MS = 10_000;

/** A flow with no server: nothing is entered or sent. */
const stillFlow: StepFlow = {
  context: undefined,
  query: new URLSearchParams(),
  carried: '',
  entering: false,
  submitting: false,
  submit: () => Promise.resolve(),
  act: () => Promise.resolve(),
  handOver: () => undefined,
  submitCall: () => Promise.resolve(),
};

/** Marks the frame ready (the studio's tests and screenshots wait for it). */
function ready(): void {
  document.body.dataset.studioReady = 'true';
}

/** Shows why a step could not render (a panel that needs the server's answer, a link to a step no flow has). */
class FrameBoundary extends Component<{ children: ReactNode }, { error?: string }> {
  override state: { error?: string } = {};

  static getDerivedStateFromError(error: unknown): { error: string } {
    return { error: error instanceof Error ? error.message : String(error) };
  }

  override componentDidUpdate(): void {
    if (this.state.error) ready();
  }

  override render(): ReactNode {
    if (this.state.error === undefined) return this.props.children;
    return (
      <p className="studio-frame-error" role="alert">
        The renderer could not show this step: {this.state.error}
      </p>
    );
  }
}

/** The step with its values, pressing its form's button when asked. */
function StudioFrame({ step, values, submit }: { step: Step; values: FormValues; submit: boolean }) {
  useEffect(() => {
    if (!submit) {
      ready();
      return undefined;
    }
    const started = Date.now();
    const timer = setInterval(() => {
      const button = document.querySelector<HTMLButtonElement>('form.step-form button[type="submit"]');
      if (!button && Date.now() - started < SUBMIT_WAIT_MS) return;
      clearInterval(timer);
      button?.click();
      setTimeout(ready, SUBMIT_POLL_MS);
    }, SUBMIT_POLL_MS);
    return () => clearInterval(timer);
  }, [submit]);
  return <StepScreen step={applyVariants(step, undefined, activeFlags)} flow={stillFlow} initialValues={values} />;
}

/** The form's focus on its first error stays inside the frame: it never scrolls the studio page around it. */
function focusWithoutScrolling(): void {
  const focus = HTMLElement.prototype.focus;
  HTMLElement.prototype.focus = function focusInPlace(this: HTMLElement, options?: FocusOptions) {
    focus.call(this, { ...options, preventScroll: true });
  };
}

/** The step and the language's words as the files hold them now. */
interface FrameData {
  step: Step;
  words: Readonly<Record<string, string>>;
}

async function frameData(stepId: string, language: string): Promise<FrameData> {
  const response = await fetch(`/__studio/frame-data?${new URLSearchParams({ step: stepId, lang: language }).toString()}`, { cache: 'no-store' });
  const body = (await response.json()) as FrameData & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `the studio answered ${response.status}`);
  return body;
}

async function start(root: HTMLElement): Promise<void> {
  focusWithoutScrolling();
  const query = new URLSearchParams(window.location.search);
  const stepId = query.get('step') ?? '';
  const language = query.get('lang') ?? 'en';
  const values = JSON.parse(query.get('values') ?? '{}') as FormValues;
  const mount = createRoot(root);
  let version = 0;
  // Each saved flow or word file renders the step afresh, in place: a new version remounts it (and presses submit again).
  const show = async () => {
    try {
      const { step, words } = await frameData(stepId, language);
      activateCatalogue(language, words);
      document.documentElement.lang = currentLanguage();
      delete document.body.dataset.studioReady;
      version += 1;
      mount.render(
        <FrameBoundary key={version}>
          <StudioFrame step={step} values={values} submit={query.get('submit') === '1'} />
        </FrameBoundary>,
      );
    } catch (error) {
      mount.render(<p className="studio-frame-error" role="alert">{error instanceof Error ? error.message : String(error)}</p>);
      ready();
    }
  };
  await loadLanguage(language);
  await show();
  import.meta.hot?.on(STUDIO_FILES_EVENT, () => void show());
}

const root = document.getElementById('root');
if (root) void start(root);
