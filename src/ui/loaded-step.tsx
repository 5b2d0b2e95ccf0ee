/**
 * A routed step: shows it at once when its flow file is at hand, else fetches the file first. A file
 * that cannot be fetched shows the error step with a button that tries again by reloading the page:
 * browsers remember a failed module download, so only a fresh page fetches it anew.
 */
import { useEffect, useMemo, useState } from 'react';
import { config } from '../config.ts';
import type { Step } from '../engine/flow-types.ts';
import { stepRegistry } from '../engine/step-registry.ts';
import { t } from '../services/messages.ts';
import { useDocumentTitle } from './use-document-title.ts';
import { PageLayout } from './page-layout.tsx';
import { Spinner } from './spinner.tsx';
import { StepView } from './step-view.tsx';

/** Props of a routed step. */
export interface LoadedStepProps {
  id: string;
  /** The title to show instead of the step's own (a listed route no flow owns yet, the unknown-address page). */
  title?: string;
  params?: Readonly<Record<string, string | undefined>>;
}

type Loading = { id: string; step?: Step; failed?: boolean };

/** The error step's frame with a retry of the download. */
function LoadFailure() {
  const error = stepRegistry.get(config.errorStep);
  useDocumentTitle(error.title, error.titleKeys);
  return (
    <PageLayout>
      {error.headline ? <h1 className="headline">{t(error.headline)}</h1> : null}
      <p className="body alert" role="alert">
        {t('error.chunkLoad')}
      </p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('error.retry')}
      </button>
    </PageLayout>
  );
}

/** Renders step `id`, loading its flow file when needed. */
export function LoadedStep({ id, title, params }: LoadedStepProps) {
  const ready = stepRegistry.loaded(id);
  const [loading, setLoading] = useState<Loading>();
  useEffect(() => {
    if (ready) return;
    let current = true;
    stepRegistry.load(id).then(
      (step) => current && setLoading({ id, step }),
      () => current && setLoading({ id, failed: true }),
    );
    return () => {
      current = false;
    };
  }, [id, ready]);
  const settled = loading?.id === id ? loading : undefined;
  const found = ready ?? settled?.step;
  // One object per step and title: the step's effects (its entry call) key on it.
  const step = useMemo(() => (found && title && title !== found.title ? { ...found, title } : found), [found, title]);
  if (step) return <StepView key={step.id} step={step} params={params} />;
  if (settled?.failed) return <LoadFailure />;
  return (
    <PageLayout>
      <Spinner />
    </PageLayout>
  );
}
