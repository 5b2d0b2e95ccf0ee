/** The browser entry: picks the language (and loads the fixture recorder when asked), then mounts the app into #root. */
import { StrictMode } from 'react';
import { ACCOUNT_PAGE } from '../contract/product.ts';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { currentLanguage, DEFAULT_LANGUAGE } from './services/messages.ts';
import { App } from './ui/app.tsx';
import { startLanguage } from './ui/language-preference.ts';
import { startRecorderIfAsked } from './recorder/recorder-switch.ts';
import './ui/theme.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// Rendering after the catalogue is in place spares German readers a flash of English; English needs no wait.
// A recording tab also waits for the fixture recorder, so it sees the very first request.
void Promise.all([startLanguage(), startRecorderIfAsked()]).then(() => {
  // The account page is a chunk of its own, so the login screen's download never carries it.
  if (window.location.pathname.startsWith(ACCOUNT_PAGE.path)) {
    void import('./account/account-main.tsx').then(({ mountAccountPage }) => mountAccountPage(root));
    return;
  }
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // The first screen arrives prerendered in English (scripts/prerender.ts): hydrate it; in another language, render afresh.
  if (root.hasChildNodes() && currentLanguage() === DEFAULT_LANGUAGE) {
    hydrateRoot(root, app);
  } else {
    root.replaceChildren();
    createRoot(root).render(app);
  }
  // Flags, tag tracking, error reporting and toasts load after the first screen, as a chunk of their own.
  setTimeout(() => void import('./ui/services/start-services.ts').then(({ startServices }) => startServices()), 0);
});
