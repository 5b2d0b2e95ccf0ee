/**
 * flows:check, the reference checks: ids, form schemas and fields, step targets, the app's steps,
 * routes and value sources. Each row breaks one thing in a valid project and names the exact lines.
 */
import { checkAppSteps } from '../../scripts/flows-check/check-app-steps.ts';
import { checkFormFields } from '../../scripts/flows-check/check-form-fields.ts';
import { checkFormSchemas } from '../../scripts/flows-check/check-form-schemas.ts';
import { checkIds } from '../../scripts/flows-check/check-ids.ts';
import { checkRoutes } from '../../scripts/flows-check/check-routes.ts';
import { checkTargets } from '../../scripts/flows-check/check-targets.ts';
import { checkValueSources } from '../../scripts/flows-check/check-value-sources.ts';
import { type CheckRow, describeChecks, stepOf, theFlow } from './support/check-project.ts';

const F = 'flows/start.json';

const rows: Record<string, CheckRow> = {
  'a flow id unlike its file name': {
    check: checkIds,
    change: (p) => void (theFlow(p).id = 'begin'),
    lines: [`${F}:id — is "begin" but the file is start.json — rename one so both say "start" or "begin"`],
  },
  'a step id used by two flows': {
    check: checkIds,
    change: (p) => void (p.flows = [...p.flows, { file: 'flows/other.json', flow: { id: 'other', steps: { help: { route: 'other', title: 'Other', titleKeys: [] } } } }]),
    lines: ['flows/other.json:steps.help — step id "help" is already used in flows/start.json — give one of them another id'],
  },
  'a form schema file that does not exist': {
    check: checkFormSchemas,
    change: (p) => void ((stepOf(p, 'sign-in').form ?? { schema: '' }).schema = 'sign-on.schema.json'),
    lines: [`${F}:steps.sign-in.form.schema — names "sign-on.schema.json", which is not in schemas/forms/ — create schemas/forms/sign-on.schema.json, or use one of: sign-in.schema.json`],
  },
  'a form schema with a description, which users would see under the form': {
    check: checkFormSchemas,
    change: (p) => void (p.formSchemas = new Map([['sign-in.schema.json', { description: 'A note for developers.', properties: { email: { title: 'Email' } } }]])),
    lines: ['schemas/forms/sign-in.schema.json:description — would be shown to users under the form — write notes for developers in "$comment"'],
  },
  'a prefill of a field the schema lacks': {
    check: checkFormFields,
    change: (p) => void (stepOf(p, 'sign-in').form = { schema: 'sign-in.schema.json', submit: 'start.submit', labels: { email: 'field.email' }, prefill: { emial: { query: 'username' } } }),
    lines: [`${F}:steps.sign-in.form.prefill.emial — names field "emial", which sign-in.schema.json does not have — use one of: email`],
  },
  'an encrypted field the schema lacks': {
    check: checkFormFields,
    change: (p) => void (stepOf(p, 'sign-in').call = { method: 'POST', path: 'auth/login', encrypt: ['password'] }),
    lines: [`${F}:steps.sign-in.call.encrypt[0] — names field "password", which sign-in.schema.json does not have — use one of: email`],
  },
  'a visible field without a label': {
    check: checkFormFields,
    change: (p) => void (stepOf(p, 'sign-in').form = { schema: 'sign-in.schema.json', submit: 'start.submit' }),
    lines: [`${F}:steps.sign-in.form.labels — has no label for field "email", so it shows "Email" in every language — add "email": "<message key>" and that key to every catalogue`],
  },
  'a hidden field without a label (fine: the user never sees it)': {
    check: checkFormFields,
    change: (p) => void (stepOf(p, 'sign-in').form = { schema: 'sign-in.schema.json', submit: 'start.submit', ui: { email: { 'ui:widget': 'hidden' } } }),
    lines: [],
  },
  'a next rule to an unknown step': {
    check: checkTargets,
    change: (p) => void (stepOf(p, 'sign-in').next = [{ go: 'dnoe' }]),
    lines: [`${F}:steps.sign-in.next[0].go — points at unknown step "dnoe" — use one of: done, help, oops, sign-in`],
  },
  'a link to an unknown step': {
    check: checkTargets,
    change: (p) => void (stepOf(p, 'help').links = [{ label: 'help.back', go: 'sign-on' }]),
    lines: [`${F}:steps.help.links[0].go — points at unknown step "sign-on" — use one of: sign-in, done, help, oops`],
  },
  'a config step no flow defines': {
    check: checkAppSteps,
    change: (p) => void (p.appSteps = [{ name: 'errorStep', step: 'oopz' }]),
    lines: ['src/config.ts:errorStep — names unknown step "oopz" — define it in a flow, or use one of: oops, done, help, sign-in'],
  },
  'a route with a trailing slash': {
    check: checkRoutes,
    change: (p) => void (stepOf(p, 'done').route = 'done/'),
    lines: [`${F}:steps.done.route — "done/" has an empty segment — remove the doubled or trailing slash`],
  },
  'an optional parameter before the end': {
    check: checkRoutes,
    change: (p) => void (stepOf(p, 'help').route = 'help/:topic?/more'),
    lines: [`${F}:steps.help.route — optional parameter ":topic?" of "help/:topic?/more" is not last — make it required, or move it to the end`],
  },
  'a colon inside a segment': {
    check: checkRoutes,
    change: (p) => void (stepOf(p, 'done').route = 'all:done'),
    lines: [`${F}:steps.done.route — segment "all:done" of "all:done" is neither a word nor a :parameter — write :name for a parameter, :name? for an optional last one`],
  },
  'a parameter named twice': {
    check: checkRoutes,
    change: (p) => void (stepOf(p, 'done').route = 'done/:id/:id'),
    lines: [`${F}:steps.done.route — "done/:id/:id" names parameter ":id" twice — give each parameter its own name`],
  },
  'a route another step already has': {
    check: checkRoutes,
    change: (p) => void (stepOf(p, 'oops').route = 'done'),
    lines: [`${F}:steps.oops.route — "done" is already the route of step "done" (flows/start.json) — choose a path no other step uses`],
  },
  'an alias matching the addresses of an optional parameter': {
    check: checkRoutes,
    change: (p) => void (stepOf(p, 'done').aliases = ['help']),
    lines: [`${F}:steps.done.aliases[0] — "help" matches the same addresses as "help/:topic?", the route of step "help" (flows/start.json) — choose a path no other step uses`],
  },
  'an alias with other parameters than its route': {
    check: checkRoutes,
    change: (p) => void (stepOf(p, 'help').aliases = ['faq']),
    lines: [`${F}:steps.help.aliases[0] — alias "faq" takes parameters (none) unlike route "help/:topic?" (topic) — an alias shows the same screen: give it the same parameters`],
  },
  'a prefill reading its own form': {
    check: checkValueSources,
    change: (p) => void (stepOf(p, 'sign-in').form = { schema: 'sign-in.schema.json', submit: 'start.submit', prefill: { email: { field: 'email' } } }),
    lines: [`${F}:steps.sign-in.form.prefill.email.field — reads a field of the form it prefills — use query, parameter or submitted`],
  },
  'a link reading a field its form lacks': {
    check: checkValueSources,
    change: (p) => void (stepOf(p, 'sign-in').links = [{ label: 'start.help', go: 'help', query: { username: { field: 'mail' } } }]),
    lines: [`${F}:steps.sign-in.links[0].query.username.field — reads field "mail", which this step's form does not have — use one of: email`],
  },
  'a submitted value no step of the flow submits': {
    check: checkValueSources,
    change: (p) => void (stepOf(p, 'help').links = [{ label: 'help.back', go: 'sign-in', query: { username: { submitted: 'emial' } } }]),
    lines: [`${F}:steps.help.links[0].query.username.submitted — reads submitted "emial", which no step of flow "start" submits — use one of: email`],
  },
  'an answer parameter on a step no answer leads to': {
    check: checkValueSources,
    change: (p) => void (stepOf(p, 'help').links = [{ label: 'help.back', go: 'sign-in', query: { username: [{ parameter: 'email' }, { submitted: 'email' }] } }]),
    lines: [`${F}:steps.help.links[0].query.username[0].parameter — reads answer parameter "email", but no answer leads to step "help" — claim the challenge whose answer carries it, or read query or submitted`],
  },
  'a query value the app does not carry': {
    check: checkValueSources,
    change: (p) => void (stepOf(p, 'help').links = [{ label: 'help.back', go: 'sign-in', query: { username: { query: 'lang' } } }]),
    lines: [`${F}:steps.help.links[0].query.username.query — reads query "lang", which the app does not carry from step to step — add it to carriedQuery in src/config.ts, or use one of: client_id`],
  },
};

describeChecks('flows:check reference checks', [checkIds, checkFormSchemas, checkFormFields, checkTargets, checkAppSteps, checkRoutes, checkValueSources], rows);
