/**
 * flows:check, the message checks: keys named by flows and by src/, the catalogues against
 * en.json, and the server error texts. Each row breaks one thing and names the exact lines.
 */
import { checkApiErrors } from '../../scripts/flows-check/check-api-errors.ts';
import { checkCatalogues } from '../../scripts/flows-check/check-catalogues.ts';
import { checkFlowMessageKeys } from '../../scripts/flows-check/check-flow-message-keys.ts';
import { checkReferencedKeys } from '../../scripts/flows-check/check-referenced-keys.ts';
import type { Catalogue, Project } from '../../scripts/flows-check/types.ts';
import { type CheckRow, describeChecks, stepOf } from './support/check-project.ts';

const F = 'flows/start.json';

/** Replaces one catalogue by what `edit` makes of it. */
function editCatalogue(project: Project, language: string, edit: (catalogue: Record<string, string>) => void): void {
  const copy = { ...project.catalogues.get(language) };
  edit(copy);
  project.catalogues = new Map<string, Catalogue>([...project.catalogues, [language, copy]]);
}

const rows: Record<string, CheckRow> = {
  'a headline key no catalogue has': {
    check: checkFlowMessageKeys,
    change: (p) => void (stepOf(p, 'sign-in').headline = 'start.headlin'),
    lines: [`${F}:steps.sign-in.headline — names message key "start.headlin", missing from en.json, de.json — add it to every catalogue, or use one of: start.headline, start.help, error.headline, help.headline, start.submit, …`],
  },
  'a link label only German lacks (reported once, by the catalogue check)': {
    check: checkFlowMessageKeys,
    change: (p) => editCatalogue(p, 'de', (de) => delete de['start.help']),
    lines: [],
  },
  'a label and a validation message English lacks but German has': {
    check: checkFlowMessageKeys,
    change: (p) => editCatalogue(p, 'en', (en) => void (delete en['start.emailRequired'], delete en['field.email'])),
    lines: [
      `${F}:steps.sign-in.form.labels.email — names message key "field.email", missing from en.json — add it to flows/messages/en.json`,
      `${F}:steps.sign-in.form.messages.email.required — names message key "start.emailRequired", missing from en.json — add it to flows/messages/en.json`,
    ],
  },
  'a key src/ names that no catalogue has': {
    check: checkReferencedKeys,
    change: (p) => void (p.keyReferences = [{ file: 'src/ui/help.tsx', path: '12', key: 'help.bak' }]),
    lines: ['src/ui/help.tsx:12 — names message key "help.bak", missing from en.json, de.json — add it to every catalogue, or use one of: help.back, field.email, help.headline, start.help, start.submit, …'],
  },
  'a key German lacks': {
    check: checkCatalogues,
    change: (p) => editCatalogue(p, 'de', (de) => delete de['start.help']),
    lines: ['flows/messages/de.json:start.help — is missing (en.json: "Help") — add the German text'],
  },
  'a German key English does not have': {
    check: checkCatalogues,
    change: (p) => editCatalogue(p, 'de', (de) => void (de['help.extra'] = 'Mehr')),
    lines: ['flows/messages/de.json:help.extra — is not in en.json — remove it, or add it to en.json first'],
  },
  'a translated placeholder': {
    check: checkCatalogues,
    change: (p) => editCatalogue(p, 'de', (de) => void (de['start.emailRequired'] = "E-Mail eingeben, z. B. '{mail}'")),
    lines: ['flows/messages/de.json:start.emailRequired — has placeholders {mail}, en.json has {email} — use exactly {email}'],
  },
  'an empty text': {
    check: checkCatalogues,
    change: (p) => editCatalogue(p, 'de', (de) => void (de['help.back'] = ' ')),
    lines: ['flows/messages/de.json:help.back — is empty — write the text'],
  },
  'a key outside the message-key pattern': {
    check: checkCatalogues,
    change: (p) => void (editCatalogue(p, 'en', (en) => void (en['Help.Title'] = 'Help')), editCatalogue(p, 'de', (de) => void (de['Help.Title'] = 'Hilfe'))),
    lines: [
      'flows/messages/en.json:Help.Title — is not a valid message key (^[a-z][a-zA-Z0-9_]*(\\.[a-z][a-zA-Z0-9_]*)*$) — use dot-separated camelCase words, e.g. "login.headline"',
      'flows/messages/de.json:Help.Title — is not a valid message key (^[a-z][a-zA-Z0-9_]*(\\.[a-z][a-zA-Z0-9_]*)*$) — use dot-separated camelCase words, e.g. "login.headline"',
    ],
  },
  'no English catalogue': {
    check: checkCatalogues,
    change: (p) => void (p.catalogues = new Map([...p.catalogues].filter(([language]) => language !== 'en'))),
    lines: ['flows/messages/en.json:(file) — is missing — create it: English is the catalogue every language follows'],
  },
  'a server error code without its text': {
    check: checkApiErrors,
    change: (p) => void (p.apiErrors = { ...p.apiErrors, 'code.invalid': { message: 'That code is wrong.' } }),
    lines: ['flows/messages/en.json:apiError.code.invalid — is missing for the server\'s error code code.invalid — add it to every catalogue, in English "That code is wrong."'],
  },
  "an English error text unlike the server's": {
    check: checkApiErrors,
    change: (p) => editCatalogue(p, 'en', (en) => void (en['apiError.auth.failed'] = 'Wrong!')),
    lines: ['flows/messages/en.json:apiError.auth.failed — says "Wrong!" but server/errors.ts says "Wrong." — copy the server\'s wording exactly'],
  },
  'an error text whose code is gone': {
    check: checkApiErrors,
    change: (p) => editCatalogue(p, 'en', (en) => void (en['apiError.old.gone'] = 'Gone.')),
    lines: ['flows/messages/en.json:apiError.old.gone — names no error code of server/errors.ts — remove it from every catalogue'],
  },
};

describeChecks('flows:check message checks', [checkFlowMessageKeys, checkReferencedKeys, checkCatalogues, checkApiErrors], rows);
