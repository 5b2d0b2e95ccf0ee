import type { FastifyInstance } from 'fastify';
import { findClientInfo } from '../store/clients.ts';
import { clientSignInStart } from '../store/invitations.ts';
import { isFinishedSignIn } from '../store/transactions.ts';
import type { Services } from '../services.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';

interface StatusQuery {
  client_id?: string;
  redirect_uri?: string;
  interaction?: string;
}

const querySchema = {
  type: 'object',
  properties: {
    client_id: { type: 'string', maxLength: 200 },
    redirect_uri: { type: 'string', maxLength: 2000 },
    interaction: { type: 'string', maxLength: 100 },
  },
} as const;

/** The origin of `uri`, or undefined when it is no http(s) URL. */
function originOf(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' || url.protocol === 'http:' ? `${url.origin}/` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The provider's address that takes a finished sign-in to the app, while the browser has not followed it yet (Back from
 * "Congratulations" before "Continue to the app"): the provider forgets the interaction once it has been followed.
 */
async function notYetTakenToApp(provider: Services['provider'], interaction: string): Promise<string | undefined> {
  const pending = await provider.Interaction.find(interaction);
  return pending?.result?.login ? pending.returnTo : undefined;
}

/**
 * `GET auth/sign-in/status`: what a screen says when a sign-in can no longer go on (Back after finishing, an expired
 * one): whether it finished and the browser went on to the app (`signed_in`), or finished but has not gone there yet
 * (`awaiting_app`: the person is not signed in to the app until it does), the app's name, and where the app is
 * (`app_url`: the provider's address that finishes an awaiting sign-in; else the app's initiate_login_uri, else the
 * origin of its registered redirect URI, the one named if it is registered). Tells nothing about the user.
 */
export function signInStatusRoutes(context: Pick<Services, 'db' | 'clock' | 'provider'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: StatusQuery }>('/auth/sign-in/status', { schema: { querystring: querySchema, response: responses(STEP_ANSWER) } }, async (request) => {
      const { client_id: clientId, redirect_uri: redirectUri, interaction } = request.query;
      const client = clientId ? await findClientInfo(context.db, clientId) : undefined;
      if (!client) return { parameters: { signed_in: false } };
      const finished = interaction !== undefined && (await isFinishedSignIn(context.db, interaction, client.clientId, new Date(context.clock())));
      const awaiting = finished ? await notYetTakenToApp(context.provider, interaction) : undefined;
      if (awaiting) return { parameters: { signed_in: false, awaiting_app: true, client_name: client.name, app_url: awaiting } };
      const registered = redirectUri !== undefined && client.redirectUris.includes(redirectUri) ? redirectUri : client.redirectUris[0];
      const appUrl = (await clientSignInStart(context.db, client.clientId)) ?? (registered === undefined ? undefined : originOf(registered));
      return { parameters: { signed_in: finished, client_name: client.name, ...(appUrl ? { app_url: appUrl } : {}) } };
    });
  };
}
