/** The button that takes the user back to the client app, to the URL the server answered with. */
import { track } from '../services/analytics.ts';
import type { StepBackToApp, StepResponse } from '../engine/flow-types.ts';
import { t } from '../services/messages.ts';
import { readPath } from '../../contract/read-path.ts';
import { safeNavigationUrl } from '../services/safe-url.ts';

/** Renders the button, or nothing when the answer carries no usable URL (a reload lost it). */
export function BackToAppButton({ backToApp, response }: { backToApp: StepBackToApp; response: StepResponse | undefined }) {
  const url = safeNavigationUrl(readPath(response, backToApp.navigate), window.location.href);
  if (!url) return null;
  return (
    <div className="step-links">
      <a className="button-primary button-link" href={url} onClick={() => backToApp.event && track(backToApp.event)}>
        {t(backToApp.label)}
      </a>
    </div>
  );
}
