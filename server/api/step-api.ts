/**
 * The step API under /api/sso/v3: every resource's routes, registered in one place, and the check that they and the
 * flows agree: every call a flow makes is a route here, and every step route (one answering a step's answer) is called
 * by some flow. The server refuses to start when they do not; `npm run flows:check` reports the same before a build.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../contract/product.ts';
import type { FlowGraph } from '../../contract/flow-graph.ts';
import type { Services } from '../services.ts';
import { accountRoutes } from './account-routes.ts';
import { authorizeRoutes } from './authorize-routes.ts';
import { clientRoutes } from './client-routes.ts';
import { companyRoutes } from './company-routes.ts';
import { consentRoutes } from './consent-routes.ts';
import { cryptoRoutes } from './crypto-routes.ts';
import { invitationRoutes } from './invitation-routes.ts';
import { loginRoutes } from './login-routes.ts';
import { mfaSetupRoutes } from './mfa-setup-routes.ts';
import { mfaSignInRoutes } from './mfa-sign-in-routes.ts';
import { newPasswordRoutes } from './new-password-routes.ts';
import { notMeRoutes } from './not-me-routes.ts';
import { passkeySignInRoutes } from './passkey-sign-in-routes.ts';
import { passwordResetRoutes } from './password-reset-routes.ts';
import { profileAttributesRoutes } from './profile-attributes-routes.ts';
import { recoveryCodeRoutes } from './recovery-code-routes.ts';
import { registerRoutes } from './register-routes.ts';
import { registerUserinfoRoutes } from './register-userinfo-routes.ts';
import { registerVerificationRoutes } from './register-verification-routes.ts';
import { STEP_ANSWER } from './response-schemas.ts';
import { signInStatusRoutes } from './sign-in-status-routes.ts';
import { userinfoRoutes } from './userinfo-routes.ts';

const RESOURCES = [
  [cryptoRoutes, authorizeRoutes, loginRoutes, newPasswordRoutes, passwordResetRoutes, invitationRoutes, companyRoutes, clientRoutes, userinfoRoutes, signInStatusRoutes],
  [registerRoutes, registerVerificationRoutes, registerUserinfoRoutes, profileAttributesRoutes],
  [mfaSetupRoutes, mfaSignInRoutes, passkeySignInRoutes, recoveryCodeRoutes],
  [accountRoutes, notMeRoutes, consentRoutes],
] as const;

/** One route of the step API: its method, its path under the prefix (`:name` a parameter), and whether it answers a step. */
export interface ApiRoute {
  method: string;
  path: string;
  step: boolean;
}

/** Registers every resource of the step API on `api` (mounted under the API prefix); answers the routes registered. */
export async function registerStepApi(api: FastifyInstance, context: Services): Promise<ApiRoute[]> {
  const routes: ApiRoute[] = [];
  api.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
    const path = route.url.slice(route.prefix.length).replace(/^\//, '');
    for (const method of methods) if (method !== 'HEAD') routes.push({ method, path, step: response?.[200] === STEP_ANSWER });
  });
  for (const group of RESOURCES) for (const routes of group) await api.register(routes(context));
  return routes;
}

const matches = (pattern: string, path: string): boolean => {
  const want = pattern.split('/');
  const have = path.split('/');
  return want.length === have.length && want.every((segment, index) => segment === have[index] || (segment.startsWith(':') && have[index] !== ''));
};

/** A disagreement between the flows and the step API, worded for the person who must fix it. */
export interface RouteMismatch {
  file: string;
  /** Where in it: the step, or the route. */
  path: string;
  message: string;
  fix: string;
}

/** Where the flows' calls and the step API's routes disagree: a call no route serves, a step route no flow calls. */
export function routeMismatches(graph: FlowGraph, routes: readonly ApiRoute[]): RouteMismatch[] {
  const calls = Object.values(graph.steps).flatMap((step) => step.calls.map((call) => ({ step, call })));
  const unserved = calls
    .filter(({ call }) => !routes.some((route) => route.method === call.method && matches(route.path, call.path)))
    .map(({ step, call }) => ({
      file: `flows/${step.flow}.json`,
      path: `steps.${step.id}`,
      message: `step "${step.id}" calls ${call.method} ${call.path}, which no route of the step API serves`,
      fix: `correct the call's path (a misspelling?) to one of the step API's routes (docs/api.md), or have a developer add the route`,
    }));
  const unreached = routes
    .filter((route) => route.step && !calls.some(({ call }) => call.method === route.method && matches(route.path, call.path)))
    .map((route) => ({
      file: 'server/api/',
      path: `${route.method} ${route.path}`,
      message: `the step route ${route.method} ${route.path} is called by no step of any flow`,
      fix: `give a step of flows/*.json a call to ${route.path}, or remove the route`,
    }));
  return [...unserved, ...unreached];
}

/** The server cannot start: the flows and the step API disagree. Its message names each file and the fix. */
export class FlowRouteMismatchError extends Error {
  readonly mismatches: readonly RouteMismatch[];

  constructor(mismatches: readonly RouteMismatch[]) {
    super(
      `The flows and the step API disagree, so the server does not start (npm run flows:check reports the same):\n${mismatches
        .map((mismatch) => `  ${mismatch.file}: ${mismatch.message}; fix: ${mismatch.fix}`)
        .join('\n')}`,
    );
    this.name = 'FlowRouteMismatchError';
    this.mismatches = mismatches;
  }
}

/**
 * The step API's routes, read without a server: each resource registers its routes on a bare Fastify with no
 * services (none is used until a request comes). For `npm run flows:check`.
 */
export async function stepApiRoutes(): Promise<ApiRoute[]> {
  const app = Fastify();
  let routes: ApiRoute[] = [];
  await app.register(
    async (api) => {
      routes = await registerStepApi(api, {} as Services);
    },
    { prefix: API_PREFIX },
  );
  await app.close();
  return routes;
}
