/**
 * A step's document: a plain-text file operators replace (public/legal/, served under the app base),
 * shown paragraph by paragraph. Loaded only by the steps that show one.
 */
import { useEffect, useState } from 'react';
import { config } from '../config.ts';
import { t } from '../services/messages.ts';

type Loaded = { state: 'loading' } | { state: 'shown'; paragraphs: string[] } | { state: 'failed' };

/** Fetches and renders `file`. */
export function StepDocument({ file }: { file: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let alive = true;
    fetch(`${config.basePath}/legal/${file}`, { headers: { accept: 'text/plain' } })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const paragraphs = (await response.text()).split(/\r?\n\s*\r?\n/).map((paragraph) => paragraph.trim()).filter(Boolean);
        if (alive) setLoaded({ state: 'shown', paragraphs });
      })
      .catch(() => alive && setLoaded({ state: 'failed' }));
    return () => {
      alive = false;
    };
  }, [file]);
  if (loaded.state === 'loading') return null;
  if (loaded.state === 'failed') {
    return (
      <p className="body alert" role="alert">
        {t('terms.unavailable')}
      </p>
    );
  }
  return (
    <div className="step-document">
      {loaded.paragraphs.map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </div>
  );
}

export default StepDocument;
