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
 * `GET auth/sign-in/status`: what a screen says when a sign-in can no longer go on (Back after finishing, an expired
 * one): whether it finished (`signed_in`), the app's name, and where the app is (`app_url`: its initiate_login_uri,
 * else the origin of its registered redirect URI, the one named if it is registered). Tells nothing about the user.
 */
export function signInStatusRoutes(context: Pick<Services, 'db' | 'clock'>) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: StatusQuery }>('/auth/sign-in/status', { schema: { querystring: querySchema, response: responses(STEP_ANSWER) } }, async (request) => {
      const { client_id: clientId, redirect_uri: redirectUri, interaction } = request.query;
      const client = clientId ? await findClientInfo(context.db, clientId) : undefined;
      if (!client) return { parameters: { signed_in: false } };
      const signedIn = interaction !== undefined && (await isFinishedSignIn(context.db, interaction, client.clientId, new Date(context.clock())));
      const registered = redirectUri !== undefined && client.redirectUris.includes(redirectUri) ? redirectUri : client.redirectUris[0];
      const appUrl = (await clientSignInStart(context.db, client.clientId)) ?? (registered === undefined ? undefined : originOf(registered));
      return { parameters: { signed_in: signedIn, client_name: client.name, ...(appUrl ? { app_url: appUrl } : {}) } };
    });
  };
}
