/**
 * The page frame around every step: logo, card, help link, language picker and copyright footer,
 * plus the live region that announces the loading state.
 */
import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { config } from '../config.ts';
import { t } from '../core/messages.ts';
import { loadingAtom } from '../state/loading-atom.ts';
import { LanguagePicker } from './language-picker.tsx';

/** Renders `children` inside the branded card. */
export function PageLayout({ children }: { children: ReactNode }) {
  const loading = useAtomValue(loadingAtom);
  return (
    <div className="page">
      <main className="card" aria-busy={loading}>
        <header className="brand">
          <img className="brand-logo" src={`${import.meta.env.BASE_URL}logo.svg`} alt={t('app.name')} width="180" height="40" />
        </header>
        {children}
      </main>
      <footer className="page-footer">
        <a className="help-link" href={config.userGuideUrl} target="_blank" rel="noopener noreferrer">
          {t('app.help')}
        </a>
        <LanguagePicker />
        <p className="copyright">{t('app.copyright', { year: new Date().getFullYear() })}</p>
      </footer>
      <div className="visually-hidden" aria-live="polite">
        {loading ? t('app.loading') : ''}
      </div>
    </div>
  );
}
