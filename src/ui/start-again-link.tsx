/**
 * "Start again" for a failure that leaves the sign-in nowhere to go on to (a step the sign-in has moved past, an ended
 * sign-in): a plain link naming the app, which the server sends to the app's own sign-in start (its initiate_login_uri),
 * so the app begins a fresh request; with no app named, the login screen of the account page.
 */
import { t } from '../services/messages.ts';

/** The address that starts the sign-in again for the page query `query`. */
export function startAgainHref(query: URLSearchParams): string {
  const clientId = query.get('client_id');
  return clientId ? `/auth/login?${new URLSearchParams({ client_id: clientId })}` : '/auth/login';
}

/** A full page load, not an in-app move: the server decides where the fresh start goes. */
export function StartAgainLink({ query }: { query: URLSearchParams }) {
  return (
    <div className="step-links">
      <a className="button-primary button-link start-again" href={startAgainHref(query)}>
        {t('error.startAgain')}
      </a>
    </div>
  );
}
