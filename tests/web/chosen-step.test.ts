/**
 * The app renders the step the engine chose while the browser is at its address, not one matched back from the URL
 * (src/ui/chosen-step.ts); any other address is the router's, so a deep link, Back, Forward and Reload still resolve.
 * The browser side (Back, Forward, Reload on every step) is e2e/every-step-navigation.spec.ts's.
 */
import { renderHook } from '@testing-library/react';
import { useRouter } from 'wouter';
import { describe, expect, it } from 'vitest';
import { chosenStepAt } from '../../src/ui/chosen-step.ts';

const { parser } = renderHook(() => useRouter()).result.current;
const codeScreen = { stepId: 'register-verification', route: 'register/verify-email/:delivery_destination' };

describe('the step the engine chose', () => {
  it('is shown at its own address, with the route parameters as the person wrote them', () => {
    const shown = chosenStepAt(codeScreen, '/register/verify-email/ada%40example.com', parser);
    expect(shown?.id).toBe('register-verification');
    expect(shown?.params.delivery_destination).toBe('ada@example.com');
  });

  it('is shown by its id, not by the step the route table gives its address', () => {
    // The not-available placeholder chosen at a route of another step: the engine's choice is what shows.
    expect(chosenStepAt({ stepId: 'not-available', route: 'register' }, '/register', parser)?.id).toBe('not-available');
  });

  it('leaves any other address to the router: Back or Forward to another step, a typed address', () => {
    expect(chosenStepAt(codeScreen, '/job-details', parser)).toBeUndefined();
    expect(chosenStepAt(codeScreen, '/register', parser)).toBeUndefined();
  });

  it('leaves every address to the router before the engine has chosen (a deep link, a reload)', () => {
    expect(chosenStepAt(null, '/register', parser)).toBeUndefined();
  });
});
