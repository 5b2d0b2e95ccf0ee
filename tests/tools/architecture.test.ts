/**
 * The layering of server/, src/ and contract/, kept by a test: no import cycles, and the layer rules
 * below (a table, read top to bottom). Each rule is first proven on a tiny made-up tree, so a rule
 * that could never fail, or a tree where it binds no file, cannot pass by accident.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesBoundBy, findCycles, importGraphOf, readImportGraph, ruleViolations, type LayerRule } from './support/import-graph.ts';

const root = join(import.meta.dirname, '..', '..');

/** The server's domain: the sign-in state machine and everything below it, none of it HTTP. */
const DOMAIN_FOLDERS = ['auth', 'mfa', 'companies', 'store', 'crypto', 'db', 'mail', 'sms', 'flags', 'flows', 'sign-in', 'outbox'].map((name) => `server/${name}/`);

const LAYER_RULES: readonly LayerRule[] = [
  {
    name: 'the server domain never imports the HTTP layer (server/api/, fastify)',
    files: DOMAIN_FOLDERS,
    forbidden: { files: ['server/api/'], packages: ['fastify', '@fastify/'] },
  },
  {
    name: 'the web engine and browser services never import React, the views or the atoms',
    files: ['src/engine/', 'src/services/'],
    forbidden: { files: ['src/ui/', 'src/state/'], packages: ['react', 'react-dom'] },
  },
  { name: 'browser services never import the engine', files: ['src/services/'], forbidden: { files: ['src/engine/'] } },
  { name: 'the contract imports neither the server nor the web app', files: ['contract/'], forbidden: { files: ['server/', 'src/'] } },
  { name: 'the web app never imports the server', files: ['src/'], forbidden: { files: ['server/'] } },
  { name: 'the server never imports the web app', files: ['server/'], forbidden: { files: ['src/'] } },
];

/** For each rule, a made-up tree breaking it once through a file import and (where the rule bans packages) a package import. */
const BROKEN_TREES: ReadonlyArray<{ rule: string; sources: Record<string, string>; violations: string[] }> = [
  {
    rule: LAYER_RULES[0]!.name,
    sources: {
      'server/mfa/code-factor.ts': "import { ApiError } from '../api/errors.ts';\nimport type { FastifyRequest } from 'fastify';\nimport { findUser } from '../store/users.ts';",
      'server/sign-in/gates.ts': "import cookie from '@fastify/cookie';",
      'server/api/errors.ts': '',
      'server/store/users.ts': '',
    },
    violations: ['server/mfa/code-factor.ts imports server/api/errors.ts', 'server/mfa/code-factor.ts imports fastify', 'server/sign-in/gates.ts imports @fastify/cookie'],
  },
  {
    rule: LAYER_RULES[1]!.name,
    sources: {
      'src/engine/controller.ts': "import { useState } from 'react';\nimport { stepAtom } from '../state/step-atom.ts';\nimport { readPath } from './read-path.ts';",
      'src/services/toasts.ts': "import { createRoot } from 'react-dom/client';\nconst view = () => import('../ui/toast-region.tsx');",
      'src/engine/read-path.ts': '',
      'src/state/step-atom.ts': '',
      'src/ui/toast-region.tsx': '',
    },
    violations: [
      'src/engine/controller.ts imports react',
      'src/engine/controller.ts imports src/state/step-atom.ts',
      'src/services/toasts.ts imports react-dom',
      'src/services/toasts.ts imports src/ui/toast-region.tsx',
    ],
  },
  {
    rule: LAYER_RULES[2]!.name,
    sources: {
      'src/services/api-client.ts': "import type { StepCall } from '../engine/step-call.ts';\nimport { toasts } from './toasts.ts';",
      'src/engine/step-call.ts': "import { post } from '../services/api-client.ts';",
      'src/services/toasts.ts': '',
    },
    violations: ['src/services/api-client.ts imports src/engine/step-call.ts'],
  },
  {
    rule: LAYER_RULES[3]!.name,
    sources: {
      'contract/error-codes.ts': "import { API_ERRORS } from '../server/errors.ts';\nimport { catalogue } from '../src/ui/messages.ts';\nimport { API_PREFIX } from './constants.ts';",
      'contract/constants.ts': '',
      'server/errors.ts': "import { ERROR_CODES } from '../contract/error-codes.ts';",
      'src/ui/messages.ts': '',
    },
    violations: ['contract/error-codes.ts imports server/errors.ts', 'contract/error-codes.ts imports src/ui/messages.ts'],
  },
  {
    rule: LAYER_RULES[4]!.name,
    sources: {
      'src/engine/flows.ts': "import type { FlowRegistry } from '../../server/flows/flow-registry.ts';\nimport { API_PREFIX } from '../../contract/constants.ts';",
      'server/flows/flow-registry.ts': '',
      'contract/constants.ts': '',
    },
    violations: ['src/engine/flows.ts imports server/flows/flow-registry.ts'],
  },
  {
    rule: LAYER_RULES[5]!.name,
    sources: {
      'server/flows/flow-registry.ts': "import type { FlowDefinition } from '../../src/engine/flow-types.ts';\nimport { API_PREFIX } from '../../contract/constants.ts';",
      'src/engine/flow-types.ts': '',
      'contract/constants.ts': '',
    },
    violations: ['server/flows/flow-registry.ts imports src/engine/flow-types.ts'],
  },
];

describe('the layer rules, on made-up trees', () => {
  it('prove every rule of the table', () => {
    expect(BROKEN_TREES.map((tree) => tree.rule)).toEqual(LAYER_RULES.map((rule) => rule.name));
  });

  it.each(LAYER_RULES.map((rule, index) => [rule.name, rule, BROKEN_TREES[index]!] as const))('catch what breaks the rule: %s', (_name, rule, tree) => {
    expect(ruleViolations(importGraphOf(tree.sources), rule).sort()).toEqual([...tree.violations].sort());
  });

  it.each(LAYER_RULES.map((rule) => [rule.name, rule] as const))('let a tree that keeps the rule pass: %s', (_name, rule) => {
    const kept = importGraphOf({
      'server/auth/passwords.ts': "import { hash } from '@node-rs/argon2';\nimport { LIMITS } from '../config.ts';",
      'server/api/login-routes.ts': "import type { FastifyInstance } from 'fastify';\nimport { verify } from '../auth/passwords.ts';",
      'server/config.ts': "import { API_PREFIX } from '../contract/constants.ts';",
      'src/ui/step-view.tsx': "import { useAtom } from 'jotai';\nimport { nextStep } from '../engine/next-rules.ts';",
      'src/engine/next-rules.ts': "import { readFlags } from '../services/flags.ts';",
      'src/services/flags.ts': "import { API_PREFIX } from '../../contract/constants.ts';",
      'contract/constants.ts': '',
    });
    expect(ruleViolations(kept, rule)).toEqual([]);
  });
});

describe('cycle finding, on made-up trees', () => {
  it.each<{ name: string; sources: Record<string, string>; cycles: string[] }>([
    {
      name: 'a three-file circle',
      sources: { 'server/a.ts': "import { b } from './b.ts';", 'server/b.ts': "import { c } from './c.ts';", 'server/c.ts': "import { a } from './a.ts';" },
      cycles: ['server/a.ts → server/b.ts → server/c.ts → server/a.ts'],
    },
    {
      name: 'a circle closed by a type-only import and a lazy import',
      sources: { 'src/a.ts': "import type { B } from './b.tsx';", 'src/b.tsx': "const A = lazy(() => import('./a.ts'));" },
      cycles: ['src/a.ts → src/b.tsx → src/a.ts'],
    },
    { name: 'a file importing itself', sources: { 'src/a.ts': "export * from './a.ts';" }, cycles: ['src/a.ts → src/a.ts'] },
    {
      name: 'a circle inside a larger knot, naming the rest of the knot',
      sources: {
        'server/a.ts': "import './b.ts';",
        'server/b.ts': "import './a.ts';\nimport './c.ts';",
        'server/c.ts': "import './d.ts';",
        'server/d.ts': "import './b.ts';",
      },
      cycles: ['server/a.ts → server/b.ts → server/a.ts (4 files in one knot: also server/c.ts, server/d.ts)'],
    },
    {
      name: 'two separate circles',
      sources: {
        'server/a.ts': "import './b.ts';",
        'server/b.ts': "import './a.ts';",
        'src/c.ts': "import './d';",
        'src/d.ts': "import { c } from './c.ts';\nimport { e } from './e.ts';",
        'src/e.ts': '',
      },
      cycles: ['server/a.ts → server/b.ts → server/a.ts', 'src/c.ts → src/d.ts → src/c.ts'],
    },
    {
      name: 'no circle in a diamond',
      sources: { 'src/a.ts': "import './b.ts';\nimport './c.ts';", 'src/b.ts': "import './d.ts';", 'src/c.ts': "import './d.ts';", 'src/d.ts': "import 'react';" },
      cycles: [],
    },
  ])('finds $name', ({ sources, cycles }) => {
    expect(findCycles(importGraphOf(sources))).toEqual(cycles);
  });
});

describe('the import graph', () => {
  it('resolves relative imports to files and names packages by their package', () => {
    const graph = importGraphOf(
      {
        'src/ui/app.tsx': [
          "import './theme.css';",
          "import terms from '../../public/legal/terms.txt?raw';",
          "import { readPath } from '../engine/read-path';",
          "import { createRoot } from 'react-dom/client';",
          "const sentry = () => import('@sentry/react');",
        ].join('\n'),
        'src/engine/read-path.ts': '',
      },
      ['src/ui/theme.css'],
    );
    expect(graph.get('src/ui/app.tsx')).toEqual([
      { file: 'src/ui/theme.css' },
      { file: 'public/legal/terms.txt' },
      { file: 'src/engine/read-path.ts' },
      { package: 'react-dom' },
      { package: '@sentry/react' },
    ]);
  });
});

describe('this tree', () => {
  const graph = readImportGraph(root, ['server', 'src', 'contract']);

  it('has no import cycles', () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it.each(LAYER_RULES.map((rule) => [rule.name, rule] as const))('keeps the rule: %s', (_name, rule) => {
    expect(filesBoundBy(graph, rule), `the rule binds no file: nothing under ${rule.files.join(', ')}`).not.toEqual([]);
    expect(ruleViolations(graph, rule)).toEqual([]);
  });
});
