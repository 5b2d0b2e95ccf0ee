/**
 * flows:check, the graph checks: next rules, challenge claims, reachability and dead ends. Each
 * row breaks one thing in a valid project and names the exact lines.
 */
import { checkChallenges } from '../../scripts/flows-check/check-challenges.ts';
import { checkDeadEnds } from '../../scripts/flows-check/check-dead-ends.ts';
import { checkNextRules } from '../../scripts/flows-check/check-next-rules.ts';
import { checkReachability } from '../../scripts/flows-check/check-reachability.ts';
import { type CheckRow, describeChecks, stepOf } from './support/check-project.ts';

const F = 'flows/start.json';
const CLAIM_IT = 'add it to the challenges of the step that handles it (or of "oops" until it is built)';

const rows: Record<string, CheckRow> = {
  'a rule after an unconditional one': {
    check: checkNextRules,
    change: (p) => void (stepOf(p, 'sign-in').next = [{ go: 'done' }, { when: { exists: 'x' }, go: 'help' }]),
    lines: [`${F}:steps.sign-in.next[1] — comes after next[0], which has no "when" and always applies — move it before that rule, or remove it`],
  },
  'an unknown feature flag, negated': {
    check: checkNextRules,
    change: (p) => void (stepOf(p, 'sign-in').next = [{ when: { flag: '!new-lok' }, go: 'done' }]),
    lines: [`${F}:steps.sign-in.next[0].when.flag — names feature flag "new-lok", which the app does not know — add it to FLAG_DEFAULTS in contract/product.ts, or use one of: new-look`],
  },
  'a known feature flag (fine)': {
    check: checkNextRules,
    change: (p) => void (stepOf(p, 'sign-in').next = [{ when: { flag: 'new-look' }, go: 'done' }, { go: 'help' }]),
    lines: [],
  },
  'a challenge the server sends that no step claims': {
    check: checkChallenges,
    change: (p) => void ((p.serverChallenges = ['LOGIN_REQUIRED', 'EMAIL_MFA']), (p.challengeKinds = ['LOGIN_REQUIRED', 'MFA_SETUP', 'EMAIL_MFA'])),
    lines: [`contract/challenges.ts:CHALLENGES.EMAIL_MFA — the server can send EMAIL_MFA, but no step claims it — ${CLAIM_IT}`],
  },
  'a challenge the server sends that the meta-schema does not know': {
    check: checkChallenges,
    change: (p) => void (p.serverChallenges = ['LOGIN_REQUIRED', 'NEW_KIND']),
    lines: ['contract/challenges.ts:CHALLENGES.NEW_KIND — NEW_KIND is not a challenge kind of the meta-schema — run npm run contract:generate'],
  },
  'a challenge kind of the meta-schema without a step': {
    check: checkChallenges,
    change: (p) => void (p.challengeKinds = ['LOGIN_REQUIRED', 'MFA_SETUP', 'EMAIL_MFA']),
    lines: [`schemas/flow.schema.json:definitions.challengeKind.enum[2] — no step claims EMAIL_MFA — ${CLAIM_IT}`],
  },
  'a challenge claimed twice': {
    check: checkChallenges,
    change: (p) => void (stepOf(p, 'help').challenges = ['LOGIN_REQUIRED']),
    lines: [`${F}:steps.help.challenges[0] — claims LOGIN_REQUIRED, which step "sign-in" claims too — keep one claimer: the engine cannot choose`],
  },
  'a step nothing links to': {
    check: checkReachability,
    change: (p) => void (stepOf(p, 'sign-in').links = []),
    lines: [`${F}:steps.help — step "help" cannot be reached: no init, no challenge, and no next rule or link of a reachable step leads to it — link to it from a reachable step, or claim a challenge the server sends`],
  },
  'a step claiming only a challenge the server does not send': {
    check: checkReachability,
    change: (p) => void ((stepOf(p, 'sign-in').links = []), (stepOf(p, 'help').challenges = ['EMAIL_MFA'])),
    lines: [`${F}:steps.help — step "help" cannot be reached: it claims only EMAIL_MFA, which the server does not send (contract/challenges.ts) — link to it from a reachable step, or claim a challenge the server sends`],
  },
  'a step only the app names (fine: the app shows it)': {
    check: checkReachability,
    change: (p) => void ((stepOf(p, 'sign-in').links = []), (p.appSteps = [...p.appSteps, { name: 'notFoundStep', step: 'help' }])),
    lines: [],
  },
  'a message screen with no way on': {
    check: checkDeadEnds,
    change: (p) => void (stepOf(p, 'help').links = []),
    lines: [`${F}:steps.help — step "help" shows a message with no link, no navigate and is not terminal, so the user is stuck — add a link onward, or set "terminal": true if the flow ends here on purpose`],
  },
  'a form without a call': {
    check: checkDeadEnds,
    change: (p) => void delete stepOf(p, 'sign-in').call,
    lines: [`${F}:steps.sign-in.form — step "sign-in" has a form but no call, so submitting it goes nowhere — add a call, or drop the form`],
  },
  'a call with no next rules and no other step for the answer': {
    check: checkDeadEnds,
    change: (p) => void delete stepOf(p, 'sign-in').next,
    lines: [`${F}:steps.sign-in — step "sign-in" has no next rules and no other step claims a challenge the server sends — add next rules, or claim the challenges its call answers`],
  },
  'a terminal message screen (fine: it ends the flow on purpose)': {
    check: checkDeadEnds,
    change: (p) => void Object.assign(stepOf(p, 'help'), { links: [], terminal: true }),
    lines: [],
  },
};

describeChecks('flows:check graph checks', [checkNextRules, checkChallenges, checkReachability, checkDeadEnds], rows);
