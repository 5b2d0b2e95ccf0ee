import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { activeFlags, applyFlags } from '../../src/services/feature-flags/active-flags.ts';
import { featureFlagsAtom } from '../../src/state/feature-flags-atom.ts';

describe("the store's featureFlags", () => {
  it('is null until the flag service answers, then holds the loaded flags, and follows a later refresh', () => {
    const store = createStore();
    const seen: unknown[] = [];
    const unsubscribe = store.sub(featureFlagsAtom, () => seen.push(store.get(featureFlagsAtom)));
    expect(store.get(featureFlagsAtom)).toBeNull();

    applyFlags({ 'sms-mfa-disable': true });
    expect(store.get(featureFlagsAtom)).toMatchObject({ 'sms-mfa-disable': true, 'company-selection-removal': true });
    expect(activeFlags['sms-mfa-disable']).toBe(true);

    applyFlags({ 'sms-mfa-disable': false });
    expect(store.get(featureFlagsAtom)).toMatchObject({ 'sms-mfa-disable': false });
    expect(seen).toHaveLength(2);
    unsubscribe();
  });
});
