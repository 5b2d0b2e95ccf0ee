/**
 * Routing: paths come from the steps' `route` fields under /auth; the root goes to login with
 * its query, an unknown path shows the not-found error page, and step paths fill their parameters.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/engine/flow-types.ts';
import { buildStepPath, carryQuery, decodeRouteParams, stepRoutePatterns, toRoutePattern } from '../../src/engine/routes.ts';
import { fakeServer } from './support/fake-server.ts';
import { renderAppAt } from './support/render-app.tsx';

const step = (route: string): Step => ({ id: 'x', flowId: 'f', route, title: 'X', titleKeys: [] });

describe('app routes', () => {
  it('renders the error page titled "Error" saying the page does not exist for an unknown path', async () => {
    fakeServer({});
    renderAppAt('/auth/no/such/page');
    await waitFor(() => expect(document.title).toBe('Error'));
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('There is no page at this address. Check the link, or go back to the app you came from.')).toBeTruthy();
    // "Try again" would lead to a login with no app named: the frame's help link is the way on.
    expect(screen.queryByRole('link', { name: 'Try again' })).toBeNull();
    expect(screen.getByRole('link', { name: "Can't Log In or Register?" })).toBeTruthy();
  });

  it('shows "Page not found" for an address outside /auth/, which the server answers browsers with the app', async () => {
    fakeServer({});
    renderAppAt('/nothing-here');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(document.title).toBe('Error');
  });

  it.each(['/auth/', '/auth'])('redirects the root %s to login, keeping the query', async (root) => {
    fakeServer({
      'GET authorize': { body: { challenge: 'LOGIN_REQUIRED' } },
      'GET clients/c1': { body: { client_id: 'c1', client_name: 'Client One' } },
    });
    renderAppAt(`${root}?client_id=c1&state=s1`);
    await waitFor(() => expect(window.location.pathname).toBe('/auth/login'));
    expect(window.location.search).toBe('?client_id=c1&state=s1');
    await waitFor(() => expect(document.title).toBe('Log In'));
    expect(await screen.findByText('Signing in to Client One')).toBeTruthy();
  });

  it('shows the help link and the copyright footer on every screen', async () => {
    fakeServer({});
    renderAppAt('/auth/unavailable');
    expect(await screen.findByRole('link', { name: "Can't Log In or Register?" })).toBeTruthy();
    expect(screen.getByText(new RegExp(`© ${new Date().getFullYear()} Payments Network`))).toBeTruthy();
  });
});

describe('route helpers', () => {
  it.each([
    ['login', {}, '/login'],
    ['change-password/:delivery_destination', { delivery_destination: 'a@b.co' }, '/change-password/a%40b.co'],
    ['mfa/verify-email/:action?', {}, '/mfa/verify-email'],
    ['mfa/verify-email/:action?', { action: 'resend' }, '/mfa/verify-email/resend'],
    ['change-password/:delivery_destination', {}, undefined],
  ])('builds %s with %o as %s', (route, params, expected) => {
    expect(buildStepPath(step(route), params)).toBe(expected);
  });

  it('gives wouter the route as written, optional segments included', () => {
    expect(toRoutePattern('mfa/verify-email/:action?')).toBe('/mfa/verify-email/:action?');
  });

  it('routes a step at its route and then its aliases', () => {
    expect(stepRoutePatterns({ ...step('forgot-password'), aliases: ['recover-password'] })).toEqual(['/forgot-password', '/recover-password']);
    expect(stepRoutePatterns(step('login'))).toEqual(['/login']);
  });

  it('decodes what the router leaves escaped, and keeps what cannot be decoded', () => {
    expect(decodeRouteParams({ delivery_destination: 'd•••%40example.com', action: undefined, bad: '%E0%A4%A' })).toEqual({
      delivery_destination: 'd•••@example.com',
      action: undefined,
      bad: '%E0%A4%A',
    });
  });

  it('carries only the listed query values', () => {
    expect(carryQuery('?client_id=c&secret=x&state=s', ['client_id', 'state', 'username'])).toBe('?client_id=c&state=s');
    expect(carryQuery('', ['client_id'])).toBe('');
  });
});
