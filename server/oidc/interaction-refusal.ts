import type Provider from 'oidc-provider';
import { InteractionNotFoundError } from './provider.ts';

/** A standard OpenID Connect error the provider sends the client app instead of a sign-in. */
export interface InteractionRefusal {
  error: 'unmet_authentication_requirements';
  description: string;
}

/**
 * Ends the interaction `uid` with `refusal` as its result: when the browser follows the answered address, the provider
 * redirects it to the client app with the error (and its `state` and `iss`), as OpenID Connect Core §3.1.2.6 says.
 */
export async function refuseInteraction(provider: Provider, uid: string, refusal: InteractionRefusal): Promise<string> {
  const interaction = await provider.Interaction.find(uid);
  const remaining = interaction ? interaction.exp - Math.floor(Date.now() / 1000) : 0;
  if (!interaction || remaining < 1) throw new InteractionNotFoundError(uid);
  interaction.result = { error: refusal.error, error_description: refusal.description };
  await interaction.save(remaining);
  return interaction.returnTo;
}
