/**
 * flows:check, the bot-check check: a button that makes a bot-checked step's call (ask for a new reset code) must
 * carry the widget's token, or with the bot check on every press is refused.
 */
import { checkBotCheck } from '../../scripts/flows-check/check-bot-check.ts';
import { type CheckRow, describeChecks, stepOf } from './support/check-project.ts';

const F = 'flows/start.json';
const resend = { label: 'start.submit', call: { method: 'POST' as const, path: 'auth/login' } };

const rows: Record<string, CheckRow> = {
  'a button making a bot-checked call without the token': {
    check: checkBotCheck,
    change: (p) => {
      stepOf(p, 'sign-in').botCheck = true;
      stepOf(p, 'help').actions = [resend];
    },
    lines: [`${F}:steps.help.actions[0] — makes step sign-in's call, which the bot check guards, without its token — add "botCheck": true`],
  },
  'a button making a bot-checked call with the token': {
    check: checkBotCheck,
    change: (p) => {
      stepOf(p, 'sign-in').botCheck = true;
      stepOf(p, 'help').actions = [{ ...resend, botCheck: true }];
    },
    lines: [],
  },
  'a button making a call no bot check guards': {
    check: checkBotCheck,
    change: (p) => void (stepOf(p, 'help').actions = [resend]),
    lines: [],
  },
};

describeChecks('flows:check bot-check check', [checkBotCheck], rows);
