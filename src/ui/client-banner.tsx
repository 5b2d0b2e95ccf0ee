/** "Signing in to {client}" above a step, when the client app is known. */
import { t } from '../services/messages.ts';
import { useClientName } from './use-client-name.ts';

/** Props of the client banner. */
export interface ClientBannerProps {
  clientId: string | null;
  /** A client name the server already sent with the step (its `parameters.client_name`). */
  knownName?: string;
}

/** Renders the client line, or nothing until a name is known. */
export function ClientBanner({ clientId, knownName }: ClientBannerProps) {
  const looked = useClientName(clientId);
  const client = looked ?? knownName;
  if (!client) return null;
  return <p className="client-banner">{t('app.signingInTo', { client })}</p>;
}
