/**
 * What the browser walks type, taken from the flows (tests/support/example-walk.ts): the compiled graph says which
 * step follows which, each step's example inputs (`examples.valid`) say what to type, and the English catalogues what
 * each field's label, the submit button and the title read. A step added as JSON is filled with no edit here. Reads a
 * project folder (the project's own by default), so a vitest test runs it over a fixture's flows without a browser.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFlows } from '../../contract/flow-sources.ts';
import { walkExamples } from '../../tests/support/example-walk.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One field as the browser finds it: its English label, and what to type (or true to tick it). */
export interface FilledField {
  label: string;
  value: string | boolean;
}

/** One step as a browser walk fills it: its title, its fields and the words of its submit button. */
export interface FilledStep {
  id: string;
  title: string;
  fields: readonly FilledField[];
  submit: string;
}

/** What a register call answers on the way to the emailed code: where the code went. */
export const CODE_SENT = { parameters: { delivery_destination: 'a•••@example.com' } };

/** The English words of every catalogue of `root`'s flows (flows/messages/en.json and each word set's en.json). */
function englishWords(root: string): Record<string, string> {
  const messages = path.join(root, 'flows', 'messages');
  const files = [path.join(messages, 'en.json'), ...fs.readdirSync(messages, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => path.join(messages, entry.name, 'en.json'))];
  return Object.assign({}, ...files.filter((file) => fs.existsSync(file)).map((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>));
}

/** The flows of `root` as the browser walks fill them. */
export function flowExamples(root: string = ROOT) {
  const { flows, graph } = compileFlows(root);
  const english = englishWords(root);
  const words = (key: string): string => {
    const text = english[key];
    if (text === undefined) throw new Error(`no English words for ${key}`);
    return text;
  };
  const definition = (id: string) => {
    for (const flow of flows) if (flow.steps[id]) return flow.steps[id];
    throw new Error(`no flow defines step ${id}`);
  };

  /** Step `id` filled with `values`: each field found by its label. */
  const filled = (id: string, values: Readonly<Record<string, unknown>>): FilledStep => {
    const step = definition(id);
    const form = step.form;
    if (!form?.submit) throw new Error(`step ${id} has no form to submit`);
    const fields = Object.entries(values).map(([field, value]) => {
      const label = form.labels?.[field];
      if (!label) throw new Error(`step ${id}: field ${field} has no label`);
      return { label: words(label), value: value === true ? true : String(value) };
    });
    return { id, title: step.title, fields, submit: words(form.submit) };
  };

  return {
    graph,
    /**
     * The steps from `from` that a browser fills when every call answers `answer`, each with its example inputs, the
     * values of `known` in place of the examples' for the fields they name (a walk's own address and password); and the
     * step the walk stops at, which declares no examples (a mailed code).
     */
    walk(from: string, answer: object, known: Readonly<Record<string, unknown>> = {}): { steps: FilledStep[]; stopsAt: string } {
      const { steps, stopsAt } = walkExamples(graph, from, answer);
      return { steps: steps.map((step) => filled(step.id, withKnown(step.values, known))), stopsAt };
    },
    /** Step `id` filled from its example inputs and `known`, or undefined when it declares none. */
    example(id: string, known: Readonly<Record<string, unknown>> = {}): FilledStep | undefined {
      const examples = graph.steps[id]?.examples;
      return examples ? filled(id, withKnown(examples.valid, known)) : undefined;
    },
    /** The document title of step `id`. */
    title: (id: string): string => definition(id).title,
    /** Step `id` with its only field filled with `value` (a code screen's code). */
    single(id: string, value: string): FilledStep {
      const names = Object.keys(definition(id).form?.labels ?? {});
      if (names.length !== 1) throw new Error(`step ${id} has ${names.length} labelled fields, not one`);
      return filled(id, { [names[0] as string]: value });
    },
    /** The steps of flow `flowId` a person may enter only from the steps their guard names, each with where it sends one who opens it by its address. */
    guarded(flowId: string): Array<{ id: string; route: string; otherwise: { id: string; route: string; title: string } }> {
      return Object.values(graph.steps)
        .filter((step) => step.flow === flowId && step.guard?.from)
        .map((step) => {
          const otherwise = step.guard!.otherwise;
          return { id: step.id, route: definition(step.id).route, otherwise: { id: otherwise, route: definition(otherwise).route, title: definition(otherwise).title } };
        });
    },
  };
}

/** The examples' values with `known`'s in place for the fields both name. */
function withKnown(values: Readonly<Record<string, unknown>>, known: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([field, value]) => [field, field in known ? known[field] : value]));
}
