import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import { levelOf, requestedLevel } from './acr.ts';

/**
 * A login-prompt check: a live session below the level the client asked for (`acr_values`, or an `acr` claim request,
 * voluntary or essential) sends the person through a sign-in again, which steps them up. A request just answered by
 * a sign-in is taken as it came back: the client reads the `acr` it got and decides.
 */
export function acrStepUpCheck(): interactionPolicy.Check {
  const { Check } = interactionPolicy;
  return new Check('acr_step_up', 'a stronger sign-in is required', (ctx: KoaContextWithOIDC) => {
    const { oidc } = ctx;
    if (oidc.result?.login !== undefined) return Check.NO_NEED_TO_PROMPT;
    const wanted = requestedLevel(oidc.params ?? {});
    if (wanted === undefined || levelOf(oidc.session?.acr) >= wanted) return Check.NO_NEED_TO_PROMPT;
    return Check.REQUEST_PROMPT;
  });
}
