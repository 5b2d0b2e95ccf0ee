/** Catches a screen that failed to render: the user gets the generic message, error reporting gets the error. */
import { Component, type ReactNode } from 'react';
import { t } from '../services/messages.ts';
import { reportError } from '../services/report-error.ts';

export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    reportError(error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="page">
        <main className="card">
          <p className="body alert" role="alert">
            {t('apiError.server.error')}
          </p>
        </main>
      </div>
    );
  }
}
