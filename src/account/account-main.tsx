/** The account page's entry, a chunk of its own: the login screen's download never carries it. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AccountApp } from './account-app.tsx';
import './account.css';

/** Draws the account page into `root`, replacing whatever was there. */
export function mountAccountPage(root: HTMLElement): void {
  root.replaceChildren();
  createRoot(root).render(
    <StrictMode>
      <AccountApp />
    </StrictMode>,
  );
}
