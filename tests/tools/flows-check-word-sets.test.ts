/**
 * flows:check, the word-set check: a flow's word set loads only with that flow, so a step naming a key kept in
 * another flow's set would show the raw key when opened first (a reload, a link).
 */
import { checkWordSets } from '../../scripts/flows-check/check-word-sets.ts';
import { type CheckRow, describeChecks } from './support/check-project.ts';

const F = 'flows/start.json';
const places = (main: string[], sets: Record<string, string[]>) => ({
  main: new Set(main),
  sets: new Map(Object.entries(sets).map(([set, keys]) => [set, new Set(keys)])),
});

const rows: Record<string, CheckRow> = {
  "a key only another flow's word set holds": {
    check: checkWordSets,
    change: (p) => void (p.wordPlaces = places(['start.submit', 'field.email', 'start.emailRequired', 'start.help', 'help.headline', 'help.back', 'error.headline'], { other: ['start.headline'] })),
    lines: [`${F}:steps.sign-in.headline — names message key "start.headline", which only the word set "other" holds, and this flow has none — move it to flows/messages/<language>.json, since more than one flow names it`],
  },
  "a key in the flow's own word set": {
    check: checkWordSets,
    change: (p) => {
      p.wordPlaces = places(['start.submit', 'field.email', 'start.emailRequired', 'start.help', 'help.headline', 'help.back', 'error.headline'], { start: ['start.headline'] });
      const first = p.flows[0];
      if (first) first.flow.words = 'start';
    },
    lines: [],
  },
};

describeChecks('flows:check word-set check', [checkWordSets], rows);
