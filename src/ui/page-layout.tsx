/**
 * The page frame around every step: logo, card, a back button when there is history to go back
 * to (unless the step says it cannot be undone), help link, language picker and copyright footer, plus the live
 * region that announces the loading state.
 */
import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { config } from '../config.ts';
import { t } from '../services/messages.ts';
import { loadingAtom } from '../state/loading-atom.ts';
import { LanguagePicker } from './language-picker.tsx';
import { useCanGoBack } from './use-can-go-back.ts';

/**
 * The logo's markup as the prerendered login screen carries it (scripts/prerender.ts puts public/logo.svg in its box,
 * so it is drawn with the page's first paint), read before the app hydrates that screen and kept, so hydration and
 * every later render leave it as it is. Empty on any other page: the stylesheet draws the logo as the box's background.
 */
const prerenderedLogo = globalThis.document?.querySelector('.brand-logo')?.innerHTML;

/** What the frame holds: the screen, and whether it offers "← Back" at all (a step's `backButton`). */
interface PageLayoutProps {
  children: ReactNode;
  /** False on a screen that cannot be undone: no "← Back", whatever the history holds. */
  back?: boolean;
}

/** Renders `children` inside the branded card. */
export function PageLayout({ children, back = true }: PageLayoutProps) {
  const loading = useAtomValue(loadingAtom);
  const showBack = useCanGoBack() && back;
  return (
    <div className="page">
      <main className="card" aria-busy={loading}>
        <header className="brand">
          {showBack ? (
            // A step action like any other: a recorded walk keeps the press, and its replay presses it again.
            <button type="button" data-step-action className="back-button" onClick={() => window.history.back()}>
              <span aria-hidden="true">←</span> {t('app.back')}
            </button>
          ) : null}
          <span className="brand-logo" role="img" aria-label={t('app.name')} dangerouslySetInnerHTML={prerenderedLogo ? { __html: prerenderedLogo } : undefined} />
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
