/**
 * A small, valid project for the flows:check tests: one flow of four steps, two catalogues, one
 * form schema. Each test breaks one thing in a fresh copy and asserts the exact problem lines.
 */
import type { FlowDefinition } from '../../../src/engine/flow-types.ts';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../../scripts/flows-check/problem.ts';
import type { Problem, Project } from '../../../scripts/flows-check/types.ts';

const flow: FlowDefinition = {
  id: 'start',
  steps: {
    'sign-in': {
      challenges: ['LOGIN_REQUIRED'],
      route: 'sign-in',
      title: 'Sign In',
      titleKeys: [],
      headline: 'start.headline',
      init: { method: 'GET', path: 'authorize', query: ['client_id'] },
      form: {
        schema: 'sign-in.schema.json',
        submit: 'start.submit',
        labels: { email: 'field.email' },
        messages: { email: { required: 'start.emailRequired' } },
        prefill: { email: { query: 'username' } },
      },
      call: { method: 'POST', path: 'auth/login' },
      events: { success: 'sign_in_success', error: 'sign_in_error' },
      links: [{ label: 'start.help', go: 'help', query: { username: { field: 'email' } } }],
      next: [{ when: { exists: 'redirect_to' }, go: 'done' }],
    },
    help: {
      route: 'help/:topic?',
      title: 'Help',
      titleKeys: [],
      headline: 'help.headline',
      links: [{ label: 'help.back', go: 'sign-in', query: { username: { submitted: 'email' } } }],
    },
    done: { route: 'done', title: 'Done', titleKeys: [], navigate: 'redirect_to' },
    oops: { challenges: ['MFA_SETUP'], route: 'oops', title: 'Error', titleKeys: [], headline: 'error.headline', terminal: true },
  },
};

const english = {
  'start.headline': 'Sign in',
  'start.submit': 'Go',
  'start.emailRequired': "Enter your email, e.g. '{email}'",
  'start.help': 'Help',
  'help.headline': 'Help',
  'help.back': 'Back',
  'error.headline': 'Oops',
  'field.email': 'Email',
  'apiError.auth.failed': 'Wrong.',
};

const german = {
  'start.headline': 'Anmelden',
  'start.submit': 'Los',
  'start.emailRequired': "E-Mail eingeben, z. B. '{email}'",
  'start.help': 'Hilfe',
  'help.headline': 'Hilfe',
  'help.back': 'Zurück',
  'error.headline': 'Hoppla',
  'field.email': 'E-Mail',
  'apiError.auth.failed': 'Falsch.',
};

/** A fresh copy of the valid project, safe to break. */
export function validProject(): Project {
  return {
    flows: [{ file: 'flows/start.json', flow: structuredClone(flow) }],
    formSchemas: new Map([['sign-in.schema.json', { properties: { email: { title: 'Email' } } }]]),
    catalogues: new Map([
      ['en', { ...english }],
      ['de', { ...german }],
    ]),
    messageKeyPattern: /^[a-z][a-zA-Z0-9_]*(\.[a-z][a-zA-Z0-9_]*)*$/,
    contractChallenges: ['LOGIN_REQUIRED', 'MFA_SETUP'],
    serverChallenges: ['LOGIN_REQUIRED'],
    challengeKinds: ['LOGIN_REQUIRED', 'MFA_SETUP'],
    apiErrors: { 'auth.failed': { status: 401 } },
    featureFlags: ['new-look'],
    carriedQuery: ['client_id'],
    appSteps: [
      { name: 'entryStep', step: 'sign-in' },
      { name: 'errorStep', step: 'oops' },
    ],
    keyReferences: [{ file: 'src/ui/help.tsx', path: '3', key: 'help.back' }],
    routeTable: {
      root: { title: 'Index', to: 'sign-in' },
      legacyPrefix: 'auth',
      legacyRoot: { title: 'Auth Landing Page', to: 'sign-in' },
      unknownTitle: 'Error',
      routes: [
        { path: 'sign-in', title: 'Sign In' },
        { path: 'help/:topic?', title: 'Help' },
        { path: 'done', title: 'Done' },
        { path: 'oops', title: 'Error' },
      ],
      legacy: [{ path: 'log-in', title: 'Old Sign In', to: 'sign-in' }],
    },
    eventCatalogue: new Map([
      ['sign_in_success', 'start'],
      ['sign_in_error', 'start'],
    ]),
  };
}

/** The one flow of `project`, to break. */
export function theFlow(project: Project): FlowDefinition {
  const first = project.flows[0];
  if (!first) throw new Error('the test project has no flow');
  return first.flow;
}

/** A step of the one flow, to break. */
export function stepOf(project: Project, id: string): FlowDefinition['steps'][string] {
  const step = theFlow(project).steps[id];
  if (!step) throw new Error(`the test project has no step ${id}`);
  return step;
}

/** One table row: a check, how to break the valid project for it, and the exact lines it must print. */
export interface CheckRow {
  check: (project: Project) => Problem[];
  change: (project: Project) => void;
  lines: string[];
}

/** The two tables every group of checks runs: each passes the valid project, and each row reports exactly its lines. */
export function describeChecks(title: string, checks: ReadonlyArray<(project: Project) => Problem[]>, rows: Record<string, CheckRow>): void {
  describe(title, () => {
    it.each(checks.map((check) => [check.name, check] as const))('%s finds nothing wrong in a valid project', (_name, check) => {
      expect(check(validProject())).toEqual([]);
    });

    it.each(Object.entries(rows))('report %s', (_name, { check, change, lines }) => {
      const project = validProject();
      change(project);
      expect(check(project).map(formatProblem)).toEqual(lines);
    });
  });
}
