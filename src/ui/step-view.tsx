/**
 * The one renderer for every step: headline, body, the step's form, its error alert, busy state
 * and links. It reads only the step's data, never which step or challenge it is.
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Link } from 'wouter';
import { applyVariants, variantKey } from '../../contract/step-variants.ts';
import { config } from '../config.ts';
import { isRetryable, needsRestart } from '../../contract/error-codes.ts';
import { track } from '../services/analytics.ts';
import { apiErrorText } from '../services/api-error-text.ts';
import { resolveChoices } from '../engine/choices.ts';
import { erroredField } from '../engine/field-errors.ts';
import { hiddenFields, withoutHidden } from '../engine/hidden-fields.ts';
import type { Step } from '../engine/flow-types.ts';
import { stepRegistry } from '../engine/step-registry.ts';
import { t, type MessageParams } from '../services/messages.ts';
import { readPath } from '../../contract/read-path.ts';
import { takeBotCheckToken } from '../services/bot-check-token.ts';
import { activeFlags } from '../services/feature-flags/active-flags.ts';
import { buildStepPath, wordingRouteParams } from '../engine/routes.ts';
import { shownLinks, stepLinkHref } from '../engine/step-links.ts';
import { resolveValues } from '../engine/value-sources.ts';
import { readDraft, writeDraft } from '../state/form-drafts.ts';
import { submittedValuesAtom } from '../state/submitted-values-atom.ts';
import { BackToAppButton } from './back-to-app-button.tsx';
import { ClientBanner } from './client-banner.tsx';
import { useLanguage } from './language-preference.ts';
import { useDocumentTitle } from './use-document-title.ts';
import { PageLayout } from './page-layout.tsx';
import { Spinner } from './spinner.tsx';
import { StepForm, type FormValues } from './step-form.tsx';
import { StepActionList } from './step-action-list.tsx';
import { StepLinkList } from './step-link-list.tsx';
import { StartAgainLink } from './start-again-link.tsx';
import { panelFor, prefetchPanel } from './panels/registry.ts';
import { useStepFlow, type StepFlow } from './use-step-flow.ts';
import { dateLocale } from '../services/date-locale.ts';
import { skipEndedSignInEntries } from './ended-sign-in-history.ts';

/** Props of a step view. */
export interface StepViewProps {
  step: Step;
  /** Values of the route's `:name` segments, decoded. */
  params?: Readonly<Record<string, string | undefined>>;
}

// Only the few steps that show a document load it. Actions ("Send a new code") are not lazy: they show with the form.
const StepDocument = lazy(() => import('./step-document.tsx'));
// Built in only when the bot check is switched on (VITE_BOT_CHECK), so the default login download does not carry it.
/** The field a bot-checked call carries the widget's token in (server/api/step-guard.ts reads it). */
const BOT_CHECK_FIELD = 'botCheckToken';
const BotCheck = import.meta.env.VITE_BOT_CHECK ? lazy(() => import('./services/bot-check.tsx')) : undefined;

/** The id of a step's error message above its form, which the form's fields name in aria-describedby. */
const STEP_ERROR_ID = 'step-error';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A placeholder's text: a timestamp the server sent (such as when a code went out) reads as the user's local time, "10:42". */
function placeholderText(value: string): string {
  if (!ISO_TIMESTAMP.test(value)) return value;
  return new Date(value).toLocaleTimeString(dateLocale(), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/** The string and number values of a record, usable as message placeholders. */
function placeholderValues(source: Readonly<Record<string, unknown>> | undefined): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(source ?? {})) {
    if (typeof value === 'string') values[name] = placeholderText(value);
    else if (typeof value === 'number') values[name] = value;
  }
  return values;
}

/**
 * Renders a full step with its flow state, as the variants the answer that led here picks. A change of variant
 * (setting up a factor, then its phone number) starts a fresh form.
 */
export function StepView({ step, params }: StepViewProps) {
  const flow = useStepFlow(step);
  const response = flow.context?.response;
  // The flags in force (loaded ones once they arrive), as the flow controller reads them.
  const flags = activeFlags;
  const shown = applyVariants(step, response, flags);
  // Here, not in the screen below: a new variant (after a resend) is the same screen, seen once.
  useDocumentTitle(shown.title, shown.titleKeys);
  useEffect(() => {
    if (shown.events?.view) track(shown.events.view);
  }, [shown.events?.view]);
  // An end screen stands for every history entry of its sign-in: one Back or Forward passes them all.
  useEffect(() => {
    if (step.terminal && !flow.entering) skipEndedSignInEntries();
  }, [step.terminal, flow.entering]);
  return <StepScreen key={variantKey(step, response, flags)} step={shown} params={params} flow={flow} />;
}

/** One step's screen: words, panel, form, actions and links. `initialValues` fills its form at first (the flow studio's examples). */
export function StepScreen({ step, params, flow, initialValues }: StepViewProps & { flow: StepFlow; initialValues?: FormValues }) {
  // Re-render every text of the step when the user switches language.
  const language = useLanguage();
  const submitted = useAtomValue(submittedValuesAtom)[step.flowId];
  const parameters = flow.context?.response?.parameters;
  const failure = flow.context;
  // A time in the error's values (when another code may be sent) reads as the user's local time, as in the steps' words.
  const errorParams = failure?.errorParams && Object.fromEntries(Object.entries(failure.errorParams).map(([name, value]) => [name, placeholderText(value)]));
  const error = failure?.error === undefined ? undefined : apiErrorText(failure.error, failure.errorCode, errorParams);
  const placeholders: MessageParams = {
    ...placeholderValues(parameters),
    ...placeholderValues(wordingRouteParams(step, params)),
    ...resolveValues(step.placeholders, { query: flow.query, parameters, submitted }),
  };
  // Prefill follows its sources until the user types; from then on the form holds what was typed.
  const prefill = useMemo(
    () => resolveValues(step.form?.prefill, { query: flow.query, parameters, submitted }),
    [step.form?.prefill, flow.query, parameters, submitted],
  );
  // `language` is a dependency so the choices' words follow a switch; resolveChoices reads the catalogue through t().
  const choices = useMemo(() => resolveChoices(step.form?.choices, parameters), [step.form?.choices, parameters, language]);
  const response = flow.context?.response;
  const hidden = useMemo(() => hiddenFields(step.form?.hide, response, activeFlags), [step.form?.hide, response]);
  // A server error naming a field of the form (a password that breaks a rule) shows on that field, not above the form.
  const errorField = error === undefined ? undefined : erroredField(step.form, failure?.errorParams, hidden);
  const fieldError = useMemo(() => (errorField && error ? { field: errorField, message: error, failure } : undefined), [errorField, error, failure]);
  const formAlert = step.form !== undefined && error !== undefined && fieldError === undefined;
  // A draft kept when the form's tab went to a page beside it (the terms) and came Back holds what was typed.
  const [edited, setEdited] = useState<FormValues | undefined>(() => initialValues ?? readDraft(step));
  const edit = (next: FormValues) => {
    setEdited(next);
    writeDraft(step, next);
  };
  const values = edited ?? prefill;
  const links = shownLinks(step.links, response, activeFlags).flatMap((link) => {
    const inputs = { query: flow.query, parameters, submitted, values, carried: flow.carried, routeParams: params };
    const href = stepLinkHref(link, stepRegistry.get(link.go), inputs);
    return href ? [{ link, href }] : [];
  });
  // A screen with no form, no onward link and no navigation is a dead end: offer a way back.
  const backToAppUrl = step.backToApp ? readPath(flow.context?.response, step.backToApp.navigate) : undefined;
  // "Try again" only where trying again may work: a failure of the network or a passing one of the server. A missing
  // page, an unknown app or an ended sign-in stays the same, so those keep the frame's Back and help links instead.
  const messageScreen =
    !step.form && !step.navigate && !backToAppUrl && links.length === 0 && !step.actions?.length && error !== undefined && isRetryable(failure?.errorCode);
  // A step without a form is a message screen: a failure passed to it is its message.
  const body = !step.form && error ? error : step.body ? t(step.body, placeholders) : undefined;
  const knownName = typeof parameters?.client_name === 'string' ? parameters.client_name : undefined;
  // One component for the screen's life: one that arrives meanwhile must not remount the panel (a passkey request).
  const Panel = useMemo(() => (step.panel ? panelFor(step.panel) : undefined), [step.panel]);
  useEffect(() => {
    for (const sibling of stepRegistry.steps.values()) if (sibling.flowId === step.flowId && sibling.panel) prefetchPanel(sibling.panel);
  }, [step.flowId]);
  // A form without a button of its own holds choices that go with the panel's answer (trust this device): it comes
  // first, so the person settles them before the panel's button, as on any form.
  const formFeedsPanel = Panel !== undefined && step.form !== undefined && step.form.submit === undefined;
  const panelView = Panel && !flow.entering ? (
    // No spinner: a panel may show nothing at all (the passkey autofill), and the form is usable meanwhile. The mark
    // tells a walk on a live server (scripts/fixtures) that the panel's code is still on its way.
    <Suspense fallback={<span hidden data-panel-loading="" />}>
      <Panel
        parameters={parameters}
        busy={flow.submitting}
        // The step's form, if any, holds choices that go with the panel's answer (trust this device).
        submit={(answer) => void flow.submit(step.form ? { ...withoutHidden(values, hidden), ...answer } : answer)}
        autoStart={!step.form}
        calls={step.panelCalls}
        query={flow.query}
        submitCall={(call, values) => void flow.submitCall(call, values)}
      />
    </Suspense>
  ) : null;
  const formView = step.form && !flow.entering ? (
    <StepForm
      form={step.form}
      values={values}
      onChange={edit}
      busy={flow.submitting}
      choices={choices}
      errorMessageId={formAlert ? STEP_ERROR_ID : undefined}
      fieldError={fieldError}
      hidden={hidden}
      onSubmit={(submittedValues) =>
        void flow.submit(BotCheck && step.botCheck ? { ...submittedValues, [BOT_CHECK_FIELD]: takeBotCheckToken() } : submittedValues)
      }
    />
  ) : null;

  return (
    <PageLayout back={step.backButton !== false}>
      {step.clientBanner === false ? null : <ClientBanner clientId={flow.query.get('client_id')} knownName={knownName} text={step.clientBanner} />}
      {step.headline ? <h1 className="headline">{t(step.headline, placeholders)}</h1> : null}
      {body ? (
        <p className={error && !step.form ? 'body alert' : 'body'} role={error && !step.form ? 'alert' : undefined}>
          {body}
        </p>
      ) : null}
      {step.sections?.map((section) => (
        <section key={section.headline} className="step-section">
          <h2 className="step-section-headline">{t(section.headline, placeholders)}</h2>
          <p className="body">{t(section.body, placeholders)}</p>
        </section>
      ))}
      {formAlert ? (
        <div className="alert" role="alert" id={STEP_ERROR_ID}>
          {error}
        </div>
      ) : null}
      {formFeedsPanel ? formView : null}
      {panelView}
      {formFeedsPanel ? null : formView}
      {BotCheck && (step.botCheck || step.actions?.some((action) => action.botCheck)) && !flow.entering ? (
        <Suspense fallback={null}>
          <BotCheck />
        </Suspense>
      ) : null}
      {flow.entering || step.navigate ? <Spinner /> : null}
      {step.document ? (
        <Suspense fallback={<Spinner />}>
          <StepDocument file={step.document} />
        </Suspense>
      ) : null}
      {step.backToApp ? <BackToAppButton backToApp={step.backToApp} response={flow.context?.response} /> : null}
      {step.actions?.length && !flow.entering ? (
        <StepActionList
          actions={step.actions}
          response={flow.context?.response}
          busy={flow.submitting}
          onAct={(action) => {
            const values = resolveValues(action.values, { query: flow.query, parameters, submitted });
            void flow.act(action, BotCheck && action.botCheck ? { ...values, [BOT_CHECK_FIELD]: takeBotCheckToken() } : values);
          }}
        />
      ) : null}
      {links.length > 0 && !flow.entering ? <StepLinkList links={links} response={flow.context?.response} onKeepAnswer={flow.handOver} /> : null}
      {error !== undefined && needsRestart(failure?.errorCode) ? <StartAgainLink query={flow.query} /> : null}
      {messageScreen ? (
        <Link className="retry-link" href={`${buildStepPath(stepRegistry.get(config.entryStep)) ?? '/'}${flow.carried}`}>
          {t('error.retry')}
        </Link>
      ) : null}
    </PageLayout>
  );
}
