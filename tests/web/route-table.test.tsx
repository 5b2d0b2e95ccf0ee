/**
 * Every address of the route table (flows/shell/routes.json), opened in the app: the URL it ends
 * on and the document title there. Legacy addresses under /auth/auth/ end on their new routes;
 * the roots end on login; anything else shows the error page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@testing-library/react';
import { Ajv } from 'ajv';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routeTable } from '../../src/engine/route-table.ts';
import { buildStepPath } from '../../src/engine/routes.ts';
import { graph, stepDefinition } from './support/flow-walk.ts';
import { renderAppAt } from './support/render-app.tsx';

/** Values for the routes' `:name` segments. */
const SAMPLE_PARAMS = { delivery_destination: 'a•••@example.com', mfa_code: 'MFA-CODE-1' };

const pathOf = (route: string) => `/auth${buildStepPath({ route }, SAMPLE_PARAMS) ?? ''}`;
const titleOf = (route: string) => routeTable.routes.find((candidate) => candidate.path === route)?.title;

/**
 * Routes whose screen sends the user elsewhere when opened directly, with the final path and title: the guarded steps'
 * (their flow's `guard`), each to its `otherwise`. Job details only registration may lead to; a redirect or success
 * screen opened without the answer holding its address belongs to a sign-in that is over, and the honest screen says
 * so; the error and not-available pages entered again ask the server where the sign-in is now.
 */
const OPENED_DIRECTLY_LEADS_TO: Record<string, { path: string; title: string | undefined }> = Object.fromEntries(
  Object.values(graph.steps)
    .filter((step) => step.guard)
    .map((step) => {
      const otherwise = stepDefinition(step.guard!.otherwise).route;
      return [stepDefinition(step.id).route, { path: pathOf(otherwise), title: titleOf(otherwise) }];
    }),
);

const landing = (route: string) => OPENED_DIRECTLY_LEADS_TO[route] ?? { path: pathOf(route), title: titleOf(route) };

/** Opens `url` and waits until the app settles on `expected`. */
async function expectLanding(url: string, expected: { path: string; title: string | undefined }) {
  renderAppAt(url);
  await waitFor(() => {
    expect(window.location.pathname).toBe(expected.path);
    expect(document.title).toBe(expected.title);
  });
}

beforeEach(() => {
  // Entry calls never answer, so each screen stays as it was entered.
  vi.stubGlobal('fetch', () => new Promise(() => {}));
});

describe('the route table', () => {
  it('validates against schemas/routes.schema.json', () => {
    const read = (...parts: string[]): unknown => JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', ...parts), 'utf8'));
    const validate = new Ajv({ allErrors: true }).compile(read('schemas', 'routes.schema.json') as object);
    validate(read('flows', 'shell', 'routes.json'));
    expect(validate.errors ?? []).toEqual([]);
  });

  it.each(routeTable.routes.map((route) => [route.path, route] as const))('/auth/%s ends where expected, titled', async (_path, route) => {
    await expectLanding(pathOf(route.path), landing(route.path));
  });

  it.each(routeTable.legacy.map((legacy) => [legacy.path, legacy.to, legacy] as const))('legacy /auth/auth/%s redirects to %s', async (_path, to, legacy) => {
    await expectLanding(`/auth/${routeTable.legacyPrefix}${buildStepPath({ route: legacy.path }, SAMPLE_PARAMS)}`, landing(to));
  });

  it.each(['/auth/', '/auth', '/auth/auth', '/auth/auth/'])('root %s redirects to login', async (root) => {
    await expectLanding(root, { path: '/auth/login', title: 'Log In' });
  });

  it('keeps the query a client app sent through a legacy redirect', async () => {
    await expectLanding('/auth/auth/sign-up?client_id=c1&state=s1&username=u%40x.co', { path: '/auth/register', title: 'Register' });
    expect(window.location.search).toBe('?client_id=c1&state=s1&username=u%40x.co');
  });

  it.each(['/auth/no/such/page', '/auth/auth/no-such-page'])('shows the error page, titled "Error", at %s', async (url) => {
    await expectLanding(url, { path: url, title: routeTable.unknownTitle });
  });

  it('opens Register at /auth/sign-up, the address client apps used for sign-up', async () => {
    await expectLanding('/auth/sign-up', { path: '/auth/sign-up', title: 'Register' });
  });
});
