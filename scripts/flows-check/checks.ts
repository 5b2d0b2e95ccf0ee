/**
 * The check table, read top to bottom: each row a stable name, what it guards, and a pure
 * function from the project to its problems. The meta-schema check runs before these (run-checks.ts).
 */
import { checkApiErrors } from './check-api-errors.ts';
import { checkApiRoutes } from './check-api-routes.ts';
import { checkAppSteps } from './check-app-steps.ts';
import { checkBotCheck } from './check-bot-check.ts';
import { checkCatalogues } from './check-catalogues.ts';
import { checkChallenges } from './check-challenges.ts';
import { checkDeadEnds } from './check-dead-ends.ts';
import { checkEvents } from './check-events.ts';
import { checkExamples } from './check-examples.ts';
import { checkFlowMessageKeys } from './check-flow-message-keys.ts';
import { checkFormFields } from './check-form-fields.ts';
import { checkFormSchemas } from './check-form-schemas.ts';
import { checkIds } from './check-ids.ts';
import { checkNextRules } from './check-next-rules.ts';
import { checkReachability } from './check-reachability.ts';
import { checkReferencedKeys } from './check-referenced-keys.ts';
import { checkRoutes } from './check-routes.ts';
import { checkShellRoutes } from './check-shell-routes.ts';
import { checkTargets } from './check-targets.ts';
import { checkTitles } from './check-titles.ts';
import { checkValueSources } from './check-value-sources.ts';
import { checkWordSets } from './check-word-sets.ts';
import type { FlowCheck } from './types.ts';

/** Every check flows:check runs once the flow files validate. */
export const checks: readonly FlowCheck[] = [
  { name: 'ids', guards: 'flow ids match file names; step ids are unique', run: checkIds },
  { name: 'form-schemas', guards: 'every form schema file exists in schemas/forms/', run: checkFormSchemas },
  { name: 'form-fields', guards: 'fields a form names exist in its schema; visible fields have labels', run: checkFormFields },
  { name: 'targets', guards: 'every next and link target is a step', run: checkTargets },
  { name: 'app-steps', guards: 'the steps src/config.ts names exist', run: checkAppSteps },
  { name: 'routes', guards: 'routes and aliases are well formed and never overlap', run: checkRoutes },
  { name: 'shell-routes', guards: 'every step route is in flows/shell/routes.json with its title; redirects reach listed routes', run: checkShellRoutes },
  { name: 'value-sources', guards: 'prefills and link queries read values that can exist', run: checkValueSources },
  { name: 'next-rules', guards: 'no rule is shadowed; flags are known', run: checkNextRules },
  { name: 'challenges', guards: 'every challenge kind has exactly one step', run: checkChallenges },
  { name: 'reachability', guards: 'every step can be reached', run: checkReachability },
  { name: 'dead-ends', guards: 'no step leaves the user stuck', run: checkDeadEnds },
  { name: 'examples', guards: "a step's valid example passes its form, and each invalid one shows the message it names", run: checkExamples },
  { name: 'titles', guards: 'every part of every title has its key, with words in every language', run: checkTitles },
  { name: 'flow-message-keys', guards: 'every key a flow names is in every catalogue', run: checkFlowMessageKeys },
  { name: 'word-sets', guards: 'every key a flow names is in the main catalogue or its own word set', run: checkWordSets },
  { name: 'referenced-keys', guards: 'every key src/ and the password policy name is in every catalogue', run: checkReferencedKeys },
  { name: 'catalogues', guards: 'catalogues share keys and placeholders with en.json', run: checkCatalogues },
  { name: 'events', guards: 'every analytics event a flow names is in flows/shell/events.json', run: checkEvents },
  { name: 'bot-check', guards: 'an action making a bot-checked call carries the widget token', run: checkBotCheck },
  { name: 'api-routes', guards: 'every call a flow makes is a route of the step API, and every step route is called', run: checkApiRoutes },
  { name: 'api-errors', guards: 'every error code of the contract has its text in every catalogue, and every text a code', run: checkApiErrors },
];
