/**
 * Every message key a step names, with the JSON path it is named at: headline, body, the client line, sections, the form's
 * submit, labels, choice labels and validation messages, link and action labels and toasts, and the same in each
 * variant. The consistency test reads the same list.
 */
import type { StepDefinition, StepVariant } from '../../src/engine/flow-types.ts';

/** A message key and where in the step it is named (relative to the step). */
export interface StepMessageKey {
  path: string;
  key: string;
}

/** The message keys `step` names, in the order they appear. */
export function stepMessageKeys(step: StepDefinition): StepMessageKey[] {
  const keys: StepMessageKey[] = [];
  if (step.headline) keys.push({ path: 'headline', key: step.headline });
  if (step.body) keys.push({ path: 'body', key: step.body });
  if (step.initFailure) keys.push({ path: 'initFailure', key: step.initFailure });
  if (typeof step.clientBanner === 'string') keys.push({ path: 'clientBanner', key: step.clientBanner });
  (step.sections ?? []).forEach((section, index) => {
    keys.push({ path: `sections[${index}].headline`, key: section.headline });
    keys.push({ path: `sections[${index}].body`, key: section.body });
  });
  if (step.form) {
    if (step.form.submit) keys.push({ path: 'form.submit', key: step.form.submit });
    for (const [field, key] of Object.entries(step.form.labels ?? {})) keys.push({ path: `form.labels.${field}`, key });
    for (const [field, byKeyword] of Object.entries(step.form.messages ?? {})) {
      for (const [keyword, key] of Object.entries(byKeyword)) keys.push({ path: `form.messages.${field}.${keyword}`, key });
    }
    for (const [field, source] of Object.entries(step.form.choices ?? {})) {
      for (const [value, key] of Object.entries(source.labels ?? {})) keys.push({ path: `form.choices.${field}.labels.${value}`, key });
    }
  }
  (step.links ?? []).forEach((link, index) => keys.push({ path: `links[${index}].label`, key: link.label }));
  (step.actions ?? []).forEach((action, index) => {
    keys.push({ path: `actions[${index}].label`, key: action.label });
    if (action.toast) keys.push({ path: `actions[${index}].toast`, key: action.toast });
  });
  if (step.backToApp) keys.push({ path: 'backToApp.label', key: step.backToApp.label });
  (step.variants ?? []).forEach((variant, index) => {
    for (const { path, key } of stepMessageKeys(variantOnly(variant))) keys.push({ path: `variants[${index}].${path}`, key });
  });
  return keys;
}

/** A variant's own keys as a step, so its texts are found the same way. */
function variantOnly(variant: StepVariant): StepDefinition {
  const { when: _when, title, ...own } = variant;
  return { route: '', title: title ?? '', titleKeys: [], ...own };
}
