/**
 * The steps of every flow, read from flows/*.json as the app reads them, and which step an address shows: the
 * generated navigation test (e2e/every-step-navigation.spec.ts) covers each without being edited for a new one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A step as the navigation test sees it. */
export interface FlowStep {
  id: string;
  flowId: string;
  route: string;
  aliases: readonly string[];
  /** The step hands the browser on at once (a `navigate` step) or only asks the server where to go (an `errors` step with an `init` and no screen of its own). */
  passThrough: boolean;
  /** An end screen by design (`terminal`): it may offer nothing but the frame's help link. */
  terminal: boolean;
}

const FLOWS_DIR = fileURLToPath(new URL('../../flows/', import.meta.url));

interface StepFile {
  route: string;
  aliases?: string[];
  navigate?: string;
  errors?: string[];
  init?: unknown;
  headline?: string;
  body?: string;
  backToApp?: unknown;
  terminal?: boolean;
}

/** Every step of every flow file. */
export function readFlowSteps(): FlowStep[] {
  return fs
    .readdirSync(FLOWS_DIR)
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) => {
      const flow = JSON.parse(fs.readFileSync(path.join(FLOWS_DIR, file), 'utf8')) as { id: string; steps: Record<string, StepFile> };
      return Object.entries(flow.steps).map(([id, step]) => ({
        id,
        flowId: flow.id,
        route: step.route,
        aliases: step.aliases ?? [],
        terminal: step.terminal === true,
        passThrough: step.navigate !== undefined || (step.errors !== undefined && step.init !== undefined && step.backToApp === undefined && step.body === undefined),
      }));
    });
}

function routeRegExp(route: string): RegExp {
  const parts = route.split('/').map((segment) => {
    if (!segment.startsWith(':')) return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    return segment.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
  });
  return new RegExp(`^/auth${parts.join('')}/?$`);
}

/** The step whose route or alias `pathName` is, if any. */
export function stepAt(steps: readonly FlowStep[], pathName: string): FlowStep | undefined {
  return steps.find((step) => [step.route, ...step.aliases].some((route) => routeRegExp(route).test(pathName)));
}
