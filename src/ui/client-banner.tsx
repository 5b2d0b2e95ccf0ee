/** The line naming the client app above a step ("Signing in to {client}"), worded by the step, when the app is known. */
import { t } from '../services/messages.ts';
import { useClientName } from './use-client-name.ts';

/** The message key used when a step names none. */
const DEFAULT_CLIENT_BANNER = 'app.signingInTo';

/** Props of the client banner. */
export interface ClientBannerProps {
  clientId: string | null;
  /** A client name the server already sent with the step (its `parameters.client_name`). */
  knownName?: string;
  /** The line's message key, `{client}` the app's name. */
  text?: string;
}

/** Renders the client line, or nothing until a name is known. */
export function ClientBanner({ clientId, knownName, text = DEFAULT_CLIENT_BANNER }: ClientBannerProps) {
  const looked = useClientName(clientId);
  const client = looked ?? knownName;
  if (!client) return null;
  return <p className="client-banner">{t(text, { client })}</p>;
}
