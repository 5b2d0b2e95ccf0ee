/** A busy indicator with an accessible name. */
import { t } from '../services/messages.ts';

/** Renders a spinner labelled with the loading message. */
export function Spinner() {
  return (
    <div className="spinner" role="status">
      <span className="spinner-ring" aria-hidden="true" />
      <span className="visually-hidden">{t('app.loading')}</span>
    </div>
  );
}
