/** Renders the whole app at a URL under /auth, as a browser would open it. */
import { render, type RenderResult } from '@testing-library/react';
import { App } from '../../../src/ui/app.tsx';

/** Puts `url` in the address bar and renders the app. */
export function renderAppAt(url: string): RenderResult {
  window.history.replaceState(null, '', url);
  return render(<App />);
}
