import { answer, API, type StepAnswer } from './mfa.ts';
import type { TestBrowser } from './sign-in.ts';

/**
 * A person signing in to a third-party app who is asked to allow what it asks (CONSENT_REQUIRED) and allows all of
 * it, as most do; any other answer passes through unchanged. For tests about something else than consent, whose
 * apps are third-party as an outside developer's are (consent itself: tests/server/app-consent.test.ts).
 */
export async function allowWhatTheAppAsks(browser: TestBrowser, step: StepAnswer): Promise<StepAnswer> {
  if (step.challenge !== 'CONSENT_REQUIRED') return step;
  const asked = (step.parameters?.scopes ?? {}) as Record<string, boolean>;
  const allowed = Object.fromEntries(Object.keys(asked).map((scope) => [scope, true]));
  return answer<StepAnswer>(await browser.request('POST', `${API}/consent`, allowed));
}
