/**
 * The engine replay's driver: the whole app in jsdom, freshly loaded per fixture in a clean tab (so
 * no cache of an earlier test answers for it), with the fixture's recorded answers in place of the server.
 * Requests are matched to recorded ones by method and path, in order, and each query and body
 * must equal the recorded one modulo placeholders. The test file must mock
 * src/ui/browser-navigation.ts (jsdom cannot leave the page); leaving is read from that mock.
 */
import { generateKeyPairSync } from 'node:crypto';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { config } from '../../../src/config.ts';
import type { Fixture, FixtureExchange } from '../../../src/recorder/fixture-types.ts';
import { shownHeadline, shownMessages } from '../../../src/recorder/page-reading.ts';
import { watchScreens } from '../../../src/recorder/screen-watch.ts';
import type { Screen } from '../../../scripts/fixtures/divergence.ts';
import { differences, fillDeep, lookupIn, SAMPLE_VALUES, type Lookup } from '../../../scripts/fixtures/placeholder-values.ts';
import type { DriverProblem, ReplayDriver } from '../../../scripts/fixtures/walk-fixture.ts';
import { offerPasskeyAutofill } from './autofill-browser.ts';
import { fakeServer, type FakeAnswer, type FakeRequest, type FakeRoutes } from './fake-server.ts';

/** The RSA modulus the engine's recorded key answers carry: a real key, so the app can encrypt with it. */
const PUBLIC_KEY = String(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' }).n);

/** The values the engine replay fills placeholders with: the samples, a real key, a key expiry an hour ahead, a code sent now. */
export function engineLookup(): Lookup {
  const now = Date.now();
  const times = { expiresAt: new Date(now + 3_600_000).toISOString(), sentAt: new Date(now).toISOString() };
  return lookupIn({ ...SAMPLE_VALUES, origin: window.location.origin, publicKey: PUBLIC_KEY, ...times });
}

/** A recorded exchange and the step (1-based) it was recorded in. */
interface Expected {
  step: number;
  exchange: FixtureExchange;
}

const keyOf = (method: string, path: string) => `${method} ${path}`;

/** Serves the fixture's answers, noting every request that differs from the recorded one. */
function recordedServer(fixture: Fixture, lookup: Lookup, problems: DriverProblem[]) {
  const queues = new Map<string, Expected[]>();
  fixture.steps.forEach((step, index) => {
    for (const exchange of step.requests) {
      const key = keyOf(exchange.method, exchange.path);
      queues.set(key, [...(queues.get(key) ?? []), { step: index + 1, exchange }]);
    }
  });
  const answer = (key: string) => (request: FakeRequest): FakeAnswer => {
    const next = queues.get(key)?.shift();
    if (!next) {
      problems.push({ step: 0, problem: `${key} was sent more often than recorded` });
      return { status: 500, body: {} };
    }
    const { exchange, step } = next;
    const sent = differences(Object.fromEntries(request.query), exchange.query ?? {}, lookup, 'query').concat(
      differences(request.body, exchange.body, lookup, 'body'),
    );
    if (sent.length > 0) problems.push({ step, problem: `${key} differs from the recording: ${sent.join('; ')}` });
    // Status 0 was a network failure: the fetch itself fails.
    if (exchange.response.status === 0) throw new TypeError('Failed to fetch');
    return { status: exchange.response.status, body: fillDeep(exchange.response.body, lookup) };
  };
  const routes: FakeRoutes = Object.fromEntries([...queues.keys()].map((key) => [key, answer(key)]));
  const server = fakeServer(routes);
  return {
    /** Requests to a method and path the fixture never recorded. */
    unknown: () => server.requests.filter((request) => !queues.has(keyOf(request.method, request.path))),
    /** Recorded requests the app has not sent. */
    unsent: () => [...queues.values()].flat(),
  };
}

/** Types like a user; userEvent reads "{" and "[" as key names unless doubled. */
const typed = (value: string) => value.replace(/[{[]/g, (character) => character + character);

/** A driver for `fixture`, plus `stop` to call when the replay is over. */
export async function createEngineDriver(fixture: Fixture): Promise<ReplayDriver & { stop: () => void }> {
  // A clean tab: nothing cached or remembered by whatever ran before.
  vi.resetModules();
  localStorage.clear();
  sessionStorage.clear();
  const { renderAppAt } = await import('./render-app.tsx');
  const { leaveTo } = await import('../../../src/ui/browser-navigation.ts');
  const leaves = vi.mocked(leaveTo);
  let leavesAtOpen = leaves.mock.calls.length;
  const lookup = engineLookup();
  const problems: DriverProblem[] = [];
  const server = recordedServer(fixture, lookup, problems);
  const log: Screen[] = [];
  const stopWatching = watchScreens((path, title) => {
    if (path.startsWith(`${config.basePath}/`)) log.push({ path, title });
  });
  const removeAutofill = offerPasskeyAutofill();

  return {
    screens: () => log,
    messages: async () => shownMessages(document.body),
    headline: async () => shownHeadline(document.body),
    async fill(field, value) {
      const fields = await waitFor(() => {
        const found = Array.from(document.querySelectorAll<HTMLInputElement | HTMLSelectElement>('form [name]')).filter((input) => input.name === field);
        if (found.length === 0) throw new Error(`no field named "${field}" on the screen`);
        return found;
      });
      const [input] = fields;
      if (input instanceof HTMLSelectElement) return userEvent.selectOptions(input, value);
      if (input?.type === 'checkbox') return input.checked === (value === 'true') ? undefined : userEvent.click(input);
      if (input?.type === 'radio') {
        const choice = fields.find((radio) => radio.value === value);
        if (!choice) throw new Error(`no choice "${value}" for "${field}" on the screen`);
        return userEvent.click(choice);
      }
      if (!input) return undefined;
      await userEvent.clear(input);
      if (value !== '') await userEvent.type(input, typed(value));
    },
    async act(action) {
      const target = await screen.findByRole(action.type === 'link' ? 'link' : 'button', { name: action.label });
      await waitFor(() => {
        if (target.hasAttribute('disabled')) throw new Error(`"${action.label}" is disabled`);
      });
      await userEvent.click(target);
    },
    async open(url, _reason, forwardedTo) {
      // One app at a time: a page load replaces the page (and a test may have rendered one before).
      cleanup();
      leavesAtOpen = leaves.mock.calls.length;
      // A start the server forwarded loads where it landed: there is no server here to forward it.
      renderAppAt(forwardedTo ?? url);
    },
    left: async () => (leaves.mock.calls.length > leavesAtOpen ? {} : undefined),
    problems(final) {
      const unknown = server.unknown().map((request) => ({ step: 0, problem: `${keyOf(request.method, request.path)} is not in the fixture` }));
      const unsent = final ? server.unsent().map(({ step, exchange }) => ({ step, problem: `recorded ${keyOf(exchange.method, exchange.path)} was never sent` })) : [];
      return [...problems, ...unknown, ...unsent];
    },
    async waitUntil(check, timeoutMs) {
      let complaint: string | undefined;
      try {
        await waitFor(
          async () => {
            complaint = await check();
            if (complaint) throw new Error(complaint);
          },
          { timeout: timeoutMs },
        );
        return undefined;
      } catch (error) {
        return complaint ?? String(error);
      }
    },
    stop() {
      stopWatching();
      removeAutofill();
    },
  };
}
