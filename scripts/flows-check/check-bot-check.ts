/**
 * Guards the bot check's reach: an action that makes a bot-checked step's call (a new password-reset code) must say
 * `botCheck`, or with the bot check on the server refuses every press of its button for want of a token.
 */
import { stepEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** Problems with actions that make a bot-checked call without the widget's token. */
export function checkBotCheck(project: Project): Problem[] {
  const entries = stepEntries(project.flows);
  const guarded = new Map(
    entries.filter(({ step }) => step.botCheck && step.call).map(({ id, step }) => [`${step.call?.method} ${step.call?.path}`, id]),
  );
  return entries.flatMap(({ file, path, step }) =>
    (step.actions ?? []).flatMap((action, index): Problem[] => {
      const owner = guarded.get(`${action.call.method} ${action.call.path}`);
      if (owner === undefined || action.botCheck) return [];
      return [{ file, path: `${path}.actions[${index}]`, message: `makes step ${owner}'s call, which the bot check guards, without its token`, fix: 'add "botCheck": true' }];
    }),
  );
}
